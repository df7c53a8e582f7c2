#pragma once
#include <optional>
#include <string>

#include "query/QueryTable.hpp"
#include "query/WorkerTable.hpp"
#include "store/Store.hpp"

namespace pbench::query {

/// LogP parameters (EEL, o_s, o_r, g, G, 1/G, L, M) by sweep, partition and queue depth, from
/// the newest result of each point (all sweeps when `sweep` is empty). Points without a
/// measurement are listed in the notes with the reason.
QueryTable logp_table(store::Store& store, const std::optional<std::string>& sweep);
/// logp's table as data (query/WorkerTable.hpp): its columns, view, row order and notes.
const WorkerTable& logp_description();

}  // namespace pbench::query
