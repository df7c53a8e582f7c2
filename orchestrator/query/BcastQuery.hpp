#pragma once
#include <optional>
#include <string>

#include "query/QueryTable.hpp"
#include "query/WorkerTable.hpp"
#include "store/Store.hpp"

namespace pbench::query {

/// Broadcast latency by sweep, process count, implementation and message size, from the
/// newest result of each bcast point (all sweeps when `sweep` is empty): OL = max_i OL_i with
/// the task that gave it beside the classic methods' figures (send latency, broadcast rounds
/// with its root order, broadcast-barrier, broadcast-acknowledge). Points without a
/// measurement, and why results are not valid, are listed in the notes.
QueryTable bcast_table(store::Store& store, const std::optional<std::string>& sweep);
/// bcast's table as data (query/WorkerTable.hpp): its columns, view, row order and notes.
const WorkerTable& bcast_description();

}  // namespace pbench::query
