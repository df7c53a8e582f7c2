#pragma once
#include <optional>
#include <string>
#include <vector>

#include "query/QueryTable.hpp"
#include "query/WhereFilter.hpp"
#include "store/Store.hpp"

namespace pbench::query {

/// The headline figures of `system_table` for two sweeps side by side with the ratio B/A: the
/// maxima over partitions (b_eff_io, b_eff, b_eff_per_process) matched by figure, each side
/// naming its own winning partition; the per-partition figures by figure and partition. Each row
/// says which way is better for its figure (`better`: higher or lower, from the metric catalogue)
/// and whether each side is valid (a_valid, b_valid); a side that is not valid is noted with its
/// worker's first reason. A figure only one sweep has shows the other side and the ratio as
/// missing; so does a ratio where either value is zero or less.
QueryTable compare_table(store::Store& store, const std::string& sweep_a,
                         const std::string& sweep_b, const std::vector<WhereClause>& where);

/// One side of a comparison: a sweep, or one environment of a sweep made with --envs (its
/// points whose parameter env is that name).
struct CompareSide {
  std::string sweep;
  std::optional<std::string> env;
  /// How the table names it: "SWEEP" or "SWEEP env=NAME".
  std::string label() const;
};

/// The same for two sides, each maybe one environment (`pbench query compare S --envs A,B`
/// compares S's environment A with its environment B); throws UsageError when a side names an
/// environment its sweep has no point of (naming the ones it has).
QueryTable compare_table(store::Store& store, const CompareSide& a, const CompareSide& b,
                         const std::vector<WhereClause>& where);

}  // namespace pbench::query
