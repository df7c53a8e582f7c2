#include <iostream>
#include <memory>

#include "cli/Commands.hpp"
#include "cli/SweepContext.hpp"
#include "query/QueryTable.hpp"
#include "run/SweepCost.hpp"

namespace pbench::cli {

namespace {
struct PlanOptions {
  std::string name;
  std::string format = "table";
};

nlohmann::json plan_json(const std::string& name, const run::CostPlan& plan) {
  nlohmann::json points = nlohmann::json::array();
  for (const auto& p : plan.points) {
    nlohmann::json j = {{"point", p.key},
                        {"worker", p.worker},
                        {"partition", p.partition.to_json()},
                        {"processes", p.partition.processes},
                        {"nodes", p.nodes},
                        {"planned_seconds", p.seconds},
                        {"basis", run::to_string(p.basis)},
                        {"why", p.why}};
    if (p.time_limit > 0) {
      j["time_limit_seconds"] = p.time_limit;
      j["time_limit_given"] = p.limit_given;
    } else {
      j["time_limit_seconds"] = nullptr;
    }
    points.push_back(std::move(j));
  }
  nlohmann::json partitions = nlohmann::json::array();
  for (const auto& p : plan.partitions) {
    partitions.push_back({{"partition", p.partition},
                          {"points", p.points},
                          {"nodes", p.nodes},
                          {"wall_seconds", p.seconds},
                          {"node_hours", p.node_hours}});
  }
  return {{"sweep", name},
          {"points", points},
          {"partitions", partitions},
          {"wall_seconds", plan.seconds},
          {"node_hours", plan.node_hours},
          {"summary", plan.summary()},
          {"notes", plan.notes}};
}

/// The points' table and the partitions' table (with the sweep's row) of a plan.
std::vector<query::QueryTable> plan_tables(const run::CostPlan& plan) {
  query::QueryTable points;
  points.columns = {{"point", "", "point", "", 1, 0},       {"worker", "", "worker", "", 1, 0},
                    {"partition", "", "procs", "", 1, 0},   {"nodes", "", "nodes", "", 1, 0},
                    {"planned", "s", "planned", "s", 1, 3}, {"time_limit", "s", "limit", "s", 1, 0},
                    {"basis", "", "basis", "", 1, 0},       {"why", "", "why", "", 1, 0, "", true}};
  for (const auto& p : plan.points) {
    query::Cell limit;
    if (p.time_limit > 0) limit = std::int64_t{p.time_limit};
    points.rows.push_back({p.key, p.worker, p.partition.text(), std::int64_t{p.nodes}, p.seconds,
                           limit, run::to_string(p.basis) + (p.limit_given ? ", limit given" : ""),
                           p.why});
  }
  query::QueryTable partitions;
  partitions.columns = {{"partition", "", "partition", "", 1, 0},
                        {"points", "", "points", "", 1, 0},
                        {"nodes", "", "nodes", "", 1, 0},
                        {"wall", "s", "wall time", "s", 1, 4},
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
  command->callback([o, &global] {
    const auto format = query::parse_format(o->format);
    SweepContext context(global.db, o->name, store::Store::Access::read_only);
    const auto plan = run::plan_stored_sweep(context.store, context.sweep,
                                             run::describe_worker_with(context.runner));
    if (format == query::Format::json) {
      std::cout << plan_json(o->name, plan).dump(2) << "\n";
      return;
    }
    const auto tables = plan_tables(plan);
    query::print(tables[0], format);
    // CSV is one table of data: the points (the partitions' sums follow from them).
    if (format != query::Format::csv) {
      std::cout << "\n";
      query::print(tables[1], format);
    }
    std::cerr << "pbench: sweep " << o->name << ": " << plan.summary() << "\n";
  });
}

}  // namespace pbench::cli
