#pragma once
// The rows of one of the store's views (schema/store_views.sql) as a table's cells: each worker
// table selects its rows from its view and only formats them.
#include <optional>
#include <string>
#include <vector>

#include "query/QueryTable.hpp"
#include "store/Store.hpp"

namespace pbench::query {

/// The SQL condition "in the run the store reads" (Store::choose_run) for a view that has
/// sweep_id and run, called `v` in the statement: each sweep's id and chosen run as numbers
/// (read from the store, never from a user), "(v.sweep_id = 1 AND v.run = 40) OR ...", so that
/// SQLite computes the view for those runs only (a condition that reads temp.chosen_run in the
/// statement made it compute every run of a sweep's history, then filter).
std::string chosen_run_of_view(store::Store& store);

/// The rows of `view` for `sweep` (every sweep when empty) in the run the store reads, ordered
/// by `order` (an ORDER BY list): the view's columns named by the keys of `columns`, in their
/// order, each cell by its SQLite type (NULL empty, INTEGER, REAL or TEXT).
std::vector<std::vector<Cell>> view_rows(store::Store& store, const std::string& view,
                                         const std::vector<QueryColumn>& columns,
                                         const std::optional<std::string>& sweep,
                                         const std::string& order);

/// The column "env" (the site profile's environment of a sweep made with --envs: the views'
/// column env), inserted after "sweep" when a point of `sweep` (every sweep when empty) has one;
/// a table of sweeps without environments keeps its columns.
void add_env_column(store::Store& store, const std::optional<std::string>& sweep,
                    std::vector<QueryColumn>& columns);

/// A cell of column `c` of `s` by its SQLite type.
Cell typed_cell(store::Statement& s, int c);

}  // namespace pbench::query
