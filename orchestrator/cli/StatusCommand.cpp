#include <iostream>
#include <memory>

#include "cli/Commands.hpp"
#include "cli/SweepContext.hpp"
#include "query/QueryTable.hpp"
#include "run/Collector.hpp"

namespace pbench::cli {

namespace {
struct StatusOptions {
  std::string name;
  std::string format = "table";
  double timeout = 0;
  int max_parallel = 1;
};
}  // namespace

void add_status_command(CLI::App& app, GlobalOptions& global) {
  auto* command = app.add_subcommand("status", "Show a sweep's points by state");
  auto o = std::make_shared<StatusOptions>();
  command->add_option("name", o->name, "Sweep name")->required();
  command->add_option("--format", o->format, "table, csv or json")->capture_default_str();
  command->callback([o, &global] {
    SweepContext context(global.db, o->name, store::Store::Access::read_only);
    query::QueryTable table;
    table.columns = {{"point", "", "point", "", 1, 0},     {"worker", "", "worker", "", 1, 0},
                     {"partition", "", "procs", "", 1, 0}, {"params", "", "parameters", "", 1, 0},
                     {"state", "", "state", "", 1, 0},     {"attempts", "", "attempts", "", 1, 0},
                     {"job_id", "", "job", "", 1, 0},      {"exit_status", "", "exit", "", 1, 0}};
    for (const auto& point : context.store.points(context.sweep.id)) {
      const auto attempts = context.store.attempts(point.id);
      query::Cell job, exit;
      if (!attempts.empty()) {
        if (attempts.back().job_id) job = *attempts.back().job_id;
        if (attempts.back().exit_status) exit = *attempts.back().exit_status;
      }
      table.rows.push_back({point.key, point.worker, std::int64_t{point.partition},
                            point.params_json, store::to_string(point.state),
                            static_cast<std::int64_t>(attempts.size()), job, exit});
    }
    table.notes.push_back("sweep " + o->name + ": " + context.driver->progress().line());
    std::cout << query::render(table, query::parse_format(o->format));
  });
}

void add_wait_command(CLI::App& app, GlobalOptions& global) {
  auto* command = app.add_subcommand(
      "wait", "Wait until a sweep's points have ended (driving it if no other process does)");
  auto o = std::make_shared<StatusOptions>();
  command->add_option("name", o->name, "Sweep name")->required();
  command->add_option("--timeout", o->timeout, "Give up after this many seconds (0: never)")
      ->check(CLI::NonNegativeNumber);
  command->add_option("--max-parallel", o->max_parallel, "Points running at once when driving")
      ->check(CLI::PositiveNumber);
  command->callback([o, &global] {
    SweepContext context(global.db, o->name);
    const auto p = follow_sweep(context, o->max_parallel, o->timeout);
    std::cout << "sweep " << o->name << ": " << p.line() << "\n";
    global.exit_code = exit_code_of(p);
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
  command->callback([o, &global] {
    SweepContext context(global.db, o->name);
    const auto report = run::collect(context.store, context.sweep);
    for (const auto& m : report.messages) std::cerr << "  " << m << "\n";
    std::cout << "sweep " << o->name << ": " << report.stored << " results stored, "
              << report.duplicates << " already stored, " << report.rejected << " rejected, "
              << report.failed << " points failed, " << report.pending << " not finished\n";
    if (report.rejected > 0) global.exit_code = 4;
  });
}

}  // namespace pbench::cli
