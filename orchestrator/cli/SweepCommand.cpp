#include <iostream>
#include <memory>

#include "cli/CommandSummary.hpp"
#include "cli/Commands.hpp"
#include "cli/SweepContext.hpp"
#include "cli/SweepOptions.hpp"
#include "plan/SweepBudget.hpp"
#include "plan/SweepPlanner.hpp"
#include "store/Store.hpp"
#include "util/Error.hpp"

namespace pbench::cli {
namespace {

/// The summary of `pbench sweep` as one row (its --format json): what it did (planned, replaced,
/// unchanged or a dry run), the points, where the scripts and the store are, the results it
/// discarded, and the plan's time and node-hours; its lines and warnings as notes.
query::QueryTable sweep_table(const run::Plan& plan, const std::string& outcome,
                              const std::string& store, std::size_t discarded) {
  query::QueryTable table;
  table.columns = {query::label_column("sweep"),
                   query::label_column("outcome"),
                   query::label_column("points"),
                   query::label_column("directory"),
                   query::label_column("store"),
                   query::label_column("discarded_results", "discarded"),
                   {"planned_time", "s", "planned", "s", 1, 4},
                   {"node_hours", "", "node-hours", "", 1, 4}};
  table.rows.push_back({plan.spec.name, outcome, static_cast<std::int64_t>(plan.points.size()),
                        plan.directory, store.empty() ? query::Cell{} : query::Cell{store},
                        static_cast<std::int64_t>(discarded), plan.cost.seconds,
                        plan.cost.node_hours});
  for (const auto& w : plan.warnings) table.notes.push_back("warning: " + w);
  table.notes.push_back("sweep " + plan.spec.name + ": planned " + plan.cost.summary());
  return table;
}

}  // namespace

void add_sweep_command(CLI::App& app, GlobalOptions& global) {
  auto* command =
      app.add_subcommand("sweep", "Plan a sweep: expand the grid, store it, render job scripts");
  auto options = std::make_shared<SweepOptions>();
  auto dry_run = std::make_shared<bool>(false);
  options->declare(*command);
  command->add_flag("--dry-run", *dry_run, "Print the grid and the scripts; change nothing");
  auto format = std::make_shared<std::string>("table");
  add_summary_format_option(*command, *format);
  auto budget = std::make_shared<std::pair<std::string, std::string>>();
  declare_budget(*command, budget->first, budget->second);
  command->callback([options, dry_run, format, budget, &global] {
    const auto limits = run::parse_budget(budget->first, budget->second);
    const auto spec = options->spec();
    auto plan_options = options->plan_options(global.runs_dir);
    plan_options.history = stored_history(global.db, spec.scheduler);
    tell_max_time(plan_options, spec);
    const auto plan = run::make_plan(spec, plan_options);
    // Over budget: refused before a script is written or the store opened.
    if (const auto over = run::over_budget(spec.name, plan.cost, limits)) throw UsageError(*over);
    const bool json = *format == "json";
    // The summary and the points as `pbench plan` gives them, the scripts in the directory.
    const auto print_json = [&](const std::string& outcome, const std::string& store,
                                std::size_t discarded) {
      const auto points = plan_tables(plan.cost)[0];
      print_summary_json(sweep_table(plan, outcome, store, discarded), {{"points", &points}});
    };
    if (!json) {
      for (const auto& w : plan.warnings) std::cerr << "pbench: warning: " << w << "\n";
    }
    if (*dry_run && json) {
      print_json("dry run", "", 0);
      return;
    }
    if (*dry_run) {
      std::cout << "sweep " << plan.spec.name << ": " << plan.points.size() << " points in "
                << plan.directory << " (dry run: nothing stored); planned " << plan.cost.summary()
                << "\n";
      for (const auto& p : plan.points) {
        std::cout << "\n# point " << p.point.key << " " << p.point.params.dump() << "\n# "
                  << p.script_path << "\n"
                  << p.script;
      }
      return;
    }
    auto store = store::Store::open(global.db, store::Store::Access::create);
    const auto existing = store.find_sweep(plan.spec.name);
    const auto discarded = existing && options->force && options->discard_results &&
                                   existing->spec_json != plan.spec.to_json().dump()
                               ? store.result_count(existing->id)
                               : 0;
    const auto outcome = run::store_plan(store, plan, options->force, options->discard_results);
    if (discarded > 0 && !json) {
      std::cout << "sweep " << plan.spec.name << ": discarded " << discarded << " stored results\n";
    }
    const char* verb = outcome == run::StoreOutcome::created    ? "planned"
                       : outcome == run::StoreOutcome::replaced ? "replaced"
                                                                : "unchanged";
    if (json) {
      print_json(verb, global.db, static_cast<std::size_t>(discarded));
      return;
    }
    std::cout << "sweep " << plan.spec.name << " " << verb << ": " << plan.points.size()
              << " points, scripts in " << plan.directory << ", store " << global.db << "\n";
    std::cout << "sweep " << plan.spec.name << ": planned " << plan.cost.summary()
              << " (per point: pbench plan " << plan.spec.name << ")\n";
  });
}

}  // namespace pbench::cli
