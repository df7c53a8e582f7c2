#pragma once
// A sweep kept to a budget: node-hours (--budget) and wall time (--wall). A plan over it is
// refused before anything is written or submitted, saying its total, the points that cost most
// and what would fit; a run stops submitting when what it has charged and the next point's plan
// would pass it.
#include <functional>
#include <optional>
#include <string>

#include "plan/SweepCost.hpp"

namespace pbench::run {

struct SweepBudget {
  double node_hours = 0;    ///< 0: no node-hour budget
  double wall_seconds = 0;  ///< 0: no wall-time budget
  bool any() const { return node_hours > 0 || wall_seconds > 0; }
  /// "1,500 node-hours and 1h 00m of wall time".
  std::string text() const;
};

/// Reads --budget NODE-HOURS (a positive number up to 1e9) and --wall DURATION (as a time
/// limit: MINUTES, H:M:S, D-H:M:S); throws UsageError naming the option and its range.
SweepBudget parse_budget(const std::string& node_hours, const std::string& wall);

/// Why `plan` of sweep `name` does not fit `budget`: its total, its three costliest points and
/// what would fit (dropping its largest partitions, or its costliest worker); nothing when it
/// fits.
std::optional<std::string> over_budget(const std::string& name, const CostPlan& plan,
                                       const SweepBudget& budget);

/// The gate of a run kept to `budget`'s node-hours (SweepDriver::set_submit_gate): a point is
/// submitted while what the sweep's run `run_no` has charged (its ended points' nodes x their
/// run time), what it has committed (its submitted points' plans) and the point's own plan stay
/// within the budget. `plan` is the sweep's plan, its points in the store's order.
std::function<bool(const store::PointRecord&, std::string&)> budget_gate(
    store::Store& store, const store::SweepRecord& sweep, int run_no, const CostPlan& plan,
    const SweepBudget& budget);

}  // namespace pbench::run
