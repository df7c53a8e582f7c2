#include "sweep/ListParser.hpp"

#include <charconv>

#include "util/Error.hpp"

namespace pbench::sweep {

std::vector<int> parse_positive_list(const std::string& text, const std::string& option) {
  std::vector<int> out;
  if (text.empty()) throw UsageError(option + ": empty list (expected e.g. 1,2,4)");
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t comma = text.find(',', start);
    const std::size_t end = comma == std::string::npos ? text.size() : comma;
    const std::string item = text.substr(start, end - start);
    const std::string where = option + ": '" + text + "'";
    if (item.empty()) {
      throw UsageError(where + " has an empty item at position " + std::to_string(out.size() + 1));
    }
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
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
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
