#include "store/ResultLayout.hpp"

#include <algorithm>
#include <utility>
#include <vector>

namespace pbench::store {
namespace {

constexpr std::size_t kHostsNamed = 4;

int positive_int(const nlohmann::json& params, const char* key) {
  if (!params.is_object() || !params.contains(key) || !params[key].is_number_integer()) return 0;
  const auto v = params[key].get<std::int64_t>();
  return v > 0 && v < (1 << 30) ? static_cast<int>(v) : 0;
}

}  // namespace

AskedShape asked_shape(const nlohmann::json& params) {
  AskedShape shape{positive_int(params, "nodes"), positive_int(params, "procs_per_node")};
  if (!shape.exact()) return {};
  return shape;
}

std::string shape_text(const std::optional<int>& nodes, const std::optional<int>& procs_per_node) {
  if (!nodes || !procs_per_node) return "-";
  return std::to_string(*nodes) + "x" + std::to_string(*procs_per_node);
}

ResultLayout result_layout(const nlohmann::json& document, const AskedShape& asked) {
  ResultLayout layout;
  if (!document.is_object()) return layout;
  // Hosts in the order of their first rank, with the ranks on each.
  std::vector<std::pair<std::string, int>> hosts;
  const bool per_rank = document.contains("rank_hosts") && document["rank_hosts"].is_array() &&
                        !document["rank_hosts"].empty();
  const auto& names =
      per_rank ? document["rank_hosts"] : document.value("hosts", nlohmann::json::array());
  for (const auto& h : names) {
    if (!h.is_string()) continue;
    const auto name = h.get<std::string>();
    auto it =
        std::find_if(hosts.begin(), hosts.end(), [&](const auto& e) { return e.first == name; });
    if (it == hosts.end()) {
      hosts.emplace_back(name, 1);
    } else {
      ++it->second;
    }
  }
  if (hosts.empty()) return layout;
  layout.nodes = static_cast<int>(hosts.size());
  for (const auto& [name, ranks] : hosts) {
    layout.node_list += (layout.node_list.empty() ? "" : ",") + name;
  }
  if (per_rank) {
    int most = 0;
    for (const auto& h : hosts) most = std::max(most, h.second);
    layout.procs_per_node = most;
  } else if (document.contains("procs_per_node") &&
             document["procs_per_node"].is_number_integer()) {
    layout.procs_per_node = document["procs_per_node"].get<int>();
  }
  if (!asked.exact()) return layout;
  bool same = *layout.nodes == asked.nodes;
  if (per_rank) {
    for (const auto& h : hosts) same = same && h.second == asked.procs_per_node;
  }
  if (same) return layout;
  layout.placement = "placement: " + std::to_string(asked.nodes) + "x" +
                     std::to_string(asked.procs_per_node) + " asked, ranks found on " +
                     std::to_string(hosts.size()) + (hosts.size() == 1 ? " node" : " nodes");
  if (per_rank) {
    std::string detail;
    for (std::size_t i = 0; i < hosts.size() && i < kHostsNamed; ++i) {
      detail += (i ? ", " : "") + hosts[i].first + ": " + std::to_string(hosts[i].second);
    }
    if (hosts.size() > kHostsNamed) {
      detail += ", and " + std::to_string(hosts.size() - kHostsNamed) + " more";
    }
    layout.placement += " (" + detail + ")";
  }
  return layout;
}

}  // namespace pbench::store
