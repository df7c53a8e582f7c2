#include <iostream>
#include <memory>

#include "cli/Commands.hpp"
#include "cli/SweepContext.hpp"
#include "cli/SweepOptions.hpp"
#include "run/SweepPlanner.hpp"
#include "store/Store.hpp"

namespace pbench::cli {

void add_sweep_command(CLI::App& app, GlobalOptions& global) {
  auto* command =
      app.add_subcommand("sweep", "Plan a sweep: expand the grid, store it, render job scripts");
  auto options = std::make_shared<SweepOptions>();
  auto dry_run = std::make_shared<bool>(false);
  options->declare(*command);
  command->add_flag("--dry-run", *dry_run, "Print the grid and the scripts; change nothing");
  command->callback([options, dry_run, &global] {
    const auto spec = options->spec();
    auto plan_options = options->plan_options(global.runs_dir);
    plan_options.history = stored_history(global.db, spec.scheduler);
    const auto plan = run::make_plan(spec, plan_options);
    for (const auto& w : plan.warnings) std::cerr << "pbench: warning: " << w << "\n";
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
    if (discarded > 0) {
      std::cout << "sweep " << plan.spec.name << ": discarded " << discarded << " stored results\n";
    }
    const char* verb = outcome == run::StoreOutcome::created    ? "planned"
                       : outcome == run::StoreOutcome::replaced ? "replaced"
                                                                : "unchanged";
    std::cout << "sweep " << plan.spec.name << " " << verb << ": " << plan.points.size()
              << " points, scripts in " << plan.directory << ", store " << global.db << "\n";
    std::cout << "sweep " << plan.spec.name << ": planned " << plan.cost.summary()
              << " (per point: pbench plan " << plan.spec.name << ")\n";
  });
}

}  // namespace pbench::cli
