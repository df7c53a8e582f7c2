#pragma once
#include <optional>
#include <string>

#include "query/QueryTable.hpp"
#include "query/WorkerTable.hpp"
#include "store/Store.hpp"

namespace pbench::query {

/// b_eff_io by sweep, partition, schedule time T and hint set, from the newest result of each
/// point (all sweeps when `sweep` is empty): the write, rewrite and read access values,
/// b_eff_io as the reference code rev 2.1 computes it (sqrt(WR * R)) and beside it the paper's
/// arithmetic value (column b_eff_io_paper, "paper"); results stored before pbench-io followed
/// rev 2.1 are read under the same names (their rev-2 value is b_eff_io). The notes give the system
/// value of each sweep, T and hint set (the maximum over partitions) with the partition that won,
/// and the points without a measurement with the reason.
QueryTable io_table(store::Store& store, const std::optional<std::string>& sweep);
/// io's table as data (query/WorkerTable.hpp): its columns, view, row order and notes.
const WorkerTable& io_description();

}  // namespace pbench::query
