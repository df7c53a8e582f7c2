#pragma once
// Each worker's detailed table, in one explicit table looked up by worker name: `pbench query
// WORKER` and `pbench run` both read it, so a new worker's query is added in one place.
#include <optional>
#include <string>
#include <vector>

#include "query/QueryTable.hpp"
#include "store/Store.hpp"

namespace pbench::query {

/// A table over the newest result of each point of one sweep (or of all sweeps).
using TableFunction = QueryTable (*)(store::Store& store, const std::optional<std::string>& sweep);

/// One of a worker's suites with its own table (io: b_eff_io, consortium).
struct WorkerSuite {
  const char* name;  ///< the worker's --suite value
  TableFunction table;
};

struct WorkerQuery {
  const char* worker;       ///< "logp"
  const char* description;  ///< one line for --help
  TableFunction table;      ///< the default table
  /// The worker's suites, chosen with `--suite NAME` (the first is the default); empty for
  /// workers with one suite.
  std::vector<WorkerSuite> suites = {};
};

/// Every worker's query, in the order of the worker catalog.
const std::vector<WorkerQuery>& worker_queries();
/// The query of `worker`, or nullptr when it has none.
const WorkerQuery* find_worker_query(const std::string& worker);
/// The table of `query` for `suite` (empty: the default); throws UsageError naming the known
/// suites for an unknown one.
TableFunction suite_table(const WorkerQuery& query, const std::string& suite);

}  // namespace pbench::query
