#include <iostream>
#include <map>
#include <memory>

#include "cli/CommandSummary.hpp"
#include "cli/Commands.hpp"
#include "cli/SweepContext.hpp"
#include "collect/Collector.hpp"
#include "collect/DriverCollected.hpp"
#include "collect/EnvironmentDrift.hpp"
#include "plan/PartitionProgress.hpp"
#include "plan/SweepCost.hpp"
#include "query/QueryTable.hpp"
#include "store/ResultLayout.hpp"
#include "sweepdir/Envelope.hpp"
#include "util/NodeList.hpp"

namespace pbench::cli {

namespace {
/// The widest allocation a status row shows (a longer host list ends in "and N more").
constexpr std::size_t kAllocatedWidth = 32;

struct StatusOptions {
  std::string name;
  std::string format = "table";
  double timeout = 0;
  int max_parallel = 1;
};
}  // namespace

namespace {

// nodes and ppn: the shape the point asks for (empty: the scheduler places its processes);
// scheduler: the batch system's own state of the newest job, with its reason (a job that pends
// on a node set down says so here); allocated: the nodes the batch system gave its newest job,
// as a compressed host list ("node[1-16]").
std::vector<query::QueryColumn> point_columns() {
  return {query::label_column("point"),
          query::label_column("worker"),
          query::label_column("partition", "procs"),
          query::label_column("nodes"),
          query::label_column("ppn"),
          query::label_column("allocated"),
          query::label_column("params", "parameters"),
          query::label_column("state"),
          query::label_column("attempts"),
          query::label_column("job_id", "job"),
          query::label_column("exit_status", "exit"),
          query::label_column("signal"),
          // The scheduler's state, or why the attempt ended without one (its directory
          // deleted, a partial exit marker): shortened in the aligned table so that it keeps
          // to 160 columns, whole in a note (issue 51).
          {"scheduler", "", "scheduler", "", 1, 0, {}, true},
          // A deadline's reason: shortened in the aligned table, whole in a note.
          {"partial", "", "partial", "", 1, 0, {}, true},
          {"planned_time", "s", "planned", "s", 1, 3},
          {"actual_time", "s", "actual", "s", 1, 3}};
}

// The points' table with what its notes and the ETA need.
struct PointsStatus {
  query::QueryTable table;
  double remaining_planned = 0;  ///< the plan's time of the points not ended
  int partial_count = 0;         ///< points whose newest result a deadline cut short
  /// Each point that did not finish, said as collect says it: the worker's own error line
  /// before the launcher's.
  std::vector<std::string> failures;
};

// A point whose newest result a deadline cut short: its reason (validity.partial).
std::map<std::int64_t, std::string> partial_reasons(SweepContext& context) {
  std::map<std::int64_t, std::string> partial;
  auto s = context.store.db().prepare("SELECT p.id, " + store::kChosenPartialReason +
                                      " FROM points p WHERE p.sweep_id = ?1");
  s.bind(1, context.sweep.id);
  while (s.step()) {
    if (auto reason = s.optional_text(1)) partial[s.int64(0)] = *reason;
  }
  return partial;
}

// Planned as the run started (the plan learns from the runs before it), against the run time
// of this run's latest attempt.
PointsStatus points_status(SweepContext& context) {
  PointsStatus out;
  out.table.columns = point_columns();
  const auto runs = context.store.runs(context.sweep.id);
  const int run_no = runs.empty() ? 1 : runs.back().run_no;
  const auto plan = run::plan_stored_sweep(context.store, context.sweep,
                                           run::describe_worker_with(context.runner),
                                           runs.empty() ? "" : runs.back().started_at);
  const auto partial = partial_reasons(context);
  std::size_t index = 0;
  for (const auto& point : context.store.points(context.sweep.id)) {
    const auto attempts = context.store.attempts(point.id);
    const double planned = plan.points[index++].seconds;
    query::Cell actual;
    if (const auto seconds = run::actual_seconds(context.store, point.id, run_no)) {
      actual = *seconds;
    }
    if (point.state == store::PointState::planned || point.state == store::PointState::queued ||
        point.state == store::PointState::running) {
      out.remaining_planned += planned;
    }
    query::Cell job, exit, signal, native, nodes, ppn, cut, allocated;
    if (auto found = partial.find(point.id); found != partial.end()) {
      cut = found->second;
      ++out.partial_count;
    }
    if (!attempts.empty()) {
      if (attempts.back().job_id) job = *attempts.back().job_id;
      if (attempts.back().exit_status) exit = *attempts.back().exit_status;
      if (attempts.back().signal) signal = *attempts.back().signal;
      if (attempts.back().native_state) native = *attempts.back().native_state;
      const auto hosts = run::allocated_hosts(attempts.back().job_dir);
      if (!hosts.empty()) allocated = compress_node_list(hosts, kAllocatedWidth);
      if (store::is_terminal(point.state) && point.state != store::PointState::done) {
        out.failures.push_back(run::failed_point_line(point, attempts.back()));
      }
    }
    const auto shape = store::asked_shape(nlohmann::json::parse(point.params_json, nullptr, false));
    if (shape.exact()) {
      nodes = std::int64_t{shape.nodes};
      ppn = std::int64_t{shape.procs_per_node};
    }
    out.table.rows.push_back({point.key, point.worker, std::int64_t{point.partition}, nodes, ppn,
                              allocated, point.params_json, store::to_string(point.state),
                              static_cast<std::int64_t>(attempts.size()), job, exit, signal, native,
                              cut, planned, actual});
  }
  return out;
}

// Progress per partition size as a table, and as notes of `points`.
query::QueryTable partitions_table(const run::SweepProgressReport& report,
                                   query::QueryTable& points) {
  query::QueryTable partitions;
  partitions.columns = {query::label_column("partition", "procs"),
                        query::label_column("nodes"),
                        query::label_column("ppn"),
                        query::label_column("planned"),
                        query::label_column("queued"),
                        query::label_column("running"),
                        query::label_column("done"),
                        query::label_column("failed"),
                        {"mean_run_time", "s", "mean run", "s", 1, 3}};
  for (const auto& p : report.partitions) {
    query::Cell mean;
    if (p.mean_seconds) mean = *p.mean_seconds;
    query::Cell nodes, ppn;
    if (p.nodes > 0) {
      nodes = std::int64_t{p.nodes};
      ppn = std::int64_t{p.procs_per_node};
    }
    partitions.rows.push_back({std::int64_t{p.partition}, nodes, ppn, std::int64_t{p.planned},
                               std::int64_t{p.queued}, std::int64_t{p.running},
                               std::int64_t{p.done}, std::int64_t{p.failed}, mean});
    points.notes.push_back(
        "partition " + run::partition_label(p) + ": " + std::to_string(p.planned) + " planned, " +
        std::to_string(p.queued) + " queued, " + std::to_string(p.running) + " running, " +
        std::to_string(p.done) + " done, " + std::to_string(p.failed) + " failed");
  }
  return partitions;
}

std::string eta_text(const run::SweepProgressReport& report, double remaining_planned,
                     const std::string& name) {
  if (!report.eta_seconds) {
    return "ETA " + run::format_duration(remaining_planned) +
           " as planned (no point has finished yet; per point: pbench plan " + name + ")";
  }
  if (*report.eta_seconds == 0) return "ETA 0s (no point remains)";
  return "ETA " + run::format_duration(*report.eta_seconds) +
         " (remaining points one after another at their partition's mean run time)";
}

void show_status(SweepContext& context, const StatusOptions& o) {
  auto status = points_status(context);
  auto& table = status.table;
  table.notes.push_back("sweep " + o.name + ": " + context.driver->progress().line() +
                        (status.partial_count > 0 ? ", " + std::to_string(status.partial_count) +
                                                        " partial (stopped before a deadline)"
                                                  : ""));
  table.notes.insert(table.notes.end(), status.failures.begin(), status.failures.end());
  const auto format = query::parse_format(o.format);
  const auto report = run::partition_progress(context.store, context.sweep.id);
  auto partitions = partitions_table(report, table);
  const std::string eta = eta_text(report, status.remaining_planned, o.name);
  table.notes.push_back(eta);
  for (const auto& drift : run::environment_drift(context.store, context.sweep)) {
    std::cerr << "pbench: warning: " << drift << "\n";
  }
  if (format == query::Format::table) {
    // The aligned table shows the partitions as a table of their own rather than as notes:
    // the sweep's line and the failed points' lines stay under the points.
    table.notes.resize(1 + status.failures.size());
    partitions.notes.push_back(eta);
    query::print(table, format);
    std::cout << "\n";
    query::print(partitions, format);
  } else if (format == query::Format::json) {
    query::print_json(table, {{"partitions", &partitions}}, std::cout);
  } else {
    query::print(table, format);
  }
}

}  // namespace

void add_status_command(CLI::App& app, GlobalOptions& global) {
  auto* command = app.add_subcommand(
      "status",
      "Show a sweep's points by state, then its progress per partition size (planned, queued, "
      "running, done, failed) with an ETA: the remaining points' run time if they run one after "
      "another, each at the mean run time of its partition's finished points (the sweep's mean "
      "where its partition has none; the plan's times while none has finished). Each point "
      "shows its planned time (as planned when the latest run started) against its actual run "
      "time in that run");
  auto o = std::make_shared<StatusOptions>();
  command->add_option("name", o->name, "Sweep name")->required();
  command->add_option("--format", o->format, "table, csv or json")->capture_default_str();
  command->callback([o, &global] {
    SweepContext context(global.db, o->name, store::Store::Access::read_only);
    show_status(context, *o);
  });
}

void add_wait_command(CLI::App& app, GlobalOptions& global) {
  auto* command = app.add_subcommand(
      "wait", "Wait until a sweep's points have ended (driving it if no other process does)");
  auto o = std::make_shared<StatusOptions>();
  command->add_option("name", o->name, "Sweep name")->required();
  command
      ->add_option("--timeout", o->timeout,
                   "Give up after this many seconds (0: never); exit status 8 when points are "
                   "then still to end")
      ->check(CLI::NonNegativeNumber);
  command->add_option("--max-parallel", o->max_parallel, "Points running at once when driving")
      ->check(CLI::PositiveNumber);
  add_summary_format_option(*command, o->format);
  command->callback([o, &global] {
    SweepContext context(global.db, o->name);
    context.driver->set_outage_budget(std::chrono::seconds(global.scheduler_outage));
    bool timed_out = false;
    const auto p = follow_sweep(context, o->max_parallel, o->timeout, &timed_out);
    global.exit_code = timed_out ? kWaitTimedOut : exit_code_of(p);
    const std::string waited =
        timed_out ? "; the points left go on (--timeout " + run::format_duration(o->timeout) +
                        " passed: wait again, or pbench cancel " + o->name + ")"
                  : "";
    if (o->format == "json") {
      auto table = progress_table(o->name, p, global.exit_code);
      if (timed_out) table.notes.push_back("timed out" + waited);
      print_summary_json(table, {});
    } else {
      std::cout << "sweep " << o->name << ": " << p.line() << waited << "\n";
    }
  });
}

void add_cancel_command(CLI::App& app, GlobalOptions& global) {
  auto* command = app.add_subcommand("cancel", "Cancel a sweep's queued and running jobs");
  auto o = std::make_shared<StatusOptions>();
  command->add_option("name", o->name, "Sweep name")->required();
  command->callback([o, &global] {
    SweepContext context(global.db, o->name);
    const int cancelled = context.driver->cancel_all();
    std::cout << "sweep " << o->name << ": cancel sent to " << cancelled
              << " jobs; planned points marked cancelled\n";
  });
}

void add_collect_command(CLI::App& app, GlobalOptions& global) {
  auto* command =
      app.add_subcommand("collect", "Ingest the result documents of a sweep's finished points");
  auto o = std::make_shared<StatusOptions>();
  command->add_option("name", o->name, "Sweep name")->required();
  add_summary_format_option(*command, o->format);
  command->callback([o, &global] {
    SweepContext context(global.db, o->name);
    auto report = run::collect(context.store, context.sweep, context.scheduler.get());
    // What pbench submit's driver stored as its points ended, said here as if stored now.
    run::merge_reports(report, run::take_driver_collected(context.sweep.directory));
    global.exit_code = exit_code_of(report);
    if (o->format == "json") {
      print_summary_json(collect_table(o->name, report, global.exit_code), {});
      return;
    }
    for (const auto& m : report.messages) std::cerr << "  " << m << "\n";
    std::cout << "sweep " << o->name << ": " << report.stored << " results stored, "
              << report.duplicates << " already stored, " << report.rejected << " rejected, "
              << report.failed << " points failed";
    if (report.partial > 0) std::cout << " (" << report.partial << " partial results stored)";
    if (report.deadline_partial > 0) {
      std::cout << ", " << report.deadline_partial << " partial (stopped before a deadline)";
    }
    std::cout << run::findings_text(report) << ", " << report.pending << " not finished\n";
  });
}

}  // namespace pbench::cli
