#include <iostream>
#include <memory>

#include "cli/CommandSummary.hpp"
#include "cli/Commands.hpp"
#include "cli/SweepContext.hpp"
#include "cli/SweepOptions.hpp"
#include "plan/SweepBudget.hpp"
#include "plan/SweepCost.hpp"
#include "query/MachineCalibration.hpp"
#include "query/QueryTable.hpp"

namespace pbench::cli {

namespace {
struct PlanOptions {
  std::string name;
  std::string format = "table";
  std::string budget;
  std::string wall;
  std::string calibrate;
};

}  // namespace

void add_plan_command(CLI::App& app, GlobalOptions& global) {
  auto* command = app.add_subcommand(
      "plan",
      "What a stored sweep costs before (or after) it runs: per point its planned time, the "
      "basis (method rule, scaled by this machine's run of the worker, history of the point, "
      "retry after a time-out) and its batch time limit; per partition and for the sweep the "
      "wall time and node-hours");
  auto o = std::make_shared<PlanOptions>();
  command->add_option("name", o->name, "Sweep name")->required();
  command->add_option("--format", o->format, "table, csv, json or markdown")->capture_default_str();
  declare_budget(*command, o->budget, o->wall);
  command->add_option(
      "--calibrate", o->calibrate,
      "Plan with the machine's figures as the latest run of this stored sweep measured them (a "
      "small calibration sweep: logp on 2 nodes, comm, io on one node): EEL, 1/G, b_eff per "
      "node, b_eff_io and the small files' rate, from its valid results, over the site "
      "profile's [machine] and the stated defaults; prints them as a [machine] table to keep");
  command->callback([o, &global] {
    const auto format = query::parse_format(o->format);
    const auto budget = run::parse_budget(o->budget, o->wall);
    SweepContext context(global.db, o->name, store::Store::Access::read_only);
    const auto spec = sweep::SweepSpec::from_json(nlohmann::json::parse(context.sweep.spec_json));
    run::PlanOptions told;
    tell_max_time(told, spec);
    std::vector<std::pair<site::MachineFigures, std::string>> overlay;
    std::vector<std::string> calibration_notes;
    if (!o->calibrate.empty()) {
      const auto calibration = query::calibrate_machine(context.store, o->calibrate);
      for (const auto& f : calibration.figures) {
        overlay.emplace_back(calibration.figures_of(f), f.source);
      }
      for (const auto& m : calibration.missing) calibration_notes.push_back("not calibrated: " + m);
      calibration_notes.push_back("to keep the calibration, state it in the site profile: " +
                                  calibration.toml());
    }
    const auto plan = run::plan_stored_sweep(context.store, context.sweep,
                                             run::describe_worker_with(context.runner), "",
                                             told.told_max_time, told.told_max_source, overlay);
    for (const auto& w : plan.warnings) std::cerr << "pbench: warning: " << w << "\n";
    const auto over = run::over_budget(o->name, plan, budget);
    auto tables = plan_tables(plan);
    if (format == query::Format::json) {
      tables[0].notes.push_back("sweep " + o->name + ": planned " + plan.summary());
      for (const auto& n : calibration_notes) tables[0].notes.push_back(n);
      if (over) tables[0].notes.push_back("over budget: " + *over);
      print_summary_json(tables[0], {{"partitions", &tables[1]}});
      if (over) global.exit_code = 2;
      return;
    }
    query::print(tables[0], format);
    // CSV is one table of data: the points (the partitions' sums follow from them).
    if (format != query::Format::csv) {
      std::cout << "\n";
      query::print(tables[1], format);
    }
    std::cerr << "pbench: sweep " << o->name << ": " << plan.summary() << "\n";
    for (const auto& n : calibration_notes) std::cerr << "pbench: " << n << "\n";
    // Over budget: the plan is shown, and said to be over (exit 2, as a refused sweep).
    if (over) {
      std::cerr << "pbench: error: " << *over << "\n";
      global.exit_code = 2;
    }
  });
}

}  // namespace pbench::cli
