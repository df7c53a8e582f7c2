#include "run/SweepCost.hpp"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>

#include "common/Units.hpp"
#include "run/PartitionProgress.hpp"
#include "run/ScriptTimeLimit.hpp"
#include "sweep/PlannedTime.hpp"
#include "sweep/WorkerCatalog.hpp"
#include "util/Time.hpp"

namespace pbench::run {

namespace {

/// A past run counts as this long at least when scaled: its start-up alone is not a measure.
constexpr double kLeastMeasuredSeconds = 0.05;

/// The point's parameters without where it runs: two points with the same are the same
/// measurement at another partition.
nlohmann::json settings_of(nlohmann::json params) {
  for (const char* key : {"partition", "nodes", "procs_per_node"}) params.erase(key);
  return params;
}

/// How far apart two partitions are for scaling: the ratio of their process counts.
double distance(const sweep::Partition& a, const sweep::Partition& b) {
  return std::abs(std::log(static_cast<double>(a.processes) / std::max(1, b.processes))) +
         (a.nodes == b.nodes ? 0.0 : 0.01);
}

/// How the ranks of an attempt's result shared their cores; unknown without one.
CoreShare core_share_of(store::Store& store, std::int64_t attempt_id) {
  const auto text = store.result_node_cores(attempt_id);
  if (!text) return {};
  return CoreShare::of_node_cores(nlohmann::json::parse(*text, nullptr, false));
}

std::string seconds_text(double s) {
  return format_duration(s);
}

/// The nodes a point's job holds: its shape's, the sweep's --nodes or --procs-per-node, one on
/// the local scheduler, else one per process (the scheduler's choice, counted at its largest).
int nodes_of(const sweep::SweepSpec& spec, const sweep::Partition& partition) {
  if (spec.scheduler == "local") return 1;
  const auto shape = sweep::node_shape(spec, partition);
  if (shape.nodes > 0) return shape.nodes;
  return partition.processes;
}

}  // namespace

std::string to_string(PlanBasis basis) {
  switch (basis) {
    case PlanBasis::method:
      return "method rule";
    case PlanBasis::scaled:
      return "scaled";
    case PlanBasis::history:
      return "history";
    case PlanBasis::retry:
      return "retry";
    case PlanBasis::given:
      return "given";
  }
  return "method rule";
}

std::vector<PastRun> machine_history(store::Store& store, const std::string& scheduler,
                                     const std::string& before) {
  std::vector<PastRun> history;
  for (const auto& sweep : store.sweeps()) {
    if (sweep.scheduler != scheduler) continue;
    for (const auto& point : store.points(sweep.id)) {
      const auto params = nlohmann::json::parse(point.params_json, nullptr, false);
      if (params.is_discarded()) continue;
      for (const auto& a : store.attempts(point.id)) {
        if (a.state != store::PointState::done && a.state != store::PointState::timeout) continue;
        if (!a.started_at || !a.ended_at) continue;
        if (!before.empty() && *a.ended_at >= before) continue;
        const double seconds = seconds_between(*a.started_at, *a.ended_at);
        if (seconds <= 0) continue;
        history.push_back({sweep.name, a.run_no, point.key, point.worker,
                           sweep::Partition::of_point(point.partition, params), params, seconds,
                           a.state == store::PointState::timeout, *a.ended_at,
                           core_share_of(store, a.id)});
      }
    }
  }
  std::sort(history.begin(), history.end(),
            [](const PastRun& a, const PastRun& b) { return a.ended_at < b.ended_at; });
  return history;
}

std::string CostPlan::summary() const {
  std::map<PlanBasis, int> by_basis;
  for (const auto& p : points) ++by_basis[p.basis];
  std::ostringstream out;
  // Node-hours as a centre books them: whole from 100 on, else two significant digits.
  const std::string hours = node_hours >= 100 ? std::to_string(std::lround(node_hours))
                                              : units::short_number(node_hours, 2);
  out << "about " << format_duration(seconds) << ", " << hours << " node-hours ("
      << points.size() << " points one after another: ";
  bool first = true;
  for (const auto& [basis, count] : by_basis) {
    out << (first ? "" : ", ") << count << " " << to_string(basis);
    first = false;
  }
  out << ")";
  return out.str();
}

CostPlan plan_cost(const sweep::SweepSpec& spec, const std::vector<sweep::Point>& points,
                   const std::vector<PastRun>& history, const DescribeWorker& describe,
                   const sweep::MachineConstants& machine) {
  std::map<std::string, nlohmann::json> descriptions;
  std::vector<std::string> unanswered;
  const auto description = [&](const std::string& worker) -> const nlohmann::json& {
    auto it = descriptions.find(worker);
    if (it != descriptions.end()) return it->second;
    nlohmann::json d = nlohmann::json::object();
    try {
      d = describe(sweep::find_worker(worker).binary, {});
    } catch (const std::exception&) {
      unanswered.push_back(worker);
    }
    return descriptions.emplace(worker, d).first->second;
  };
  const auto cost_of = [&](const std::string& worker, const nlohmann::json& params,
                           const sweep::Partition& partition, int nodes) {
    const sweep::WorkerValues values(description(worker), params);
    return sweep::method_cost(worker, values, {partition.processes, std::max(1, nodes)}, machine);
  };
  CostPlan plan;
  bool one_per_process = false;
  for (const auto& point : points) {
    PointPlan p;
    p.key = point.key;
    p.worker = point.worker;
    p.partition = point.partition;
    p.nodes = nodes_of(spec, point.partition);
    if (spec.scheduler != "local" && !sweep::node_shape(spec, point.partition).nodes) {
      one_per_process = true;
    }
    const auto cost = cost_of(point.worker, point.params, point.partition, p.nodes);
    const double start_up = sweep::launch_seconds(machine, point.partition.processes);
    p.seconds = start_up + cost.seconds;
    p.basis = PlanBasis::method;
    p.why = cost.rule + (cost.bound ? "" : ", with the stated defaults");
    if (spec.scheduler == "local" && !cost.bound) {
      // Every rank on this machine: ranks beyond its cores wait for one.
      const int cores = machine.local_cores > 0
                            ? machine.local_cores
                            : static_cast<int>(std::max(1L, sysconf(_SC_NPROCESSORS_ONLN)));
      const double factor =
          sharing_factor(static_cast<double>(point.partition.processes) / cores);
      if (factor > 1) {
        p.seconds = start_up + cost.seconds * factor;
        p.why += ", x" + units::short_number(factor, 3) + " for " +
                 std::to_string(point.partition.processes) + " ranks on this machine's " +
                 std::to_string(cores) + (cores == 1 ? " core" : " cores");
      }
    }
    // The same point's latest run (this sweep's or another's with the same parameters).
    const PastRun* same = nullptr;
    for (const auto& h : history) {
      if (h.point_key == point.key) same = &h;
    }
    if (same && same->timed_out) {
      p.seconds = std::max(p.seconds, 2 * same->seconds);
      p.basis = PlanBasis::retry;
      p.why = "ran out of time after " + seconds_text(same->seconds) + " (sweep " + same->sweep +
              " run " + std::to_string(same->run_no) + "): planned twice that";
    } else if (same) {
      p.seconds = same->seconds;
      p.basis = PlanBasis::history;
      p.why = "its run time in sweep " + same->sweep + " run " + std::to_string(same->run_no);
    } else {
      // The nearest run of the same worker: same settings first, then the closest partition,
      // then the latest.
      const PastRun* nearest = nullptr;
      const auto settings = settings_of(point.params);
      auto rank = [&](const PastRun& h) {
        return std::make_pair(settings_of(h.params) == settings ? 0 : 1,
                              distance(h.partition, point.partition));
      };
      for (const auto& h : history) {
        if (h.worker != point.worker || h.timed_out) continue;
        if (!nearest || rank(h) <= rank(*nearest)) nearest = &h;
      }
      if (nearest) {
        const int ref_nodes = nodes_of(spec, nearest->partition);
        const auto ref_cost =
            cost_of(nearest->worker, nearest->params, nearest->partition, ref_nodes);
        const double ref_measured = std::max(
            kLeastMeasuredSeconds,
            nearest->seconds - sweep::launch_seconds(machine, nearest->partition.processes));
        const double factor = ref_measured / std::max(ref_cost.seconds, 1e-9);
        // Its start-up as a share of the stated one, for this partition's start-up.
        const double start = start_up * (nearest->seconds - ref_measured) /
                             sweep::launch_seconds(machine, nearest->partition.processes);
        // Ranks that share cores: as many more times as there are more of them per core here.
        double sharing = 1;
        if (nearest->share.known()) {
          sharing = sharing_factor(nearest->share.ranks_per_core_at(point.partition.processes,
                                                                    p.nodes)) /
                    sharing_factor(nearest->share.ranks_per_core);
        }
        p.seconds = start + cost.seconds * factor * sharing;
        p.basis = PlanBasis::scaled;
        std::ostringstream why;
        why << cost.rule << ", scaled x" << units::short_number(factor, 3) << " by this machine's "
            << nearest->worker << " at " << nearest->partition.text() << " (sweep "
            << nearest->sweep << " run " << nearest->run_no << ": "
            << seconds_text(nearest->seconds) << ")";
        if (sharing != 1) {
          why << ", x" << units::short_number(sharing, 3) << " for "
              << units::short_number(
                     nearest->share.ranks_per_core_at(point.partition.processes, p.nodes), 3)
              << " ranks per core here against "
              << units::short_number(nearest->share.ranks_per_core, 3) << " there";
        }
        p.why = why.str();
      }
    }
    const bool batch = spec.scheduler != "local";
    if (batch) {
      if (spec.time_limit_seconds > 0) {
        p.time_limit = spec.time_limit_seconds;
        p.limit_given = true;
      } else {
        // A bound stays a bound (io keeps to T x k); what it learned it plans in its estimate.
        p.time_limit = cost.bound && p.basis != PlanBasis::retry
                           ? sweep::derived_time_limit(std::max(p.seconds, cost.seconds), true)
                           : sweep::derived_time_limit(p.seconds, false);
      }
    }
    plan.points.push_back(std::move(p));
  }
  for (const auto& p : plan.points) {
    const std::string label = p.partition.text();
    auto it = std::find_if(plan.partitions.begin(), plan.partitions.end(),
                           [&](const PartitionPlan& q) { return q.partition == label; });
    if (it == plan.partitions.end()) {
      plan.partitions.push_back({label, 0, p.nodes, 0, 0});
      it = std::prev(plan.partitions.end());
    }
    ++it->points;
    it->nodes = std::max(it->nodes, p.nodes);
    it->seconds += p.seconds;
    it->node_hours += p.nodes * p.seconds / 3600;
    plan.seconds += p.seconds;
    plan.node_hours += p.nodes * p.seconds / 3600;
  }
  if (std::any_of(plan.points.begin(), plan.points.end(),
                  [](const PointPlan& p) { return p.basis == PlanBasis::method; })) {
    plan.notes.push_back("method rule: the worker's loops counted with stated defaults (" +
                         machine.text() + ")");
  }
  plan.notes.push_back(
      "wall time: the points one after another (--max-parallel 1); node-hours: nodes x planned "
      "time, " +
      std::string(spec.share_nodes ? "shared nodes counted whole too (an upper bound)"
                                   : "exclusive nodes counted whole"));
  if (one_per_process) {
    plan.notes.push_back(
        "nodes: the sweep fixes none for plain partitions (--nodes, --procs-per-node, or NxP): "
        "counted as one per process, the most the scheduler may give");
  }
  for (const auto& w : unanswered) {
    plan.notes.push_back(w +
                         ": the worker did not describe its parameters; pbench's copies of "
                         "its defaults were used");
  }
  return plan;
}

CostPlan plan_stored_sweep(store::Store& store, const store::SweepRecord& record,
                           const DescribeWorker& describe, const std::string& before) {
  const auto spec = sweep::SweepSpec::from_json(nlohmann::json::parse(record.spec_json));
  std::vector<sweep::Point> points;
  for (const auto& p : store.points(record.id)) {
    sweep::Point point;
    point.key = p.key;
    point.worker = p.worker;
    point.params = nlohmann::json::parse(p.params_json);
    point.partition = sweep::Partition::of_point(p.partition, point.params);
    points.push_back(std::move(point));
  }
  return plan_cost(spec, points, machine_history(store, record.scheduler, before), describe);
}

std::vector<std::string> lengthen_timed_out(store::Store& store, const store::SweepRecord& sweep,
                                            const DescribeWorker& describe) {
  std::vector<std::string> said;
  const auto points = store.points(sweep.id);
  if (std::none_of(points.begin(), points.end(), [](const store::PointRecord& p) {
        return p.state == store::PointState::timeout;
      })) {
    return said;
  }
  const auto plan = plan_stored_sweep(store, sweep, describe);
  for (std::size_t i = 0; i < points.size(); ++i) {
    const auto& point = points[i];
    const auto& planned = plan.points[i];
    if (point.state != store::PointState::timeout || planned.basis != PlanBasis::retry) continue;
    const int limit = sweep::derived_time_limit(planned.seconds, false);
    const auto old = script_time_limit(point.script_path);
    if (old && *old >= limit) continue;
    set_script_time_limit(point.script_path, limit);
    said.push_back("point " + point.key + " (" + point.worker + " at " + planned.partition.text() +
                   ") " + planned.why + ": time limit " +
                   (old ? format_duration(*old) + " -> " : "") + format_duration(limit) +
                   " on retry");
  }
  return said;
}

std::optional<double> actual_seconds(store::Store& store, std::int64_t point_id, int run_no) {
  std::optional<double> seconds;
  for (const auto& a : store.attempts(point_id)) {
    if (a.run_no != run_no || !a.started_at || !a.ended_at) continue;
    const double s = seconds_between(*a.started_at, *a.ended_at);
    if (s > 0) seconds = s;
  }
  return seconds;
}

}  // namespace pbench::run
