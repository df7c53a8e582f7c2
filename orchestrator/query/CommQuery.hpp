#pragma once
#include <optional>
#include <string>

#include "query/QueryTable.hpp"
#include "query/WorkerTable.hpp"
#include "store/Store.hpp"

namespace pbench::query {

/// b_eff in the layout of Rabenseifner & Koniges' Table 1 (b_eff, per process, L_max, ping-pong
/// bandwidth, b_eff at L_max, per process, ring patterns per process; then the latencies) by
/// sweep and partition, from the newest result of each point (all sweeps when `sweep` is
/// empty). Each sweep ends with a "max" row: the partition with the largest b_eff (among the
/// valid results when there are any), named with its point and job in the notes. Points
/// without a result are listed in the notes with the reason.
QueryTable comm_table(store::Store& store, const std::optional<std::string>& sweep);
/// comm's table as data (query/WorkerTable.hpp): its columns, view, row order and notes.
const WorkerTable& comm_description();

}  // namespace pbench::query
