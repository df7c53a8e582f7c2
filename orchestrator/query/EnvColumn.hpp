#pragma once
// The column "env": the environment of a site profile (`sweep --envs`) each row's result ran
// in, beside the sweep, so that `--where env=NAME` and `--by env` work on every worker's table.
// Shown only when some row has one: a sweep without environments keeps the table it had.
#include <cstdint>
#include <vector>

#include "query/QueryTable.hpp"
#include "store/Store.hpp"

namespace pbench::query {

/// Inserts "env" after the column "sweep", row i's environment that of result `results[i]`
/// (0: a row of no result, empty), when any of those results has one.
void add_env_column(store::Store& store, QueryTable& table,
                    const std::vector<std::int64_t>& results);

}  // namespace pbench::query
