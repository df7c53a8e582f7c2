#pragma once
// Where a result's ranks ran, as the store keeps it in typed columns (schema version 4): the
// nodes, the processes per node and the node list, from the document's rank_hosts (the host of
// every rank; older documents give only hosts and procs_per_node), and whether that placement is
// the shape its point asked for (NxP). A placement that differs is a reason the result is not
// valid: LogP between two nodes is the network, between two cores of one node it is memory.
#include <nlohmann/json.hpp>

#include <optional>
#include <string>

namespace pbench::store {

/// The shape a point asked for: N nodes x P processes per node; both 0 for a plain partition
/// (the scheduler placed the processes: any placement is what was asked).
struct AskedShape {
  int nodes = 0;
  int procs_per_node = 0;
  bool exact() const { return nodes > 0 && procs_per_node > 0; }
};

/// The shape of a point from its parameters ("nodes", "procs_per_node"; plain otherwise).
AskedShape asked_shape(const nlohmann::json& params);

struct ResultLayout {
  std::optional<int> nodes;           ///< distinct hosts of the ranks
  std::optional<int> procs_per_node;  ///< ranks on the fullest node
  std::string node_list;  ///< the hosts, comma-separated, in the order of rank 0, 1, ...
  /// Why the placement is not the shape asked for ("placement: 2x2 asked, ranks found on 1
  /// node (node1: 4)"); empty when it is, or when the point asked for no shape.
  std::string placement;
};

/// The layout of a result document for a point that asked for `asked`.
ResultLayout result_layout(const nlohmann::json& document, const AskedShape& asked);

/// "NxP" of a layout's nodes and processes per node ("-" when unknown).
std::string shape_text(const std::optional<int>& nodes, const std::optional<int>& procs_per_node);

}  // namespace pbench::store
