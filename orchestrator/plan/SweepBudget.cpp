#include "plan/SweepBudget.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <set>
#include <sstream>

#include "common/Units.hpp"
#include "plan/PartitionProgress.hpp"
#include "sweep/SweepSpec.hpp"
#include "util/Error.hpp"
#include "util/Time.hpp"

namespace pbench::run {

namespace {

/// The most node-hours a budget may name: a billion (no centre books more in one sweep).
constexpr double kMostBudgetNodeHours = 1e9;

std::string hours_text(double node_hours) {
  if (node_hours >= 100) {
    std::string digits = std::to_string(std::llround(node_hours));
    for (int i = static_cast<int>(digits.size()) - 3; i > 0; i -= 3) digits.insert(i, ",");
    return digits;
  }
  return units::short_number(node_hours, 3);
}

struct Totals {
  double node_hours = 0;
  double seconds = 0;
};

Totals totals_without(const CostPlan& plan, const std::set<std::string>& partitions,
                      const std::string& worker) {
  Totals t;
  for (const auto& p : plan.points) {
    if (partitions.count(p.partition.text()) || p.worker == worker) continue;
    t.node_hours += p.nodes * p.seconds / 3600;
    t.seconds += p.seconds;
  }
  return t;
}

bool fits(const Totals& t, const SweepBudget& budget) {
  return (budget.node_hours <= 0 || t.node_hours <= budget.node_hours) &&
         (budget.wall_seconds <= 0 || t.seconds <= budget.wall_seconds);
}

std::string totals_text(const Totals& t) {
  return hours_text(t.node_hours) + " node-hours, " + format_duration(t.seconds);
}

/// What fits: the sweep without its largest partitions (fewest dropped), else without its
/// costliest worker.
std::string alternative(const CostPlan& plan, const SweepBudget& budget) {
  std::vector<PartitionPlan> largest = plan.partitions;
  std::sort(largest.begin(), largest.end(), [](const PartitionPlan& a, const PartitionPlan& b) {
    return a.nodes != b.nodes ? a.nodes > b.nodes : a.node_hours > b.node_hours;
  });
  std::set<std::string> dropped;
  std::string names;
  for (std::size_t i = 0; i + 1 < largest.size(); ++i) {
    dropped.insert(largest[i].partition);
    names += (names.empty() ? "" : ", ") + largest[i].partition;
    const Totals t = totals_without(plan, dropped, "");
    if (fits(t, budget)) {
      std::string kept;
      for (const auto& p : plan.partitions) {
        if (!dropped.count(p.partition)) kept += (kept.empty() ? "" : ",") + p.partition;
      }
      return "without partition" + std::string(dropped.size() > 1 ? "s " : " ") + names +
             " it fits: " + totals_text(t) + " (--partitions " + kept + ")";
    }
  }
  std::map<std::string, double> by_worker;
  for (const auto& p : plan.points) by_worker[p.worker] += p.nodes * p.seconds / 3600;
  if (by_worker.size() > 1) {
    const auto costliest = std::max_element(
        by_worker.begin(), by_worker.end(),
        [](const auto& a, const auto& b) { return a.second < b.second; });
    const Totals t = totals_without(plan, {}, costliest->first);
    if (fits(t, budget)) {
      return "without " + costliest->first + " (" + hours_text(costliest->second) +
             " node-hours) it fits: " + totals_text(t) +
             "; or give it smaller settings (--set " + costliest->first +
             ".NAME=VALUE; a setting below its method's is named not valid in its results)";
    }
  }
  return "neither dropping its largest partitions nor its costliest worker fits: give the "
         "workers smaller settings (--set; a setting below a method's is named not valid in its "
         "results) or fewer partitions";
}

}  // namespace

std::string SweepBudget::text() const {
  std::string out;
  if (node_hours > 0) out = hours_text(node_hours) + " node-hours";
  if (wall_seconds > 0) {
    out += (out.empty() ? "" : " and ") + format_duration(wall_seconds) + " of wall time";
  }
  return out;
}

SweepBudget parse_budget(const std::string& node_hours, const std::string& wall) {
  SweepBudget budget;
  if (!node_hours.empty()) {
    std::size_t used = 0;
    double value = 0;
    try {
      value = std::stod(node_hours, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != node_hours.size() || !std::isfinite(value) || !(value > 0) ||
        value > kMostBudgetNodeHours) {
      throw UsageError("--budget: '" + node_hours +
                       "' is not a node-hour budget (a number more than 0, at most 1e9)");
    }
    budget.node_hours = value;
  }
  if (!wall.empty()) budget.wall_seconds = sweep::parse_time_limit(wall, "--wall");
  return budget;
}

std::optional<std::string> over_budget(const std::string& name, const CostPlan& plan,
                                       const SweepBudget& budget) {
  const Totals all{plan.node_hours, plan.seconds};
  if (!budget.any() || fits(all, budget)) return std::nullopt;
  std::vector<const PointPlan*> costliest;
  for (const auto& p : plan.points) costliest.push_back(&p);
  std::sort(costliest.begin(), costliest.end(), [](const PointPlan* a, const PointPlan* b) {
    return a->nodes * a->seconds > b->nodes * b->seconds;
  });
  costliest.resize(std::min<std::size_t>(3, costliest.size()));
  std::ostringstream out;
  out << "sweep " << name << " is over its budget of " << budget.text() << ": planned "
      << totals_text(all) << " (" << plan.points.size() << " points); costliest: ";
  for (std::size_t i = 0; i < costliest.size(); ++i) {
    const auto& p = *costliest[i];
    out << (i ? "; " : "") << p.worker << " at " << p.partition.text() << " "
        << hours_text(p.nodes * p.seconds / 3600) << " node-hours (" << format_duration(p.seconds)
        << " on " << p.nodes << (p.nodes == 1 ? " node" : " nodes") << ", " << to_string(p.basis)
        << ")";
  }
  out << "; " << alternative(plan, budget) << ". Nothing was written or submitted";
  return out.str();
}

std::function<bool(const store::PointRecord&, std::string&)> budget_gate(
    store::Store& store, const store::SweepRecord& sweep, int run_no, const CostPlan& plan,
    const SweepBudget& budget) {
  std::map<std::string, const PointPlan*> planned;
  for (const auto& p : plan.points) planned[p.key] = &p;
  auto approved = std::make_shared<std::set<std::string>>();
  return [&store, sweep, run_no, planned, approved, budget](const store::PointRecord& next,
                                                           std::string& why) {
    if (budget.node_hours <= 0) return true;
    const auto hours = [&](const std::string& key, double seconds) {
      const auto it = planned.find(key);
      return it == planned.end() ? 0.0 : it->second->nodes * seconds / 3600;
    };
    const auto plan_hours = [&](const std::string& key) {
      const auto it = planned.find(key);
      return it == planned.end() ? 0.0 : hours(key, it->second->seconds);
    };
    double charged = 0, committed = 0;
    for (const auto& point : store.points(sweep.id)) {
      if (point.key == next.key) continue;
      if (const auto seconds = actual_seconds(store, point.id, run_no)) {
        charged += hours(point.key, *seconds);
      } else if (point.state != store::PointState::planned || approved->count(point.key)) {
        committed += plan_hours(point.key);
      }
    }
    const double after = charged + committed + plan_hours(next.key);
    if (after <= budget.node_hours) {
      approved->insert(next.key);
      return true;
    }
    why = "stopped submitting: " + hours_text(charged) + " node-hours charged and " +
          hours_text(committed) + " committed, with point " + next.key + " (" + next.worker +
          ", planned " + hours_text(plan_hours(next.key)) + ") the run would pass its budget of " +
          budget.text() + "; the points not submitted stay planned (pbench wait " + sweep.name +
          " would submit them, without a budget)";
    return false;
  };
}

}  // namespace pbench::run
