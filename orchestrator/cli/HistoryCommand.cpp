#include <iostream>
#include <memory>
#include <optional>

#include "cli/CommandSummary.hpp"
#include "cli/Commands.hpp"
#include "cli/HeadlineSelection.hpp"
#include "plan/SweepCost.hpp"
#include "process/ProcessRunner.hpp"
#include "query/ClusterSweep.hpp"
#include "query/EnvSelection.hpp"
#include "query/HistoryQuery.hpp"
#include "query/QueryTable.hpp"
#include "query/WhereFilter.hpp"
#include "report/ChargedTable.hpp"
#include "store/Store.hpp"
#include "util/Error.hpp"

namespace pbench::cli {

namespace {
struct HistoryOptions {
  std::string sweep;
  std::string metric;
  HeadlineSelection selection;  ///< --where, --envs, as query system's
  std::string format = "table";
  bool stats = false;
  bool times = false;
  std::string by;  ///< --by cluster
};

/// Per run and point: the time planned when the run started against its actual run time.
query::QueryTable run_times(store::Store& store, const std::string& name) {
  const auto sweep = store.find_sweep(name);
  if (!sweep) throw UsageError("no sweep named '" + name + "' in the store");
  process::BoostProcessRunner runner;
  const auto describe = run::describe_worker_with(runner);
  query::QueryTable table;
  table.columns = {query::label_column("run"),
                   query::label_column("point"),
                   query::label_column("worker"),
                   query::label_column("partition", "procs"),
                   {"planned_time", "s", "planned", "s", 1, 3},
                   query::label_column("basis"),
                   {"actual_time", "s", "actual", "s", 1, 3},
                   {"ratio", "", "actual/planned", "", 1, 3}};
  const auto points = store.points(sweep->id);
  for (const auto& run : store.runs(sweep->id)) {
    const auto plan = run::plan_stored_sweep(store, *sweep, describe, run.started_at);
    for (std::size_t i = 0; i < points.size(); ++i) {
      const auto& planned = plan.points[i];
      query::Cell actual, ratio;
      if (const auto seconds = run::actual_seconds(store, points[i].id, run.run_no)) {
        actual = *seconds;
        ratio = *seconds / planned.seconds;
      }
      table.rows.push_back({std::int64_t{run.run_no}, points[i].key, points[i].worker,
                            planned.partition.text(), planned.seconds,
                            run::to_string(planned.basis), actual, ratio});
    }
  }
  table.notes.push_back("planned: as pbench planned each run when it started (pbench plan " + name +
                        " plans the next)");
  return table;
}

}  // namespace

void add_history_command(CLI::App& app, GlobalOptions& global) {
  auto* command = app.add_subcommand(
      "history", "A sweep's headline figures in each of its runs (pbench run NAME --again)");
  auto o = std::make_shared<HistoryOptions>();
  command->add_option("name", o->sweep, "Sweep name")->required();
  command->add_option("--metric", o->metric, "Only this figure (b_eff_io, b_eff, logp_g, ...)");
  o->selection.declare(*command, kSystemWhereHelp);
  command->add_option("--format", o->format, "table, csv, json or markdown")->capture_default_str();
  command->add_option("--by", o->by,
                      "cluster: the same sweep's history on every cluster of the store (the "
                      "sweeps 'pbench store merge' brought in), a column cluster, each run's "
                      "figure of every cluster together");
  command->add_flag("--stats", o->stats,
                    "Per figure over the runs: n, median, MAD, p5, p95, min, max (the spread a "
                    "reference --runs --tolerance auto takes)");
  command->add_flag("--times", o->times,
                    "Instead of figures: per run and point the time planned when the run "
                    "started against the actual run time, and per worker and partition the "
                    "node-hours planned against those charged (sacct where it answers, else "
                    "the jobs' own times, said per row)");
  command->callback([o, &global] {
    const auto format = query::parse_format(o->format);
    if (o->times) {
      if (o->stats || !o->metric.empty() || !o->selection.where.empty() ||
          !o->selection.envs.empty() || !o->by.empty()) {
        throw UsageError(
            "--times shows run times, not figures: without --stats, --metric, --where, --envs, "
            "--by");
      }
      auto store = store::Store::open(global.db, store::Store::Access::read_only);
      const auto times = run_times(store, o->sweep);
      process::BoostProcessRunner runner;
      const auto node_hours = report::charged_table(store, o->sweep, runner);
      if (format == query::Format::json) {
        print_summary_json(times, {{"node_hours", &node_hours}});
        return;
      }
      query::print(times, format);
      // CSV is one table of data: the points' times.
      if (format != query::Format::csv) {
        std::cout << "\n";
        query::print(node_hours, format);
      }
      return;
    }
    const auto where = o->selection.clauses();
    const auto envs = o->selection.env_names();
    auto store = store::Store::open(global.db, store::Store::Access::read_only);
    const auto metric = o->metric.empty() ? std::nullopt : std::optional<std::string>(o->metric);
    if (query::parse_by_cluster(o->by)) {
      // The same sweep on every cluster: each cluster's history (or its spread), one table.
      const auto sweeps = query::cluster_sweeps(store, o->sweep);
      std::vector<query::QueryTable> tables;
      for (const auto& s : sweeps) {
        auto history = query::history_table(store, s.sweep, metric, where);
        query::select_env_rows(history, s.sweep, envs);
        tables.push_back(o->stats ? query::history_stats(history) : std::move(history));
      }
      query::print(query::by_cluster(sweeps, std::move(tables), o->stats ? "" : "run", true),
                   format);
      return;
    }
    auto history = query::history_table(store, o->sweep, metric, where);
    query::select_env_rows(history, o->sweep, envs);
    query::print(o->stats ? query::history_stats(history) : std::move(history), format);
  });
}

}  // namespace pbench::cli
