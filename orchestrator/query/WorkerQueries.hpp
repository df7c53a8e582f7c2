#pragma once
// Each worker's detailed table, in one explicit table looked up by worker name: `pbench query
// WORKER` and `pbench run` both read it, so a new worker's query is added in one place.
#include <optional>
#include <string>
#include <vector>

#include "query/QueryTable.hpp"
#include "store/Store.hpp"

namespace pbench::query {

struct WorkerQuery {
  const char* worker;       ///< "logp"
  const char* description;  ///< one line for --help
  /// The table over the newest result of each point of one sweep (or of all sweeps).
  QueryTable (*table)(store::Store& store, const std::optional<std::string>& sweep);
};

/// Every worker's query, in the order of the worker catalog.
const std::vector<WorkerQuery>& worker_queries();
/// The query of `worker`, or nullptr when it has none.
const WorkerQuery* find_worker_query(const std::string& worker);

}  // namespace pbench::query
