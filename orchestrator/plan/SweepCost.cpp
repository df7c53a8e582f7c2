#include "plan/SweepCost.hpp"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>

#include "common/EnumName.hpp"
#include "common/Units.hpp"
#include "plan/PartitionProgress.hpp"
#include "plan/ScriptTimeLimit.hpp"
#include "site/MachineFigures.hpp"
#include "sweep/PlannedTime.hpp"
#include "sweep/WorkerCatalog.hpp"
#include "util/Error.hpp"
#include "util/Time.hpp"

namespace pbench::run {

namespace {

/// A past run counts as this long at least when scaled: its start-up alone is not a measure.
constexpr double kLeastMeasuredSeconds = 0.05;
/// The least a past run's method rule may count for the run to scale a plan by [s].
constexpr double kLeastRuleSeconds = 1e-6;
/// A guessed point's limit at least, where the site states no longest one: an hour (the
/// default of every batch sweep before plans), never a few minutes under a plan of seconds.
constexpr int kGuessedLimitSeconds = sweep::kDefaultTimeLimitSeconds;

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

/// An attempt's result's node_cores (null without one).
nlohmann::json node_cores_of(store::Store& store, std::int64_t attempt_id) {
  const auto text = store.result_node_cores(attempt_id);
  if (!text) return nullptr;
  const auto j = nlohmann::json::parse(*text, nullptr, false);
  return j.is_discarded() ? nlohmann::json() : j;
}

/// The hosts a result's node_cores names.
std::vector<std::string> hosts_of(const nlohmann::json& node_cores) {
  std::vector<std::string> hosts;
  if (!node_cores.is_array()) return hosts;
  for (const auto& node : node_cores) {
    if (node.is_object() && node.contains("host") && node["host"].is_string()) {
      hosts.push_back(node["host"].get<std::string>());
    }
  }
  return hosts;
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
  constexpr EnumName<PlanBasis> kNames[] = {{PlanBasis::method, "method rule"},
                                            {PlanBasis::scaled, "scaled"},
                                            {PlanBasis::history, "history"},
                                            {PlanBasis::retry, "retry"},
                                            {PlanBasis::given, "given"}};
  return name_of(kNames, basis, "method rule");
}

std::vector<PastRun> machine_history(store::Store& store, const std::string& scheduler,
                                     const std::string& before) {
  std::vector<PastRun> history;
  for (const auto& sweep : store.sweeps()) {
    if (sweep.scheduler != scheduler) continue;
    const auto spec = nlohmann::json::parse(sweep.spec_json, nullptr, false);
    const std::string cluster =
        spec.is_object() && spec.contains("machine") && spec["machine"].is_object()
            ? spec["machine"].value("cluster", std::string())
            : "";
    for (const auto& point : store.points(sweep.id)) {
      const auto params = nlohmann::json::parse(point.params_json, nullptr, false);
      if (params.is_discarded()) continue;
      for (const auto& a : store.attempts(point.id)) {
        if (a.state != store::PointState::done && a.state != store::PointState::timeout) continue;
        if (!a.started_at || !a.ended_at) continue;
        if (!before.empty() && *a.ended_at >= before) continue;
        const double seconds = seconds_between(*a.started_at, *a.ended_at);
        if (seconds <= 0) continue;
        const auto node_cores = node_cores_of(store, a.id);
        history.push_back({sweep.name, a.run_no, point.key, point.worker,
                           sweep::Partition::of_point(point.partition, params), params, seconds,
                           a.state == store::PointState::timeout, *a.ended_at,
                           CoreShare::of_node_cores(node_cores), cluster, hosts_of(node_cores)});
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
  out << "about " << format_duration(seconds) << ", " << hours << " node-hours (" << points.size()
      << " points one after another: ";
  bool first = true;
  for (const auto& [basis, count] : by_basis) {
    out << (first ? "" : ", ") << count << " " << to_string(basis);
    first = false;
  }
  out << ")";
  return out.str();
}

namespace {

/// Each worker's --describe-parameters answer, asked once; the workers that did not answer.
class Descriptions {
 public:
  explicit Descriptions(const DescribeWorker& describe) : describe_(describe) {}
  const nlohmann::json& of(const std::string& worker) {
    auto it = descriptions_.find(worker);
    if (it != descriptions_.end()) return it->second;
    nlohmann::json d = nlohmann::json::object();
    try {
      d = describe_(sweep::find_worker(worker).binary, {});
    } catch (const std::exception&) {
      unanswered.push_back(worker);
    }
    return descriptions_.emplace(worker, d).first->second;
  }
  std::vector<std::string> unanswered;

 private:
  const DescribeWorker& describe_;
  std::map<std::string, nlohmann::json> descriptions_;
};

/// What planning one point needs: the sweep, its machine and the workers' defaults.
struct Planning {
  const sweep::SweepSpec& spec;
  const PlanMachine& machine;
  Descriptions& descriptions;
  sweep::MethodCost cost_of(const std::string& worker, const nlohmann::json& params,
                            const sweep::Partition& partition, int nodes) const {
    const sweep::WorkerValues values(descriptions.of(worker), params);
    return sweep::method_cost(worker, values, {partition.processes, std::max(1, nodes)},
                              machine.constants);
  }
};

/// A point by its method's rule alone: the machine's figures, on the local scheduler times the
/// ranks per core of this machine.
void plan_by_rule(PointPlan& p, const sweep::MethodCost& cost, const Planning& planning) {
  const auto& machine = planning.machine.constants;
  const double start_up = sweep::launch_seconds(machine, p.partition.processes);
  p.seconds = start_up + cost.seconds;
  p.basis = PlanBasis::method;
  p.guessed = true;
  p.why = cost.rule + (cost.bounded()           ? ""
                       : machine.all_defaults() ? ", with the stated defaults"
                                                : ", with the machine's figures");
  if (planning.spec.scheduler == "local" && !cost.bounded()) {
    // Every rank on this machine: ranks beyond its cores wait for one.
    const int cores = machine.local_cores > 0
                          ? machine.local_cores
                          : static_cast<int>(std::max(1L, sysconf(_SC_NPROCESSORS_ONLN)));
    const double factor = sharing_factor(static_cast<double>(p.partition.processes) / cores);
    if (factor > 1) {
      p.seconds = start_up + cost.seconds * factor;
      p.why += ", x" + units::short_number(factor, 3) + " for " +
               std::to_string(p.partition.processes) + " ranks on this machine's " +
               std::to_string(cores) + (cores == 1 ? " core" : " cores");
    }
  }
}

/// io's scheduled time T of a point (its dimension, its setting, or pbench-io's default).
double schedule_time_of(const nlohmann::json& params) {
  const sweep::WorkerValues values({}, params);
  return values.number("schedule_time", sweep::kIoDefaultScheduleTime);
}

/// The method's cost scaled by this machine's nearest run of the same worker: its measured time
/// against its rule's, and as many more times as ranks share a core more here. A worker with a
/// bound (io) keeps to its scheduled time whatever the cores: its elapsed/T times this T.
void plan_scaled(PointPlan& p, const sweep::Point& point, const sweep::MethodCost& cost,
                 const PastRun& nearest, const Planning& planning) {
  const auto& machine = planning.machine.constants;
  const double start_up = sweep::launch_seconds(machine, point.partition.processes);
  const double ref_launch = sweep::launch_seconds(machine, nearest.partition.processes);
  const int ref_nodes = nodes_of(planning.spec, nearest.partition);
  const auto ref_cost =
      planning.cost_of(nearest.worker, nearest.params, nearest.partition, ref_nodes);
  const double ref_measured = std::max(kLeastMeasuredSeconds, nearest.seconds - ref_launch);
  // Its start-up as a share of the stated one, for this partition's start-up.
  const double start = start_up * (nearest.seconds - ref_measured) / ref_launch;
  p.basis = PlanBasis::scaled;
  std::ostringstream why;
  const std::string there = nearest.worker + " at " + nearest.partition.text() + " (sweep " +
                            nearest.sweep + " run " + std::to_string(nearest.run_no) + ": " +
                            seconds_text(nearest.seconds);
  if (cost.bounded()) {
    const double ref_t = schedule_time_of(nearest.params);
    const double t = schedule_time_of(point.params);
    const double share = ref_measured / ref_t;
    p.seconds = start + share * t;
    p.guessed = false;
    why << "io: scheduled time T " << seconds_text(t) << " x " << units::short_number(share, 3)
        << ", the elapsed/T of this machine's " << there << " at T " << seconds_text(ref_t)
        << "), at most T x k (the time guard's bound)";
    p.why = why.str();
    return;
  }
  const double factor = ref_measured / std::max(ref_cost.seconds, 1e-9);
  double sharing = 1;
  if (nearest.share.known()) {
    sharing = sharing_factor(nearest.share.ranks_per_core_at(point.partition.processes, p.nodes)) /
              sharing_factor(nearest.share.ranks_per_core);
  }
  // Ranks of unknown share: the scaling is a guess, its limit as long as the site allows.
  p.guessed = !nearest.share.known();
  p.seconds = start + cost.seconds * factor * sharing;
  why << cost.rule << ", scaled x" << units::short_number(factor, 3) << " by this machine's "
      << there << ")";
  if (sharing != 1) {
    why << ", x" << units::short_number(sharing, 3) << " for "
        << units::short_number(nearest.share.ranks_per_core_at(point.partition.processes, p.nodes),
                               3)
        << " ranks per core here against " << units::short_number(nearest.share.ranks_per_core, 3)
        << " there";
  }
  if (p.guessed) why << " (how its ranks shared cores is unknown: a guess)";
  p.why = why.str();
}

/// What this machine's runs say of the point: its own latest run, or the worker's nearest.
void learn_from_history(PointPlan& p, const sweep::Point& point, const sweep::MethodCost& cost,
                        const std::vector<const PastRun*>& history, const Planning& planning) {
  const PastRun* same = nullptr;
  for (const auto* h : history) {
    if (h->point_key == point.key) same = h;
  }
  if (same && same->timed_out) {
    p.seconds = std::max(p.seconds, 2 * same->seconds);
    p.basis = PlanBasis::retry;
    p.guessed = false;
    p.why = "ran out of time after " + seconds_text(same->seconds) + " (sweep " + same->sweep +
            " run " + std::to_string(same->run_no) + "): planned twice that";
    return;
  }
  if (same) {
    p.seconds = same->seconds;
    p.basis = PlanBasis::history;
    p.guessed = false;
    p.why = "its run time in sweep " + same->sweep + " run " + std::to_string(same->run_no);
    return;
  }
  // The nearest run of the same worker: same settings first, then the closest partition, then
  // the latest.
  const PastRun* nearest = nullptr;
  const auto settings = settings_of(point.params);
  auto rank = [&](const PastRun& h) {
    return std::make_pair(settings_of(h.params) == settings ? 0 : 1,
                          distance(h.partition, point.partition));
  };
  for (const auto* h : history) {
    if (h->worker != point.worker || h->timed_out) continue;
    // A run whose method measured nothing (logp on one process: no pair) has only its start-up
    // to scale by: its rule's cost is no base for a ratio.
    const auto ref =
        planning.cost_of(h->worker, h->params, h->partition, nodes_of(planning.spec, h->partition));
    if (!ref.bounded() && ref.seconds < kLeastRuleSeconds) continue;
    if (!nearest || rank(*h) <= rank(*nearest)) nearest = h;
  }
  if (nearest) plan_scaled(p, point, cost, *nearest, planning);
}

/// The point's batch time limit (see PointPlan::limit_from), cut to the site's longest with a
/// warning.
void set_time_limit(PointPlan& p, const sweep::MethodCost& cost, const Planning& planning,
                    std::vector<std::string>& warnings) {
  const auto& spec = planning.spec;
  const auto& machine = planning.machine;
  if (spec.scheduler == "local") return;
  if (spec.time_limit_seconds > 0) {
    p.time_limit = spec.time_limit_seconds;
    p.limit_given = true;
    p.limit_from = "given";
  } else if (cost.bounded() && p.basis != PlanBasis::retry) {
    // A bound stays a bound (io keeps to T x k); a plan past it (a slow start-up) counts too.
    p.time_limit = sweep::derived_time_limit(std::max(p.seconds, cost.bound_seconds), true);
    p.limit_from = "bound";
  } else if (p.guessed) {
    // No run of this machine to go by: as long as the site allows, never a few minutes.
    const int estimate = sweep::derived_time_limit(p.seconds, false);
    p.time_limit = std::max(
        estimate, machine.max_time_limit > 0 ? machine.max_time_limit : kGuessedLimitSeconds);
    p.limit_from = "guess";
  } else {
    p.time_limit = sweep::derived_time_limit(p.seconds, false);
    p.limit_from = "plan";
  }
  if (machine.max_time_limit <= 0 || p.time_limit <= machine.max_time_limit) return;
  warnings.push_back("point " + p.key + " (" + p.worker + " at " + p.partition.text() +
                     "): its time limit " + format_duration(p.time_limit) + " (" + p.limit_from +
                     ") is past the longest the site allows, " +
                     format_duration(machine.max_time_limit) + " (" + machine.max_time_source +
                     "): cut to that, the batch system may stop it before it ends (planned " +
                     format_duration(p.seconds) + ": " + p.why + ")");
  p.time_limit = machine.max_time_limit;
  if (!p.limit_given) p.limit_from = "maximum";
}

/// Refuses a planned time no plan can hold (not a number, negative, past a year), naming the
/// point, before node-hours or a limit are counted from it.
void check_planned(const PointPlan& p) {
  if (std::isfinite(p.seconds) && p.seconds >= 0 && p.seconds <= sweep::kMostPlannedSeconds) {
    return;
  }
  const std::string amount =
      std::isfinite(p.seconds) && p.seconds >= 0
          ? format_duration(p.seconds)
          : std::string(std::isnan(p.seconds) ? "not a number" : "past any bound");
  throw UsageError("point " + p.key + " (" + p.worker + " at " + p.partition.text() +
                   ") is planned at " + amount + " (" + p.why + "), past the " +
                   format_duration(sweep::kMostPlannedSeconds) +
                   " a plan holds for one point: the sweep is refused; give the worker smaller "
                   "settings (--set)");
}

void sum_partitions(CostPlan& plan) {
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
}

void add_notes(CostPlan& plan, const sweep::SweepSpec& spec, const PlanMachine& machine,
               bool one_per_process, std::size_t other_machine_runs,
               const std::vector<std::string>& unanswered) {
  if (std::any_of(plan.points.begin(), plan.points.end(),
                  [](const PointPlan& p) { return p.basis == PlanBasis::method; })) {
    plan.notes.push_back("method rule: the worker's loops counted with " +
                         machine.constants.text());
  }
  if (other_machine_runs > 0) {
    plan.notes.push_back(
        "history: " + std::to_string(other_machine_runs) +
        " runs in the store ran on another machine (cluster '" + cluster_of(spec) +
        "' is this sweep's, the site profile's [machine] cluster) and were not used");
  }
  if (spec.scheduler != "local") {
    plan.notes.push_back(
        "time limits: bound (the worker's own, + 5 min), plan (this machine's runs, x 1.5 + 5 "
        "min), guess (no run to go by: " +
        (machine.max_time_limit > 0
             ? format_duration(machine.max_time_limit) + ", " + machine.max_time_source
             : "at least " + format_duration(kGuessedLimitSeconds) +
                   ", no longest limit stated (scheduler.max_time_limit)") +
        ")");
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
}

}  // namespace

CostPlan plan_cost(const sweep::SweepSpec& spec, const std::vector<sweep::Point>& points,
                   const std::vector<PastRun>& history, const DescribeWorker& describe,
                   const PlanMachine& machine) {
  Descriptions descriptions(describe);
  const Planning planning{spec, machine, descriptions};
  // Only this machine's runs teach its plan (a lab's oversubscribed ranks are not a cluster's).
  std::vector<const PastRun*> mine;
  for (const auto& h : history) {
    if (same_machine(h, spec)) mine.push_back(&h);
  }
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
    const auto cost = planning.cost_of(point.worker, point.params, point.partition, p.nodes);
    plan_by_rule(p, cost, planning);
    learn_from_history(p, point, cost, mine, planning);
    check_planned(p);
    set_time_limit(p, cost, planning, plan.warnings);
    plan.points.push_back(std::move(p));
  }
  sum_partitions(plan);
  add_notes(plan, spec, machine, one_per_process, history.size() - mine.size(),
            descriptions.unanswered);
  return plan;
}

PlanMachine plan_machine(const sweep::SweepSpec& spec, int told_max,
                         const std::string& told_source) {
  PlanMachine machine;
  if (spec.machine.is_object()) {
    const std::string source =
        "site profile" +
        (spec.site.is_object() ? " " + spec.site.value("path", std::string()) : std::string()) +
        " [machine]";
    machine.constants = site::MachineFigures::from_json(spec.machine).apply({}, source);
  }
  if (spec.max_time_limit_seconds > 0) {
    machine.max_time_limit = spec.max_time_limit_seconds;
    machine.max_time_source = "the site profile's scheduler.max_time_limit";
  }
  if (told_max > 0 && (machine.max_time_limit <= 0 || told_max < machine.max_time_limit)) {
    machine.max_time_limit = told_max;
    machine.max_time_source = told_source;
  }
  return machine;
}

std::string cluster_of(const sweep::SweepSpec& spec) {
  return spec.machine.is_object() ? spec.machine.value("cluster", std::string()) : "";
}

bool same_machine(const PastRun& run, const sweep::SweepSpec& spec) {
  if (run.cluster != cluster_of(spec)) return false;
  if (spec.scheduler != "local" || run.hosts.empty()) return true;
  char name[256] = {};
  if (::gethostname(name, sizeof(name) - 1) != 0) return true;
  return std::find(run.hosts.begin(), run.hosts.end(), std::string(name)) != run.hosts.end();
}

CostPlan plan_stored_sweep(
    store::Store& store, const store::SweepRecord& record, const DescribeWorker& describe,
    const std::string& before, int told_max, const std::string& told_source,
    const std::vector<std::pair<site::MachineFigures, std::string>>& overlay) {
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
  auto machine = plan_machine(spec, told_max, told_source);
  for (const auto& [figures, source] : overlay) {
    machine.constants = figures.apply(machine.constants, source);
  }
  return plan_cost(spec, points, machine_history(store, record.scheduler, before), describe,
                   machine);
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
