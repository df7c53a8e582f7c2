#pragma once
// Oversubscription: more ranks on a node than cores they may use. Timings of ranks that wait
// for a core measure the operating system's scheduler, not the method: every worker records,
// per node, its ranks and the cores they may run on, and a run with more ranks than cores on
// any node is not valid with one short reason (oversubscription_reason). Pure data, so the
// wording is unit-tested on made-up nodes; MpiSession::node_cores() finds them in a run, and
// the orchestrator folds the reasons of many results into one note with the same rules.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace pbench::worker {

/// One node of a run (the ranks of MPI_Comm_split_type MPI_COMM_TYPE_SHARED).
struct NodeCores {
  std::string host;  ///< host name of the node's first rank
  int ranks = 0;     ///< ranks of the run on the node
  int cores = 0;     ///< logical CPUs the ranks may run on: the union of their affinity masks
  /// The kernel the node runs on (a hash of its boot id; "" when unknown): "nodes" that share
  /// one (containers, or the lab's namespaces on one machine) share its CPUs.
  std::string machine;
  int machine_cpus = 0;  ///< that kernel's online CPUs (0 when unknown)
  /// More ranks than cores: some rank waits for a core while the others run.
  bool oversubscribed() const { return ranks > cores; }
};

/// Every oversubscription reason starts so ("oversubscribed: ", "oversubscribed on ").
inline constexpr std::string_view kOversubscribedPrefix = "oversubscribed";
/// A reason names at most this many nodes, then says how many more.
inline constexpr std::size_t kOversubscribedListed = 3;

/// Why `nodes` make timings not valid, or nothing when no node has more ranks than cores. One
/// node: "oversubscribed: 8 ranks on 2 cores of node3"; several: "oversubscribed on 16 of 16
/// nodes, worst 8 ranks on 2 cores (node01, node02, node03 and 13 more)", the nodes with the
/// most ranks per core first. Nodes that share one machine (one kernel) count as one, its
/// ranks summed, its cores the union of theirs at most the machine's: "oversubscribed: 128
/// ranks on 2 cores of one machine shared by 16 nodes (node1, node2, node3 and 13 more)". Short
/// at any number of nodes: the full list is the result's node_cores.
std::optional<std::string> oversubscription_reason(const std::vector<NodeCores>& nodes);

/// Whether `reason` is one of oversubscription_reason()'s.
bool is_oversubscription_reason(std::string_view reason);

/// The worst node's ranks and cores that an oversubscription reason names ({8, 2} for "... 8
/// ranks on 2 cores ..."), or nothing for another text.
std::optional<NodeCores> worst_of_reason(std::string_view reason);

/// Of several oversubscription reasons (of several results), the one naming the most ranks per
/// core (the first of equals), or nothing when none is one.
std::optional<std::string> worst_oversubscription(const std::vector<std::string>& reasons);

}  // namespace pbench::worker
