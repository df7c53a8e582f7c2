#pragma once
// `pbench history NAME`: each headline figure of a sweep in every run, oldest run first.
#include <optional>
#include <string>
#include <vector>

#include "query/QueryTable.hpp"
#include "query/WhereFilter.hpp"
#include "store/Store.hpp"

namespace pbench::query {

/// One row per run and headline figure of `sweep` (query system's figures, run by run): the
/// run's start time, run number, figure, partition, value, unit, where it was won and whether
/// it is valid. `metric` keeps one figure ("b_eff", "logp_g"; the older spelling "logp g" is
/// accepted). Throws UsageError for an unknown sweep or a figure the sweep has in none of its runs.
QueryTable history_table(store::Store& store, const std::string& sweep,
                         const std::optional<std::string>& metric,
                         const std::vector<WhereClause>& where);

/// `history --stats`: per figure and partition of a history table, how its value spread over
/// the runs: n (runs with a value), the median, the median absolute deviation, the 5th and 95th
/// percentiles, the minimum and maximum, and how many of the n were not valid.
QueryTable history_stats(const QueryTable& history);

}  // namespace pbench::query
