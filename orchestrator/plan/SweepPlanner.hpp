#pragma once
// Plans a sweep: validates the specification, expands it into points, renders each point's job
// script, and stores sweep and points (scripts on disk first, then one transaction).
#include <string>
#include <vector>

#include "plan/SweepCost.hpp"
#include "store/Store.hpp"
#include "sweep/SweepSpec.hpp"

namespace pbench::run {

struct PlanOptions {
  std::string runs_dir = "pbench-runs";  ///< sweeps live in <runs_dir>/<name>/
  std::string template_path;             ///< a user's job template instead of the built-in one
  /// This machine's earlier runs (machine_history of the store), which the plan learns from.
  std::vector<PastRun> history;
  /// The longest time limit the scheduler told for the sweep's queue (its partition's MaxTime)
  /// [s], and how it was told; 0: it told none.
  int told_max_time = 0;
  std::string told_max_source;
};

struct PlannedPoint {
  sweep::Point point;
  std::string script_path;
  std::string script;
};

struct Plan {
  sweep::SweepSpec spec;
  std::string directory;  ///< absolute
  std::vector<PlannedPoint> points;
  std::vector<std::string> warnings;  ///< e.g. a --time-limit shorter than a planned run
  CostPlan cost;  ///< each point's planned time and time limit, in the order of `points`
};

/// Validates and expands a specification, plans each point's time (its batch time limit
/// derived from it unless the sweep gives one) and renders every job script (no side effects).
Plan make_plan(const sweep::SweepSpec& spec, const PlanOptions& options);

/// <directory>/points/<key>/job.sh: where a point's job script lies, its attempts beside it.
std::string job_script_path(const std::string& directory, const std::string& key);

/// The store's record of a planned point (its key, worker, partition, parameters, script).
store::PointRecord point_record(const sweep::Point& point, const std::string& script_path);

enum class StoreOutcome { created, unchanged, replaced };
/// Writes the scripts and the sweep's record (sweep.json, sweepdir/SweepRecordFile.hpp), and stores
/// the sweep. An existing sweep of the same name and the same specification is left as it is
/// (its record written if it has none); with another specification it is refused (UsageError)
/// unless `force`, which replaces it with its attempts, and with its results only when
/// `discard_results` too (refused otherwise, saying how many results it has).
StoreOutcome store_plan(store::Store& store, const Plan& plan, bool force,
                        bool discard_results = false);

/// Finds a worker binary: $PBENCH_WORKER_DIR, beside pbench, the build tree, then PATH.
std::string locate_worker(const std::string& binary);

}  // namespace pbench::run
