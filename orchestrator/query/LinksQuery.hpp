#pragma once
// `pbench query links`: the link matrix of each links point (pbench-links) of a sweep, per node
// and per link, with the weak nodes and links named by the rule of LinkOutliers.hpp.
#include <optional>
#include <string>
#include <vector>

#include "query/LinkOutliers.hpp"
#include "query/QueryTable.hpp"
#include "query/WorkerTable.hpp"
#include "store/Store.hpp"

namespace pbench::query {

/// One links result: its node and link figures as the store holds them.
struct LinkMatrixResult {
  std::string sweep;
  std::int64_t result_id = 0;
  std::int64_t partition = 0;
  std::string asked;  ///< the shape the point asked for ("4x1"), "" for a plain partition
  std::string env;    ///< the point's environment (--envs), "" without one
  bool valid = true;
  std::vector<std::string> nodes;                ///< in the worker's order
  std::map<std::string, double> node_bandwidth;  ///< median of its links [B/s]
  std::map<std::string, double> node_latency;    ///< [s]
  std::vector<LinkValue> bandwidth;              ///< per ordered pair [B/s]
  std::vector<LinkValue> latency;                ///< [s]
};

/// The newest links result of each point of `sweep` (every sweep when empty) in the run the
/// store reads.
std::vector<LinkMatrixResult> link_matrices(store::Store& store,
                                            const std::optional<std::string>& sweep);

/// The weak nodes and links of a matrix by bandwidth (the rule's defaults).
LinkOutliers bandwidth_outliers(const LinkMatrixResult& matrix);

/// Rows "node" (per node: median latency and bandwidth of its links, ratio to the median over
/// nodes, verdict) and "link" (per ordered pair), and a note per matrix naming the weak nodes
/// and links by bandwidth, or saying there are none.
QueryTable links_table(store::Store& store, const std::optional<std::string>& sweep);
/// links' table as data (query/WorkerTable.hpp): its columns, rows and notes.
const WorkerTable& links_description();

}  // namespace pbench::query
