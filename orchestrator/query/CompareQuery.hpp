#pragma once
#include <string>
#include <vector>

#include "query/QueryTable.hpp"
#include "query/WhereFilter.hpp"
#include "store/Store.hpp"

namespace pbench::query {

/// The headline figures of `system_table` for two sweeps side by side with the ratio B/A: the
/// maxima over partitions (b_eff_io, b_eff, b_eff_per_process) matched by figure, each side
/// naming its own winning partition; the per-partition figures by figure and partition. Each row
/// says which way is better for its figure (`better`: higher or lower, from the metric catalogue) and
/// whether each side is valid (a_valid, b_valid); a side that is not valid is noted with its
/// worker's first reason. A figure only one sweep has shows the other side and the ratio as
/// missing; so does a ratio where either value is zero or less.
QueryTable compare_table(store::Store& store, const std::string& sweep_a,
                         const std::string& sweep_b, const std::vector<WhereClause>& where);

}  // namespace pbench::query
