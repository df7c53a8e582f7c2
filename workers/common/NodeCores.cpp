#include "common/NodeCores.hpp"

#include <algorithm>
#include <charconv>
#include <map>

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
  // Nodes on one machine (one kernel) as one: their ranks summed, their cores together at most
  // the machine's CPUs.
  struct Group {
    NodeCores cores;
    std::vector<std::string> hosts;
  };
  std::vector<Group> groups;
  std::map<std::string, std::size_t> group_of_machine;
  for (const auto& node : nodes) {
    if (!node.machine.empty()) {
      if (const auto it = group_of_machine.find(node.machine); it != group_of_machine.end()) {
        auto& group = groups[it->second];
        group.cores.ranks += node.ranks;
        group.cores.cores += node.cores;
        if (node.machine_cpus > 0) group.cores.cores = std::min(group.cores.cores, node.machine_cpus);
        group.hosts.push_back(node.host);
        continue;
      }
      group_of_machine[node.machine] = groups.size();
    }
    groups.push_back({node, {node.host}});
  }
  std::vector<Group> over;
  std::size_t over_nodes = 0;
  for (const auto& group : groups) {
    if (group.cores.oversubscribed()) {
      over.push_back(group);
      over_nodes += group.hosts.size();
    }
  }
  if (over.empty()) return std::nullopt;
  std::stable_sort(over.begin(), over.end(),
                   [](const Group& a, const Group& b) { return worse(a.cores, b.cores); });
  std::vector<std::string> hosts;
  for (const auto& group : over) hosts.insert(hosts.end(), group.hosts.begin(), group.hosts.end());
  if (over.size() == 1) {
    const auto& only = over.front();
    if (only.hosts.size() == 1) {
      return std::string(kOversubscribedPrefix) + ": " + ranks_on_cores(only.cores) + " of " +
             only.hosts.front();
    }
    return std::string(kOversubscribedPrefix) + ": " + ranks_on_cores(only.cores) +
           " of one machine shared by " + std::to_string(only.hosts.size()) + " nodes (" +
           few_listed(hosts, kOversubscribedListed) + ")";
  }
  std::string machines;
  if (over_nodes > over.size()) machines = " on " + std::to_string(over.size()) + " machines";
  return std::string(kOversubscribedPrefix) + " on " + std::to_string(over_nodes) + " of " +
         std::to_string(nodes.size()) + " nodes" + machines + ", worst " +
         ranks_on_cores(over.front().cores) + " (" + few_listed(hosts, kOversubscribedListed) +
         ")";
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
