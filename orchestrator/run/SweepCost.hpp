#pragma once
// What a sweep costs before it runs: a planned time for every point (from the method's rule,
// scaled by this machine's earlier runs in the store where there are any), the batch time limit
// derived from it, and per partition and for the sweep the wall time and the node-hours.
#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

#include "run/CoreShare.hpp"
#include "run/WorkerSettings.hpp"
#include "store/Store.hpp"
#include "sweep/MethodCost.hpp"
#include "sweep/SweepSpec.hpp"

namespace pbench::run {

/// One finished attempt of a point on this machine (a sweep of the same scheduler in the
/// store): the run time the next plans learn from.
struct PastRun {
  std::string sweep;
  int run_no = 1;
  std::string point_key;
  std::string worker;
  sweep::Partition partition;
  nlohmann::json params;
  double seconds = 0;  ///< the job's run time, started to ended (its exit marker)
  bool timed_out = false;
  std::string ended_at;
  CoreShare share;  ///< how its ranks shared their cores (its result's node_cores)
};

/// The done and timed-out attempts with both times of the store's sweeps of `scheduler`, oldest
/// first; only those that ended before `before` when it is not empty (a plan as it was made
/// then).
std::vector<PastRun> machine_history(store::Store& store, const std::string& scheduler,
                                     const std::string& before = "");

/// Where a point's planned time comes from.
enum class PlanBasis { method, scaled, history, retry, given };
/// "method rule", "scaled", "history", "retry", "given".
std::string to_string(PlanBasis basis);

struct PointPlan {
  std::string key;
  std::string worker;
  sweep::Partition partition;
  int nodes = 1;       ///< nodes the job holds (counted whole when exclusive)
  double seconds = 0;  ///< planned run time, start-up included
  PlanBasis basis = PlanBasis::method;
  std::string why;           ///< the basis in words: the rule, the run it learned from
  int time_limit = 0;        ///< the batch time limit [s]; 0: none (the local scheduler)
  bool limit_given = false;  ///< --time-limit or the site profile set it
};

struct PartitionPlan {
  std::string partition;  ///< "8" or "4x2"
  int points = 0;
  int nodes = 0;
  double seconds = 0;  ///< its points one after another
  double node_hours = 0;
};

struct CostPlan {
  std::vector<PointPlan> points;
  std::vector<PartitionPlan> partitions;  ///< in the order of first appearance
  double seconds = 0;                     ///< the sweep's points one after another
  double node_hours = 0;
  std::vector<std::string> notes;  ///< the constants used, how nodes were counted
  /// "about 2h 10m, 34 node-hours (12 points: 8 from history, 4 by method rule)".
  std::string summary() const;
};

/// Plans every point of `points` (of `spec`): the same point's latest run in `history` as it
/// was (twice its time after a time-out), else the method's cost scaled by this machine's
/// nearest run of the same worker (its partition closest, its settings the same where there is
/// one) and by how many more ranks share a core at this partition than at that run's, else the
/// method's cost with `machine`'s stated defaults (on the local scheduler times the ranks per
/// core of this machine); plus the job's start-up.
/// `describe` gives each worker's defaults (an unanswered worker: pbench's own copies).
CostPlan plan_cost(const sweep::SweepSpec& spec, const std::vector<sweep::Point>& points,
                   const std::vector<PastRun>& history, const DescribeWorker& describe,
                   const sweep::MachineConstants& machine = {});

/// The plan of a stored sweep, as it would be made now (`before` empty) or as it was made
/// when a run started (`before` its started_at).
CostPlan plan_stored_sweep(store::Store& store, const store::SweepRecord& sweep,
                           const DescribeWorker& describe, const std::string& before = "");

/// Before a retry: every timed-out point of the sweep gets the time limit its plan now derives
/// (from twice the run time it was cut at) written into its job script, when longer than the
/// one it has. Returns one line per point saying so.
std::vector<std::string> lengthen_timed_out(store::Store& store, const store::SweepRecord& sweep,
                                            const DescribeWorker& describe);

/// A point's run time in its latest attempt of run `run_no` (started to ended), if it has both.
std::optional<double> actual_seconds(store::Store& store, std::int64_t point_id, int run_no);

}  // namespace pbench::run
