#include <iostream>
#include <memory>
#include <optional>

#include "cli/Commands.hpp"
#include "cli/HeadlineSelection.hpp"
#include "query/ClusterSweep.hpp"
#include "query/CompareQuery.hpp"
#include "query/EnvSelection.hpp"
#include "query/ModelQuery.hpp"
#include "query/PointsQuery.hpp"
#include "query/RowGrouping.hpp"
#include "query/RunSelection.hpp"
#include "query/SqlQuery.hpp"
#include "query/SystemQuery.hpp"
#include "query/WhereFilter.hpp"
#include "query/WorkerQueries.hpp"
#include "store/Store.hpp"
#include "util/Error.hpp"

namespace pbench::cli {

namespace {
struct QueryOptions {
  std::string sweep;
  std::string format = "table";
  std::vector<std::string> where;
  std::string by;
  bool missing = false;
  std::string sql;
  std::string sweep_a, sweep_b;
  std::string envs;   ///< compare: "A,B", two environments
  std::string suite;  ///< a worker's suite (io: b_eff_io or consortium)
  std::string run = "latest";
  HeadlineSelection selection;  ///< system: --where, --envs (history's too)

  std::optional<std::string> chosen_sweep() const {
    return sweep.empty() ? std::nullopt : std::optional<std::string>(sweep);
  }
};

void add_run(CLI::App* sub, QueryOptions& o) {
  sub->add_option("--run", o.run,
                  "Which run of the sweep: a number, latest or all (a column 'run' per row)")
      ->capture_default_str();
}

void add_common(CLI::App* sub, QueryOptions& o, bool with_where) {
  sub->add_option("--sweep", o.sweep, "Only this sweep");
  sub->add_option("--format", o.format, "table, csv, json or markdown")->capture_default_str();
  if (with_where) {
    sub->add_option("--where", o.where,
                    "key=value (repeatable): only rows whose parameter, hint or label matches");
    add_run(sub, o);
  }
}

/// `pbench query system`: the headline figures, by cluster with --by cluster.
void add_system(CLI::App& command, const std::shared_ptr<QueryOptions>& o, GlobalOptions& global) {
  auto* system = command.add_subcommand(
      "system", "Headline figures (b_eff_io, b_eff, LogP, bcast OL) with the cell that wins each");
  add_common(system, *o, false);
  o->selection.declare(*system, kSystemWhereHelp);
  add_run(system, *o);
  system->add_option("--by", o->by,
                     "cluster: the same sweep on every cluster of the store (the sweeps "
                     "'pbench store merge' brought in), a column cluster, each figure's rows of "
                     "every cluster together");
  system->callback([o, &global] {
    const auto format = query::parse_format(o->format);
    const auto where = o->selection.clauses();
    const auto envs = o->selection.env_names();
    const auto run = query::parse_run_selection(o->run);
    const bool by_cluster = query::parse_by_cluster(o->by);
    auto store = store::Store::open(global.db, store::Store::Access::read_only);
    const auto table_of = [&](const std::optional<std::string>& sweep) {
      return query::table_for_runs(store, sweep, run,
                                   [&] { return query::system_table(store, sweep, where); });
    };
    query::QueryTable answer;
    if (by_cluster) {
      const auto sweeps = query::cluster_sweeps(store, o->chosen_sweep());
      std::vector<query::QueryTable> tables;
      for (const auto& s : sweeps) tables.push_back(table_of(s.sweep));
      answer = query::by_cluster(sweeps, std::move(tables), "sweep", !o->sweep.empty());
    } else {
      answer = table_of(o->chosen_sweep());
    }
    query::select_env_rows(answer, o->sweep, envs);
    query::print(answer, format);
  });
}

}  // namespace

void add_query_command(CLI::App& app, GlobalOptions& global) {
  auto* command = app.add_subcommand("query", "Answer questions from the store");
  command->require_subcommand(1);
  auto o = std::make_shared<QueryOptions>();
  // One subcommand per worker, from the table of worker queries.
  for (const auto& q : query::worker_queries()) {
    auto* sub = command->add_subcommand(q.worker, q.description);
    add_common(sub, *o, true);
    sub->add_option("SWEEP", o->sweep, "Only this sweep (as --sweep)");
    sub->add_option("--by", o->by,
                    std::string("Group the rows by one key: ") + query::grouping_keys() +
                        " (the worker's columns; T is the io scheduled time)");
    if (!q.suites.empty()) {
      std::string names;
      for (const auto& s : q.suites) names += (names.empty() ? "" : ", ") + std::string(s.name);
      sub->add_option("--suite", o->suite, "Which suite's table: " + names);
    }
    sub->callback([o, &global, &q] {
      const auto format = query::parse_format(o->format);
      const auto where = query::parse_where(o->where);
      const auto table = query::suite_table(q, o->suite);
      const auto run = query::parse_run_selection(o->run);
      auto store = store::Store::open(global.db, store::Store::Access::read_only);
      auto answer = query::table_for_runs(store, o->chosen_sweep(), run,
                                          [&] { return table(store, o->chosen_sweep()); });
      query::filter_rows(answer, where);
      if (!o->by.empty()) query::group_rows(answer, o->by);
      query::print(answer, format);
    });
  }
  auto* points = command->add_subcommand(
      "points", "The sweep's grid with each cell's state, attempts and last exit status");
  add_common(points, *o, false);
  points->add_flag("--missing", o->missing, "Only the cells without a stored result");
  points->callback([o, &global] {
    const auto format = query::parse_format(o->format);
    auto store = store::Store::open(global.db, store::Store::Access::read_only);
    query::print(query::points_table(store, o->chosen_sweep(), o->missing), format);
  });
  add_system(*command, o, global);
  auto* compare = command->add_subcommand(
      "compare", "The headline figures of two sweeps side by side with the ratio B/A");
  compare->add_option("SWEEP_A", o->sweep_a, "The sweep before")->required();
  compare->add_option("SWEEP_B", o->sweep_b, "The sweep after (with --envs: SWEEP_A if not given)");
  compare->add_option("--envs", o->envs,
                      "A,B: environment A of SWEEP_A against environment B of SWEEP_B (sweeps "
                      "made with --envs)");
  compare->add_option("--where", o->where, "key=value (repeatable), as for system");
  compare->add_option("--format", o->format, "table, csv, json or markdown")->capture_default_str();
  compare->callback([o, &global] {
    const auto format = query::parse_format(o->format);
    const auto where = query::parse_where(o->where);
    query::CompareSide a{o->sweep_a, std::nullopt}, b{o->sweep_b, std::nullopt};
    if (!o->envs.empty()) {
      const auto comma = o->envs.find(',');
      if (comma == std::string::npos || comma == 0 || comma + 1 == o->envs.size() ||
          o->envs.find(',', comma + 1) != std::string::npos) {
        throw UsageError("--envs takes two environments, A,B; got '" + o->envs + "'");
      }
      a.env = o->envs.substr(0, comma);
      b.env = o->envs.substr(comma + 1);
      if (b.sweep.empty()) b.sweep = a.sweep;
    } else if (b.sweep.empty()) {
      throw UsageError(
          "query compare needs SWEEP_B (or --envs A,B to compare two environments "
          "of SWEEP_A)");
    }
    auto store = store::Store::open(global.db, store::Store::Access::read_only);
    query::print(query::compare_table(store, a, b, where), format);
  });
  auto* model = command->add_subcommand(
      "model",
      "What the sweep's LogGP parameters predict beside what was measured (comm ping-pong and "
      "rings, bcast OL, links), the ratio and a named reading where they differ");
  model->add_option("SWEEP", o->sweep, "The sweep")->required();
  model->add_option("--where", o->where,
                    "key=value (repeatable): only rows whose column matches (figure=bcast_ol)");
  model->add_option("--format", o->format, "table, csv, json or markdown")->capture_default_str();
  model->callback([o, &global] {
    const auto format = query::parse_format(o->format);
    const auto where = query::parse_where(o->where);
    auto store = store::Store::open(global.db, store::Store::Access::read_only);
    auto answer = query::model_table(store, o->sweep);
    query::filter_rows(answer, where);
    query::print(answer, format);
  });
  auto* sql = command->add_subcommand("sql", "One read-only SQL statement on the store");
  sql->add_option("statement", o->sql, "The SELECT to run")->required();
  sql->add_option("--format", o->format, "table, csv, json or markdown")->capture_default_str();
  sql->callback([o, &global] {
    const auto format = query::parse_format(o->format);
    query::print(query::sql_table(global.db, o->sql), format);
  });
}

}  // namespace pbench::cli
