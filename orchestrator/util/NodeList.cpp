#include "util/NodeList.hpp"

#include <charconv>
#include <cstdint>
#include <map>
#include <set>
#include <stdexcept>
#include <tuple>

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

/// Hosts that differ only in their last number: "prefix<number>suffix", the numbers written
/// `width` digits wide (0: as they are, unpadded); a host without a number is a group of its own.
struct HostGroup {
  std::string prefix;
  std::string suffix;
  std::size_t width = 0;
  bool numbered = false;
  std::set<std::uint64_t> numbers;
};

/// A host's last run of digits and what lies before and after it ("r1n07x": "r1n", "07", "x").
struct NumberedName {
  std::string prefix, digits, suffix;
};

NumberedName split_last_number(const std::string& host) {
  const auto last = host.find_last_of("0123456789");
  if (last == std::string::npos) return {host, "", ""};
  auto first = last;
  while (first > 0 && host[first - 1] >= '0' && host[first - 1] <= '9') --first;
  return {host.substr(0, first), host.substr(first, last - first + 1), host.substr(last + 1)};
}

bool padded(const std::string& digits) {
  return digits.size() > 1 && digits[0] == '0';
}

std::string number_text(std::uint64_t number, std::size_t width) {
  std::string digits = std::to_string(number);
  if (digits.size() < width) digits.insert(0, width - digits.size(), '0');
  return digits;
}

/// The hosts grouped as compress_node_list writes them, groups in the order of their first host.
std::vector<HostGroup> group_hosts(const std::vector<std::string>& hosts) {
  // A number written without padding joins a padded group of its own width ("n10" beside
  // "n01".."n09": n[01-10]); the widths of the padded groups come first.
  std::set<std::tuple<std::string, std::string, std::size_t>> padded_widths;
  for (const auto& host : hosts) {
    const auto name = split_last_number(host);
    if (padded(name.digits)) padded_widths.emplace(name.prefix, name.suffix, name.digits.size());
  }
  std::vector<HostGroup> groups;
  std::map<std::tuple<std::string, std::string, std::size_t, bool>, std::size_t> index;
  for (const auto& host : hosts) {
    auto name = split_last_number(host);
    // Longer than 18 digits: not a number that fits; the host stands alone.
    if (name.digits.size() > 18) name = {host, "", ""};
    const bool numbered = !name.digits.empty();
    std::size_t width = 0;
    if (numbered && (padded(name.digits) ||
                     padded_widths.count({name.prefix, name.suffix, name.digits.size()}) > 0)) {
      width = name.digits.size();
    }
    const auto key = std::make_tuple(name.prefix, name.suffix, width, numbered);
    auto [it, added] = index.emplace(key, groups.size());
    if (added) groups.push_back({name.prefix, name.suffix, width, numbered, {}});
    if (numbered) groups[it->second].numbers.insert(std::stoull(name.digits));
  }
  return groups;
}

/// A group's ranges in order, each as text ("1-3", "7") with its count of hosts.
std::vector<std::pair<std::string, std::size_t>> ranges_of(const HostGroup& group) {
  std::vector<std::pair<std::string, std::size_t>> out;
  for (auto it = group.numbers.begin(); it != group.numbers.end();) {
    const std::uint64_t first = *it;
    std::uint64_t last = first;
    for (++it; it != group.numbers.end() && *it == last + 1; ++it) last = *it;
    std::string text = number_text(first, group.width);
    if (last != first) text += "-" + number_text(last, group.width);
    out.emplace_back(text, static_cast<std::size_t>(last - first + 1));
  }
  return out;
}

/// A group written with its first `count` ranges: "node[1-3,7]", or "node5" for one host.
std::string group_text(const HostGroup& group,
                       const std::vector<std::pair<std::string, std::size_t>>& ranges,
                       std::size_t count) {
  if (!group.numbered) return group.prefix;
  if (group.numbers.size() == 1) return group.prefix + ranges[0].first + group.suffix;
  std::string out = group.prefix + "[";
  for (std::size_t i = 0; i < count; ++i) out += (i ? "," : "") + ranges[i].first;
  return out + "]" + group.suffix;
}

}  // namespace

std::string compress_node_list(const std::vector<std::string>& hosts) {
  std::string out;
  for (const auto& group : group_hosts(hosts)) {
    const auto ranges = ranges_of(group);
    out += (out.empty() ? "" : ",") + group_text(group, ranges, ranges.size());
  }
  return out;
}

std::string compress_node_list(const std::vector<std::string>& hosts, std::size_t most) {
  const auto whole = compress_node_list(hosts);
  if (whole.size() <= most) return whole;
  std::size_t total = 0;
  const auto groups = group_hosts(hosts);
  for (const auto& group : groups) total += group.numbered ? group.numbers.size() : 1;
  const auto more = [](std::size_t left) { return " and " + std::to_string(left) + " more"; };
  // Whole groups, then the ranges of the first group that does not fit, while the text with
  // what it leaves out still fits.
  std::string done;
  std::size_t shown = 0;
  for (const auto& group : groups) {
    const auto ranges = ranges_of(group);
    const std::string separator = done.empty() ? "" : ",";
    std::string best;
    std::size_t best_hosts = 0, hosts_so_far = 0;
    const std::size_t steps = group.numbered && group.numbers.size() > 1 ? ranges.size() : 1;
    for (std::size_t count = 1; count <= steps; ++count) {
      hosts_so_far += group.numbered ? ranges[count - 1].second : 1;
      const auto text = done + separator + group_text(group, ranges, count);
      if (text.size() + more(total - shown - hosts_so_far).size() > most) break;
      best = text;
      best_hosts = hosts_so_far;
    }
    if (best_hosts == 0) break;
    done = best;
    shown += best_hosts;
    if (best_hosts < (group.numbered ? group.numbers.size() : 1)) break;
  }
  if (done.empty()) return std::to_string(total) + (total == 1 ? " host" : " hosts");
  return done + more(total - shown);
}

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
