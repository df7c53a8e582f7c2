#pragma once
// `--run N|latest|all`: which run of a sweep a query reads.
#include <functional>
#include <optional>
#include <string>
#include <utility>

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

/// `--runs N|A-B` of a sweep with `latest` runs: the last N runs, or runs A to B, as first and
/// last; throws UsageError for a count or range that is not one, or runs the sweep lacks.
std::pair<int, int> parse_run_range(const std::string& text, int latest);

/// The number of runs of `sweep` (0 when there is no such sweep).
int run_count(store::Store& store, const std::string& sweep);

}  // namespace pbench::query
