#include "util/NodeList.hpp"

#include <charconv>
#include <stdexcept>

namespace pbench {
namespace {

std::string trim(const std::string& s) {
  const auto first = s.find_first_not_of(" \t\r");
  if (first == std::string::npos) return "";
  return s.substr(first, s.find_last_not_of(" \t\r") - first + 1);
}

std::invalid_argument bad(const std::string& text, const std::string& why) {
  return std::invalid_argument("node list '" + text + "': " + why);
}

/// The numbers of one bracket group, "1-3,07" -> 1, 2, 3, 07 (as text, padded like the bound).
std::vector<std::string> expand_group(const std::string& group, const std::string& whole) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (start <= group.size()) {
    const auto comma = group.find(',', start);
    const auto item = group.substr(start, comma == std::string::npos ? comma : comma - start);
    const auto dash = item.find('-');
    const std::string low = item.substr(0, dash);
    const std::string high = dash == std::string::npos ? low : item.substr(dash + 1);
    auto number = [&](const std::string& digits) {
      if (digits.empty() || digits.find_first_not_of("0123456789") != std::string::npos ||
          digits.size() > 9) {
        throw bad(whole, "'" + item + "' is not a number or a range of numbers");
      }
      int value = 0;
      std::from_chars(digits.data(), digits.data() + digits.size(), value);
      return value;
    };
    const int from = number(low), to = number(high);
    if (to < from) throw bad(whole, "range '" + item + "' runs backwards");
    if (to - from > 100000) throw bad(whole, "range '" + item + "' is too long");
    for (int v = from; v <= to; ++v) {
      std::string digits = std::to_string(v);
      if (digits.size() < low.size()) digits.insert(0, low.size() - digits.size(), '0');
      out.push_back(digits);
    }
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

/// One host expression ("node[1-2]-ib[0-1]") into its names.
void expand_host(const std::string& expr, const std::string& whole, std::vector<std::string>& out) {
  const auto open = expr.find('[');
  if (open == std::string::npos) {
    if (expr.find(']') != std::string::npos) throw bad(whole, "']' without '['");
    out.push_back(expr);
    return;
  }
  const auto close = expr.find(']', open);
  if (close == std::string::npos) throw bad(whole, "'[' without ']'");
  const std::string prefix = expr.substr(0, open);
  if (prefix.find(']') != std::string::npos) throw bad(whole, "']' without '['");
  const std::string rest = expr.substr(close + 1);
  for (const auto& n : expand_group(expr.substr(open + 1, close - open - 1), whole)) {
    expand_host(prefix + n + rest, whole, out);
  }
}

}  // namespace

std::vector<std::string> expand_node_list(const std::string& text) {
  std::vector<std::string> out;
  // Split at the commas outside brackets.
  int depth = 0;
  std::string item;
  auto flush = [&] {
    const auto host = trim(item);
    if (host.empty()) throw bad(text, "an empty host name");
    expand_host(host, text, out);
    item.clear();
  };
  if (trim(text).empty()) return out;
  for (char c : text) {
    if (c == '[') {
      if (depth++ > 0) throw bad(text, "nested '['");
    } else if (c == ']') {
      if (--depth < 0) throw bad(text, "']' without '['");
    }
    if (c == ',' && depth == 0) {
      flush();
    } else {
      item += c;
    }
  }
  if (depth != 0) throw bad(text, "'[' without ']'");
  flush();
  return out;
}

}  // namespace pbench
