#include <algorithm>
#include <iostream>
#include <memory>

#include "cli/Commands.hpp"
#include "cli/SweepContext.hpp"
#include "cli/SweepOptions.hpp"
#include "collect/Collector.hpp"
#include "collect/DriverCollected.hpp"
#include "collect/EnvironmentDrift.hpp"
#include "plan/LaunchPreflight.hpp"
#include "plan/SweepBudget.hpp"
#include "plan/SweepCost.hpp"
#include "plan/SweepPlanner.hpp"
#include "query/WorkerQueries.hpp"
#include "site/ProfileSweep.hpp"
#include "sweep/DemoSweep.hpp"
#include "sweepdir/SweepRuns.hpp"
#include "util/Error.hpp"

namespace pbench::cli {

namespace {
struct RunOptions {
  SweepOptions sweep;
  int max_parallel = 1;
  std::string format = "table";
  bool again = false;
  std::string budget;  ///< --budget NODE-HOURS
  std::string wall;    ///< --wall DURATION
};
}  // namespace

namespace {

// --again: the stored sweep as it is, its specification and job scripts, run once more.
sweep::SweepSpec stored_spec_again(RunOptions& o, const GlobalOptions& global,
                                   const run::SweepBudget& budget, std::size_t& point_count) {
  sweep::SweepSpec spec;
  if (!o.sweep.given("name")) throw UsageError("--again needs the NAME of a stored sweep");
  if (const auto changed = o.sweep.given_definition(); !changed.empty()) {
    std::string names;
    for (const auto& n : changed) names += (names.empty() ? "" : ", ") + n;
    throw UsageError(
        "--again runs the stored sweep '" + o.sweep.name + "' as it was defined; " + names +
        " would change that definition and cannot be given with --again. For such a run, "
        "make a new sweep (pbench run NEW ...; then pbench check NEW --against " +
        o.sweep.name + ") or replace this one (pbench sweep " + o.sweep.name +
        " ... --force --discard-results)");
  }
  SweepContext stored(global.db, o.sweep.name);
  spec = sweep::SweepSpec::from_json(nlohmann::json::parse(stored.sweep.spec_json));
  point_count = stored.store.points(stored.sweep.id).size();
  if (const auto drift = site::profile_drift(spec.site, spec.name)) {
    std::cerr << "pbench: warning: " << *drift << "\n";
  }
  if (budget.any()) {
    const auto plan = run::plan_stored_sweep(stored.store, stored.sweep,
                                             run::describe_worker_with(stored.runner));
    if (const auto over = run::over_budget(spec.name, plan, budget)) throw UsageError(*over);
  }
  const auto next = run::start_next_run(stored.store, stored.sweep);
  std::cerr << "pbench: sweep " << spec.name << ": run " << next.run_no << "\n";
  return spec;
}

// A new sweep (the demo without a NAME): planned, kept to its budget and stored.
sweep::SweepSpec planned_spec(RunOptions& o, const GlobalOptions& global,
                              const run::SweepBudget& budget, std::size_t& point_count) {
  sweep::SweepSpec spec;
  spec = o.sweep.spec();
  // Without a sweep name, run is the embedded demo: every worker, demo-sized.
  if (!o.sweep.given("name") && !o.sweep.given("--spec")) {
    sweep::apply_demo_defaults(spec, {o.sweep.given("--workers"), o.sweep.given("-T")});
  }
  auto plan_options = o.sweep.plan_options(global.runs_dir);
  plan_options.history = stored_history(global.db, spec.scheduler);
  tell_max_time(plan_options, spec);
  const auto plan = run::make_plan(spec, plan_options);
  // Over budget: refused before a script is written, the store opened or a job submitted.
  if (const auto over = run::over_budget(spec.name, plan.cost, budget)) {
    throw UsageError(*over);
  }
  for (const auto& w : plan.warnings) std::cerr << "pbench: warning: " << w << "\n";
  {
    auto store = store::Store::open(global.db, store::Store::Access::create);
    run::store_plan(store, plan, o.sweep.force, o.sweep.discard_results);
  }
  spec = plan.spec;
  point_count = plan.points.size();
  return spec;
}

// One table per worker of the sweep, in the order the sweep names them.
void print_worker_tables(SweepContext& context, const sweep::SweepSpec& spec,
                         query::Format format) {
  for (std::size_t i = 0; i < spec.workers.size(); ++i) {
    if (i > 0 && format == query::Format::table) std::cout << "\n";
    const std::string& worker = spec.workers[i];
    if (const auto* q = query::find_worker_query(worker)) {
      // The table of the suite the sweep ran (the worker's `suite` setting, as io's).
      std::string suite;
      if (const auto w = spec.settings.find(worker); w != spec.settings.end()) {
        if (const auto it = w->second.find("suite"); it != w->second.end()) suite = it->second;
      }
      const auto table = q->suites.empty() ? q->table : query::suite_table(*q, suite);
      query::print(table(context.store, spec.name), format);
    }
  }
}

}  // namespace

void add_run_command(CLI::App& app, GlobalOptions& global) {
  auto* command = app.add_subcommand(
      "run",
      "Sweep, submit, wait, collect and query in one step. Without a NAME: the demo sweep "
      "'demo', every worker with settings that take seconds (each can be overridden). With a "
      "NAME: not the demo but a sweep of the options given, each at its default below (logp "
      "alone on partitions 1,2 at queue depths 1,8,64, local scheduler) and every worker at its "
      "method's full settings, which take minutes to hours; add --workers, --set or -T, or run "
      "without a NAME for the demo. Ctrl-C stops this command, not the jobs it started: it says "
      "how to follow them (pbench wait NAME) or stop them (pbench cancel NAME)");
  auto o = std::make_shared<RunOptions>();
  o->sweep.declare(*command, "demo");
  command->add_option("--max-parallel", o->max_parallel, "Points running at once")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  command->add_option("--format", o->format, "table, csv, json or markdown")->capture_default_str();
  command->add_flag("--again", o->again,
                    "Run every point of the stored sweep NAME again as its next run (the earlier "
                    "runs are kept: pbench history NAME)");
  declare_budget(*command, o->budget, o->wall);
  command->callback([o, &global] {
    const auto format = query::parse_format(o->format);
    const auto budget = run::parse_budget(o->budget, o->wall);
    std::size_t point_count = 0;
    const sweep::SweepSpec spec = o->again ? stored_spec_again(*o, global, budget, point_count)
                                           : planned_spec(*o, global, budget, point_count);
    SweepContext context(global.db, spec.name);
    context.driver->set_outage_budget(std::chrono::seconds(global.scheduler_outage));
    context.driver->set_collect_as_points_end(true);
    // Before any point is submitted: a launcher or worker that cannot start is said now, not
    // as every point failing with exit 127 and an empty table.
    run::LaunchPreflight::check(spec, context.runner);
    std::cerr << "pbench: sweep " << spec.name << " (" << point_count << " points) with the "
              << spec.scheduler << " scheduler, store " << global.db << "\n";
    const auto cost = run::plan_stored_sweep(context.store, context.sweep,
                                             run::describe_worker_with(context.runner));
    std::cerr << "pbench: sweep " << spec.name << ": planned " << cost.summary() << "\n";
    // A run kept to its node-hours: no point is submitted that would pass them.
    if (budget.node_hours > 0) {
      const int run_no = context.store.runs(context.sweep.id).back().run_no;
      context.driver->set_submit_gate(
          run::budget_gate(context.store, context.sweep, run_no, cost, budget));
    }
    const auto progress = follow_sweep(context, o->max_parallel, 0);
    if (const auto& why = context.driver->submission_stopped(); !why.empty()) {
      std::cerr << "pbench: sweep " << spec.name << ": " << why << "\n";
    }
    auto report = run::collect(context.store, context.sweep, context.scheduler.get());
    run::merge_reports(report, context.driver->collected());
    // And what an earlier pbench submit's driver stored with no collect since.
    run::merge_reports(report, run::take_driver_collected(context.sweep.directory));
    for (const auto& m : report.messages) std::cerr << "  " << m << "\n";
    std::cerr << "pbench: " << progress.line() << "; " << report.stored << " results stored";
    if (report.partial > 0) std::cerr << ", " << report.partial << " partial results (not valid)";
    if (report.deadline_partial > 0) {
      std::cerr << ", " << report.deadline_partial << " partial (stopped before a deadline)";
    }
    std::cerr << run::findings_text(report) << "\n";
    for (const auto& drift : run::environment_drift(context.store, context.sweep)) {
      std::cerr << "pbench: warning: " << drift << "\n";
    }
    print_worker_tables(context, spec, format);
    // A result that breaks the contract (4) says more than a point that did not finish (1).
    global.exit_code = exit_code_of(report) == 4 ? 4 : exit_code_of(context.driver->progress());
  });
}

}  // namespace pbench::cli
