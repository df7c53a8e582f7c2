#pragma once
// `--run N|latest|all`: which run of a sweep a query reads.
#include <functional>
#include <optional>
#include <string>

#include "query/QueryTable.hpp"
#include "store/Store.hpp"

namespace pbench::query {

struct RunSelection {
  enum class Kind { latest, number, all };
  Kind kind = Kind::latest;
  int number = 0;  ///< the run, for Kind::number
};

/// "latest", "all" or a run number from 1; throws UsageError otherwise.
RunSelection parse_run_selection(const std::string& text);

/// The answer of `table` for the runs `selection` names, of `sweep` (or of every sweep): for one
/// run, its table; for all, each run's rows one after another with a first column `run`.
/// Throws UsageError for a run that `sweep` does not have (or, without a sweep, that no sweep
/// has).
QueryTable table_for_runs(store::Store& store, const std::optional<std::string>& sweep,
                          const RunSelection& selection, const std::function<QueryTable()>& table);

/// The number of runs of `sweep` (0 when there is no such sweep).
int run_count(store::Store& store, const std::string& sweep);

}  // namespace pbench::query
