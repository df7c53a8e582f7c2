#pragma once
// What every worker table says about the cells of its grid that have no stored result.
#include <optional>
#include <string>

#include "query/QueryTable.hpp"
#include "store/Store.hpp"

namespace pbench::query {

/// Adds a note per cell of `worker`'s grid (one sweep, or all) without a result: "sweep S,
/// partition P[, q N][, T t][, hints h]: no result: STATE[, exit status N][, signal S][ (last
/// line of stderr)]"; then, when the table is still empty, a note saying there is nothing yet.
void add_missing_cell_notes(store::Store& store, const std::string& worker,
                            const std::optional<std::string>& sweep, QueryTable& table);

}  // namespace pbench::query
