#include "sweep/ListParser.hpp"

#include <charconv>

#include "util/Error.hpp"

namespace pbench::sweep {

void for_each_list_item(const std::string& text, const std::string& option,
                        const std::string& example,
                        const std::function<void(const std::string&, const std::string&)>& each) {
  if (text.empty()) throw UsageError(option + ": empty list (expected e.g. " + example + ")");
  const std::string where = option + ": '" + text + "'";
  std::size_t start = 0;
  for (std::size_t position = 1;; ++position) {
    const std::size_t comma = text.find(',', start);
    const std::size_t end = comma == std::string::npos ? text.size() : comma;
    const std::string item = text.substr(start, end - start);
    if (item.empty()) {
      throw UsageError(where + " has an empty item at position " + std::to_string(position));
    }
    each(item, where);
    if (comma == std::string::npos) return;
    start = comma + 1;
  }
}

std::vector<int> parse_positive_list(const std::string& text, const std::string& option) {
  std::vector<int> out;
  for_each_list_item(text, option, "1,2,4", [&](const std::string& item, const std::string& where) {
    long long value = 0;
    auto [ptr, ec] = std::from_chars(item.data(), item.data() + item.size(), value);
    if (ec == std::errc::result_out_of_range || (ec == std::errc() && value > 1'000'000'000)) {
      throw UsageError(where + ": '" + item + "' is too large");
    }
    if (ec != std::errc() || ptr != item.data() + item.size()) {
      throw UsageError(where + ": '" + item + "' is not a whole number");
    }
    if (value <= 0) throw UsageError(where + ": '" + item + "' must be positive");
    out.push_back(static_cast<int>(value));
  });
  return out;
}

std::string join_list(const std::vector<int>& values) {
  std::string out;
  for (int v : values) {
    if (!out.empty()) out += ',';
    out += std::to_string(v);
  }
  return out;
}

}  // namespace pbench::sweep
