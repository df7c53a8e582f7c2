#include "bcast/SizeList.hpp"

#include <cctype>
#include <istream>
#include <iterator>
#include <limits>
#include <ostream>

#include "common/Units.hpp"

namespace pbench::bcast {

namespace {

std::string trim(const std::string& text) {
  std::size_t begin = 0;
  std::size_t end = text.size();
  while (begin < end && std::isspace(static_cast<unsigned char>(text[begin]))) ++begin;
  while (end > begin && std::isspace(static_cast<unsigned char>(text[end - 1]))) --end;
  return text.substr(begin, end - begin);
}

}  // namespace

SizeList SizeList::parse(const std::string& text) {
  SizeList list;
  auto fail = [&](const std::string& why) {
    list.sizes_.clear();
    list.error_ = "'" + text + "': " + why +
                  " (give message sizes, comma-separated, e.g. 8,256,64KiB; units: " +
                  units::kSizeUnits + ")";
    return list;
  };
  if (trim(text).empty()) return fail("no size given");
  std::size_t start = 0;
  for (int position = 1;; ++position) {
    const std::size_t comma = text.find(',', start);
    const std::string element =
        trim(text.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    const std::string where = "element " + std::to_string(position);
    if (element.empty()) return fail(where + " is empty");
    const auto value = units::parse_size(element);
    if (!value) return fail(where + " '" + element + "' is not a size");
    list.sizes_.push_back(*value);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return list;
}

std::string SizeList::text() const {
  std::string out;
  for (std::int64_t s : sizes_) out += (out.empty() ? "" : ",") + std::to_string(s);
  return out;
}

std::istream& operator>>(std::istream& in, SizeList& list) {
  const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  list = SizeList::parse(text);
  in.clear(std::ios::eofbit);  // consumed everything, and a malformed list is not a stream error
  return in;
}

std::ostream& operator<<(std::ostream& out, const SizeList& list) {
  return out << list.text();
}

void to_json(nlohmann::json& j, const SizeList& list) {
  j = list.sizes();
}

}  // namespace pbench::bcast
