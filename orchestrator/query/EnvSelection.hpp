#pragma once
// `--envs A,B` on the commands that read headline figures (query system, history, reference,
// check): which environments of a sweep made with --envs to keep, and the one error for an
// environment the sweep has no figure in.
#include <set>
#include <string>
#include <vector>

#include "query/QueryTable.hpp"

namespace pbench::query {

/// Throws UsageError naming the first of `envs` not in `known` (the environments `sweep` has
/// figures in; "" for every sweep of the store): "--envs: no figure of sweep 'S' in environment
/// 'E' (its environments: A, B)", or "(it was not made with --envs)" when `known` is empty.
void require_known_envs(const std::string& sweep, const std::set<std::string>& known,
                        const std::vector<std::string>& envs);

/// Keeps the rows of `table` whose column env is one of `envs` (every row when `envs` is empty);
/// throws as require_known_envs for an environment no row has (a table without a column env has
/// none).
void select_env_rows(QueryTable& table, const std::string& sweep,
                     const std::vector<std::string>& envs);

}  // namespace pbench::query
