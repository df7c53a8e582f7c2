#pragma once
// Which rank ran on which node: the host name of every rank of MPI_COMM_WORLD, grouped into
// nodes (ranks with the same host name share a node). Pure data, so the grouping is unit-tested
// on recorded host lists; MpiSession::rank_hosts() gathers the list in a run.
#include <string>
#include <vector>

namespace pbench::worker {

class NodeLayout {
 public:
  /// The layout of `rank_hosts` (host of rank i at index i); throws std::invalid_argument when it
  /// is empty or a name is empty.
  explicit NodeLayout(std::vector<std::string> rank_hosts);

  /// Host name of every rank, in rank order.
  const std::vector<std::string>& rank_hosts() const { return rank_hosts_; }
  /// Distinct host names in rank order of first appearance.
  const std::vector<std::string>& hosts() const { return hosts_; }
  /// Number of ranks.
  int size() const { return static_cast<int>(rank_hosts_.size()); }
  /// Number of distinct nodes.
  int node_count() const { return static_cast<int>(hosts_.size()); }
  /// Index (into hosts()) of the node of `rank`.
  int node_of(int rank) const;
  /// Host name of `rank`.
  const std::string& host_of(int rank) const;
  /// Ranks on node `node`, ascending.
  const std::vector<int>& ranks_on(int node) const;
  /// True when ranks `a` and `b` run on the same node.
  bool same_node(int a, int b) const { return node_of(a) == node_of(b); }
  /// Largest number of ranks on one node.
  int most_per_node() const;
  /// Smallest number of ranks on one node.
  int least_per_node() const;

 private:
  std::vector<std::string> rank_hosts_;
  std::vector<std::string> hosts_;
  std::vector<int> node_of_;
  std::vector<std::vector<int>> ranks_on_;
};

}  // namespace pbench::worker
