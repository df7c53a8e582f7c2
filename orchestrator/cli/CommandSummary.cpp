#include "cli/CommandSummary.hpp"

#include <iostream>

#include "store/Store.hpp"

namespace pbench::cli {

void add_summary_format_option(CLI::App& command, std::string& format) {
  command.add_option("--format", format, "table or json")
      ->check(CLI::IsMember({"table", "json"}))
      ->capture_default_str();
}

std::vector<query::QueryTable> plan_tables(const run::CostPlan& plan) {
  query::QueryTable points;
  points.columns = {query::label_column("point"),
                    query::label_column("worker"),
                    query::label_column("partition"),
                    query::label_column("processes", "procs"),
                    query::label_column("nodes"),
                    {"planned_time", "s", "planned", "s", 1, 3},
                    {"time_limit", "s", "limit", "s", 1, 0},
                    query::label_column("limit_from", "limit from"),
                    query::label_column("basis"),
                    {"why", "", "why", "", 1, 0, "", true}};
  for (const auto& p : plan.points) {
    query::Cell limit, from;
    if (p.time_limit > 0) {
      limit = std::int64_t{p.time_limit};
      from = p.limit_from;
    }
    points.rows.push_back({p.key, p.worker, p.partition.text(), std::int64_t{p.partition.processes},
                           std::int64_t{p.nodes}, p.seconds, limit, from, run::to_string(p.basis),
                           p.why});
  }
  query::QueryTable partitions;
  partitions.columns = {query::label_column("partition"),
                        query::label_column("points"),
                        query::label_column("nodes"),
                        {"wall_time", "s", "wall time", "s", 1, 4},
                        {"node_hours", "", "node-hours", "", 1, 4}};
  for (const auto& p : plan.partitions) {
    partitions.rows.push_back(
        {p.partition, std::int64_t{p.points}, std::int64_t{p.nodes}, p.seconds, p.node_hours});
  }
  partitions.rows.push_back({std::string("sweep"), static_cast<std::int64_t>(plan.points.size()),
                             query::Cell{}, plan.seconds, plan.node_hours});
  partitions.notes = plan.notes;
  return {points, partitions};
}

query::QueryTable progress_table(const std::string& sweep, const run::Progress& progress,
                                 int exit_status) {
  using store::PointState;
  query::QueryTable table;
  table.columns = {query::label_column("sweep"), query::label_column("points")};
  std::vector<query::Cell> row = {sweep, std::int64_t{progress.total}};
  for (const auto state :
       {PointState::planned, PointState::queued, PointState::running, PointState::done,
        PointState::failed, PointState::cancelled, PointState::timeout}) {
    const auto name = store::to_string(state);
    table.columns.push_back({name, "", name, "", 1, 0});
    row.emplace_back(std::int64_t{progress.count(state)});
  }
  table.columns.push_back(query::label_column("exit_status", "exit"));
  row.emplace_back(std::int64_t{exit_status});
  table.rows.push_back(std::move(row));
  table.notes.push_back("sweep " + sweep + ": " + progress.line());
  if (!progress.note.empty()) table.notes.push_back(progress.note);
  return table;
}

query::QueryTable collect_table(const std::string& sweep, const run::CollectReport& report,
                                int exit_status) {
  query::QueryTable table;
  const std::vector<std::pair<const char*, int>> counts = {
      {"stored", report.stored},
      {"already_stored", report.duplicates},
      {"rejected", report.rejected},
      {"failed", report.failed},
      {"partial", report.partial},
      {"deadline_partial", report.deadline_partial},
      {"mislaunched", report.mislaunched},
      {"impossible", report.impossible},
      {"not_its_point", report.not_its_point},
      {"breaks_rules", report.breaks_rules},
      {"rejected_earlier", report.rejected_earlier},
      {"not_finished", report.pending}};
  table.columns = {query::label_column("sweep")};
  std::vector<query::Cell> row = {sweep};
  for (const auto& [key, count] : counts) {
    table.columns.push_back({key, "", key, "", 1, 0});
    row.emplace_back(std::int64_t{count});
  }
  table.columns.push_back(query::label_column("exit_status", "exit"));
  row.emplace_back(std::int64_t{exit_status});
  table.rows.push_back(std::move(row));
  table.notes = report.messages;
  return table;
}

void print_summary_json(const query::QueryTable& table,
                        const std::vector<std::pair<std::string, const query::QueryTable*>>& more) {
  query::print_json(table, more, std::cout);
}

}  // namespace pbench::cli
