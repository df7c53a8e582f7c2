#pragma once
#include <optional>
#include <string>

#include "query/QueryTable.hpp"
#include "store/Store.hpp"

namespace pbench::query {

/// The grid of one sweep (or of all sweeps): each cell with its worker, partition, parameters,
/// state, number of attempts, the newest attempt's job, exit status and signal, and whether a
/// result is stored. With `missing_only`, only the cells without a stored result.
QueryTable points_table(store::Store& store, const std::optional<std::string>& sweep,
                        bool missing_only);

}  // namespace pbench::query
