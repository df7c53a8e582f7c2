#include "common/NodeCores.hpp"

#include <algorithm>
#include <charconv>

#include "common/PhysicalLimits.hpp"

namespace pbench::worker {
namespace {

/// Whether node `a` has more ranks per core than `b` (with as many per core: more ranks).
bool worse(const NodeCores& a, const NodeCores& b) {
  const long long left = static_cast<long long>(a.ranks) * std::max(b.cores, 1);
  const long long right = static_cast<long long>(b.ranks) * std::max(a.cores, 1);
  return left != right ? left > right : a.ranks > b.ranks;
}

std::string ranks_on_cores(const NodeCores& node) {
  return std::to_string(node.ranks) + (node.ranks == 1 ? " rank" : " ranks") + " on " +
         std::to_string(node.cores) + (node.cores == 1 ? " core" : " cores");
}

/// The number that ends right before `end` in `text` (digits only), or -1.
int number_before(std::string_view text, std::size_t end) {
  std::size_t begin = end;
  while (begin > 0 && text[begin - 1] >= '0' && text[begin - 1] <= '9') --begin;
  int value = -1;
  if (begin == end ||
      std::from_chars(text.data() + begin, text.data() + end, value).ec != std::errc())
    return -1;
  return value;
}

}  // namespace

std::optional<std::string> oversubscription_reason(const std::vector<NodeCores>& nodes) {
  std::vector<NodeCores> over;
  for (const auto& node : nodes) {
    if (node.oversubscribed()) over.push_back(node);
  }
  if (over.empty()) return std::nullopt;
  std::stable_sort(over.begin(), over.end(), worse);
  if (over.size() == 1) {
    return std::string(kOversubscribedPrefix) + ": " + ranks_on_cores(over.front()) + " of " +
           over.front().host;
  }
  std::vector<std::string> hosts;
  for (const auto& node : over) hosts.push_back(node.host);
  return std::string(kOversubscribedPrefix) + " on " + std::to_string(over.size()) + " of " +
         std::to_string(nodes.size()) + " nodes, worst " + ranks_on_cores(over.front()) + " (" +
         few_listed(hosts, kOversubscribedListed) + ")";
}

bool is_oversubscription_reason(std::string_view reason) {
  return reason.substr(0, kOversubscribedPrefix.size()) == kOversubscribedPrefix &&
         worst_of_reason(reason).has_value();
}

std::optional<NodeCores> worst_of_reason(std::string_view reason) {
  if (reason.substr(0, kOversubscribedPrefix.size()) != kOversubscribedPrefix) return std::nullopt;
  for (const std::string_view rank_word : {" ranks on ", " rank on "}) {
    const auto at = reason.find(rank_word);
    if (at == std::string_view::npos) continue;
    const int ranks = number_before(reason, at);
    const std::size_t cores_begin = at + rank_word.size();
    std::size_t cores_end = cores_begin;
    while (cores_end < reason.size() && reason[cores_end] >= '0' && reason[cores_end] <= '9')
      ++cores_end;
    const int cores = number_before(reason, cores_end);
    if (ranks < 0 || cores < 0 || cores_end == cores_begin) return std::nullopt;
    return NodeCores{"", ranks, cores};
  }
  return std::nullopt;
}

std::optional<std::string> worst_oversubscription(const std::vector<std::string>& reasons) {
  std::optional<std::string> out;
  std::optional<NodeCores> worst;
  for (const auto& reason : reasons) {
    const auto node = worst_of_reason(reason);
    if (!node) continue;
    if (!worst || worse(*node, *worst)) {
      worst = node;
      out = reason;
    }
  }
  return out;
}

}  // namespace pbench::worker
