#pragma once
// What a sweep costs before it runs: a planned time for every point (from the method's rule,
// scaled by this machine's earlier runs in the store where there are any), the batch time limit
// derived from it, and per partition and for the sweep the wall time and the node-hours.
#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <vector>

#include "plan/CoreShare.hpp"
#include "plan/WorkerSettings.hpp"
#include "site/MachineFigures.hpp"
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
  /// The machine it ran on: its sweep's cluster name (the site profile's [machine] cluster,
  /// empty when none was stated) and its result's hosts (node_cores; empty without one).
  std::string cluster;
  std::vector<std::string> hosts;
};

/// What a plan knows of the machine besides its runs: its figures (each with its source) and
/// the longest time limit the site allows.
struct PlanMachine {
  sweep::MachineConstants constants;
  int max_time_limit = 0;       ///< [s]; 0: none stated
  std::string max_time_source;  ///< "the site profile's max_time_limit", "sinfo: MaxTime of ..."
  PlanMachine() = default;
  PlanMachine(sweep::MachineConstants c) : constants(std::move(c)) {}  // NOLINT: a plain machine
};

/// The machine of a sweep: the figures its site profile stated (else pbench's defaults), the
/// profile's longest limit, and `told_max` (a partition's MaxTime the scheduler told, [s]; 0:
/// none) when it is shorter or the only one.
PlanMachine plan_machine(const sweep::SweepSpec& spec, int told_max = 0,
                         const std::string& told_source = "");

/// The cluster a sweep runs on as far as the plan can tell: the site profile's [machine]
/// cluster; empty when none was stated.
std::string cluster_of(const sweep::SweepSpec& spec);

/// Whether a past run may teach the plan of a sweep: it ran on the same machine (the same
/// cluster name; on the local scheduler, on this host where its result names its hosts).
bool same_machine(const PastRun& run, const sweep::SweepSpec& spec);

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
  /// Where the limit came from: "given", "bound" (the worker's own, io's T x k), "plan" (this
  /// machine's history, x 1.5 + 5 min), "guess" (no run of this machine to go by: as long as
  /// the site allows, at least an hour), "maximum" (cut to the site's longest); empty: none.
  std::string limit_from;
  /// Planned from a guess: the method rule with stated figures, or scaled from a run whose
  /// ranks' share of cores is unknown.
  bool guessed = false;
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
  /// Said before anything is submitted: a limit past the site's longest, cut to it.
  std::vector<std::string> warnings;
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
/// Only runs of the same machine count (same_machine). A point's planned time is its expected
/// time; its limit derives from the worker's bound where it has one (io), from the plan where it
/// learned from this machine's runs, and is as long as the site allows where it is a guess.
/// Throws UsageError naming the point when a planned time is not a number, negative, or past
/// sweep::kMostPlannedSeconds.
CostPlan plan_cost(const sweep::SweepSpec& spec, const std::vector<sweep::Point>& points,
                   const std::vector<PastRun>& history, const DescribeWorker& describe,
                   const PlanMachine& machine = {});

/// The plan of a stored sweep, as it would be made now (`before` empty) or as it was made
/// when a run started (`before` its started_at); `told_max` as for plan_machine.
/// `overlay`: figures laid over the machine's after the site profile's, each with its source
/// (a calibration sweep's: pbench plan --calibrate).
CostPlan plan_stored_sweep(
    store::Store& store, const store::SweepRecord& sweep, const DescribeWorker& describe,
    const std::string& before = "", int told_max = 0, const std::string& told_source = "",
    const std::vector<std::pair<site::MachineFigures, std::string>>& overlay = {});

/// Before a retry: every timed-out point of the sweep gets the time limit its plan now derives
/// (from twice the run time it was cut at) written into its job script, when longer than the
/// one it has. Returns one line per point saying so.
std::vector<std::string> lengthen_timed_out(store::Store& store, const store::SweepRecord& sweep,
                                            const DescribeWorker& describe);

/// A point's run time in its latest attempt of run `run_no` (started to ended), if it has both.
std::optional<double> actual_seconds(store::Store& store, std::int64_t point_id, int run_no);

}  // namespace pbench::run
