#pragma once
// Which way is better for each metric: bandwidths up; latencies, overheads and gaps down. One
// table for every pbench command that judges a change (check, compare, report).
#include <optional>
#include <string>
#include <vector>

namespace pbench::query {

enum class Better { higher, lower };

/// The direction of a stored metric ("b_eff", "g", "ol", ...) or a headline figure of query
/// system ("b_eff_io", "logp g", "bcast ol"); empty for a metric without one (a parameter echoed
/// as a metric such as schedule_time, or a count).
std::optional<Better> better_direction(const std::string& metric);
/// The headline figures (query system) in the table's order.
const std::vector<std::string>& headline_figures();
/// "higher" or "lower".
std::string to_string(Better better);

}  // namespace pbench::query
