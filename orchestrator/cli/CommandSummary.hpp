#pragma once
// The summaries of the commands that print a line rather than a table (sweep, wait, collect) as
// tables of one row, so that their `--format json` has the one schema of every command's JSON
// (query::table_json: columns, rows, notes).
#include <CLI/CLI.hpp>

#include <string>
#include <utility>
#include <vector>

#include "collect/Collector.hpp"
#include "drive/SweepDriver.hpp"
#include "plan/SweepCost.hpp"
#include "query/QueryTable.hpp"

namespace pbench::cli {

/// `--format table|json` on a command that prints a summary: "table" (the default) its lines,
/// "json" its summary table; anything else is refused by CLI11 (exit 2).
void add_summary_format_option(CLI::App& command, std::string& format);

/// A plan's tables (plan, and sweep's JSON): the points (point, worker, partition as given and
/// its processes, nodes, planned time, time limit and where it comes from, basis, why) and the
/// partitions with the sweep's row (points, nodes, wall time, node-hours; the plan's notes).
std::vector<query::QueryTable> plan_tables(const run::CostPlan& plan);

/// wait: the sweep, its points by state and the exit status wait gives.
query::QueryTable progress_table(const std::string& sweep, const run::Progress& progress,
                                 int exit_status);
/// collect: the sweep, what it stored, refused and found, and its exit status; the notes are
/// its messages (a failed point's line with the worker's own error).
query::QueryTable collect_table(const std::string& sweep, const run::CollectReport& report,
                                int exit_status);

/// `table` and the command's further tables as JSON on stdout (query::print_json).
void print_summary_json(const query::QueryTable& table,
                        const std::vector<std::pair<std::string, const query::QueryTable*>>& more);

}  // namespace pbench::cli
