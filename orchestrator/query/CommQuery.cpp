#include "query/CommQuery.hpp"
#include "query/EnvColumn.hpp"
#include "query/Layout.hpp"
#include "query/MissingCells.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <vector>

#include "query/ResultValidity.hpp"
#include "sweep/Partition.hpp"
#include "sweep/WorkerCatalog.hpp"
#include "util/Error.hpp"

namespace pbench::query {
namespace {

// The summary metrics of a comm result that make up a row, in column order.
const std::vector<std::string> kFigures = {"b_eff",
                                           "b_eff_per_process",
                                           "l_max",
                                           "pingpong_bandwidth",
                                           "b_eff_at_lmax",
                                           "b_eff_per_process_at_lmax",
                                           "ring_per_process_at_lmax",
                                           "latency_rings_random",
                                           "latency_rings",
                                           "latency_pingpong"};

struct Run {
  std::string sweep;
  std::int64_t partition = 0;
  std::int64_t nodes = 0;  // where the ranks ran (0: unknown)
  std::int64_t ppn = 0;
  std::string asked;  // the shape the point asked for ("" for a plain partition)
  std::string point_key;
  std::int64_t result_id = 0;
  std::optional<std::string> job_id;
  bool valid = false;
  std::vector<std::string> reasons;      // the worker's, when not valid
  std::map<std::string, double> values;  // metric name -> value (absent: null or missing)
};

std::vector<Cell> cells_of(const Run& run, const std::string& kind) {
  std::vector<Cell> row{run.sweep, kind, run.partition, count_cell(run.nodes), count_cell(run.ppn)};
  for (const auto& name : kFigures) {
    const auto it = run.values.find(name);
    row.push_back(it == run.values.end() ? Cell{} : Cell{it->second});
  }
  row.push_back(std::string(run.valid ? "yes" : "no"));
  Cell reason;
  if (!run.valid && !run.reasons.empty()) reason = run.reasons.front();
  row.push_back(reason);
  return row;
}

std::string megabytes(double bytes_per_second) {
  char text[64];
  std::snprintf(text, sizeof(text), "%.5g MB/s", bytes_per_second * 1e-6);
  return text;
}

// The "max" row of one sweep's runs and its note; nothing when no run has a b_eff.
void add_maximum(QueryTable& table, const std::vector<const Run*>& runs,
                 std::vector<std::int64_t>& row_results) {
  const Run* best = nullptr;
  bool among_valid = false;
  for (const bool want_valid : {true, false}) {
    for (const Run* run : runs) {
      const auto it = run->values.find("b_eff");
      if (it == run->values.end() || run->valid != want_valid) continue;
      if (best == nullptr || it->second > best->values.at("b_eff")) best = run;
    }
    if (best != nullptr) {
      among_valid = want_valid;
      break;
    }
  }
  if (best == nullptr) return;
  table.rows.push_back(cells_of(*best, "max"));
  row_results.push_back(best->result_id);
  table.notes.push_back("sweep " + best->sweep + ": the largest b_eff" +
                        (among_valid ? "" : " (no result is valid; among the not valid ones)") +
                        ", " + megabytes(best->values.at("b_eff")) + ", is on " +
                        partition_text(best->partition, best->asked) + " processes (point " +
                        best->point_key +
                        (best->job_id ? ", job " + *best->job_id : std::string()) + ")" +
                        (among_valid ? "" : " " + not_valid_mark(best->reasons)));
}

}  // namespace

QueryTable comm_table(store::Store& store, const std::optional<std::string>& sweep) {
  if (sweep && !store.find_sweep(*sweep)) throw UsageError("no sweep named '" + *sweep + "'");
  QueryTable table;
  table.columns = {
      {"sweep", "", "sweep", "", 1, 0},
      {"row", "", "row", "", 1, 0},
      {"partition", "", "procs", "", 1, 0},
      nodes_column(),
      ppn_column(),
      {"b_eff", "B/s", "b_eff", "MB/s", 1e-6, 5},
      {"b_eff_per_process", "B/s", "b_eff/proc", "MB/s", 1e-6, 5},
      {"l_max", "B", "L_max", "MiB", 1.0 / (1024 * 1024), 4},
      {"pingpong_bandwidth", "B/s", "ping-pong", "MB/s", 1e-6, 5},
      {"b_eff_at_lmax", "B/s", "b_eff@L_max", "MB/s", 1e-6, 5},
      {"b_eff_per_process_at_lmax", "B/s", "b_eff/proc@L_max", "MB/s", 1e-6, 5},
      {"ring_per_process_at_lmax", "B/s", "ring/proc@L_max", "MB/s", 1e-6, 5},
      {"latency_rings_random", "s", "lat", "us", 1e6, 3},
      {"latency_rings", "s", "lat rings", "us", 1e6, 3},
      {"latency_pingpong", "s", "lat ping-pong", "us", 1e6, 3},
      {"valid", "", "valid", "", 1, 0},
      {"reason", "", "first reason", "", 1, 0},
  };

  // The newest result of each comm point of the chosen sweep(s), with its run-wide metrics.
  auto s = store.db().prepare(
      "SELECT sw.name, p.partition, p.point_key, r.id, r.valid, a.job_id, m.name, m.value, "
      "m.labels, " +
      std::string(kLayoutSql) +
      " FROM points p JOIN sweeps sw ON sw.id = p.sweep_id "
      "JOIN results r ON r.id = " +
      std::string(store::kChosenResult) +
      " "
      "LEFT JOIN attempts a ON a.id = r.attempt_id "
      "LEFT JOIN metrics m ON m.result_id = r.id "
      "WHERE p.worker = 'comm' AND (?1 IS NULL OR sw.name = ?1) "
      "ORDER BY sw.id, p.partition, p.id");
  s.bind(1, sweep);
  std::vector<Run> runs;
  std::map<std::int64_t, std::size_t> by_result;  // result id -> index in runs
  while (s.step()) {
    const std::int64_t result_id = s.int64(3);
    auto [it, added] = by_result.emplace(result_id, runs.size());
    if (added) {
      Run run;
      run.sweep = s.text(0);
      run.partition = s.int64(1);
      run.nodes = s.optional_int64(9).value_or(0);
      run.ppn = s.optional_int64(10).value_or(0);
      run.asked = s.optional_text(11).value_or("");
      run.point_key = s.text(2);
      run.result_id = result_id;
      run.valid = s.int64(4) != 0;
      run.job_id = s.optional_text(5);
      if (!run.valid) run.reasons = validity_reasons(store, result_id);
      runs.push_back(std::move(run));
    }
    if (s.is_null(6) || s.is_null(7)) continue;
    const auto labels = nlohmann::json::parse(s.text(8), nullptr, false);
    if (labels.is_discarded() || !labels.empty()) continue;  // per-pattern metrics
    runs[it->second].values[s.text(6)] = s.real(7);
  }

  std::string current;
  std::vector<const Run*> of_sweep;
  std::vector<std::int64_t> row_results;  // of each row, for the column env
  for (const Run& run : runs) {
    if (run.sweep != current && !of_sweep.empty()) {
      add_maximum(table, of_sweep, row_results);
      of_sweep.clear();
    }
    current = run.sweep;
    table.rows.push_back(cells_of(run, "partition"));
    row_results.push_back(run.result_id);
    of_sweep.push_back(&run);
  }
  if (!of_sweep.empty()) add_maximum(table, of_sweep, row_results);
  add_env_column(store, table, row_results);
  // Why each result that is not valid is not, all its worker's reasons (like query bcast).
  for (const Run& run : runs) {
    for (const auto& reason : run.reasons) {
      table.notes.push_back("sweep " + run.sweep + ", partition " +
                            partition_text(run.partition, run.asked) + ": not valid: " + reason);
    }
  }

  // Partitions the sweep asks for but comm does not run (fewer processes than b_eff needs).
  const int least = sweep::find_worker("comm").min_procs;
  auto specs = store.db().prepare(
      "SELECT name, spec_json FROM sweeps WHERE (?1 IS NULL OR name = ?1) ORDER BY id");
  specs.bind(1, sweep);
  while (specs.step()) {
    const auto spec = nlohmann::json::parse(specs.text(1), nullptr, false);
    if (spec.is_discarded() || !spec.contains("workers") || !spec.contains("partitions")) continue;
    const auto& workers = spec["workers"];
    if (std::find(workers.begin(), workers.end(), "comm") == workers.end()) continue;
    for (const auto& item : spec["partitions"]) {
      if (!item.is_number_integer() && !item.is_string()) continue;
      const auto partition = sweep::Partition::from_json(item);
      if (partition.processes < least) {
        table.notes.push_back("sweep " + specs.text(0) + ", partition " + partition.text() +
                              ": not run, b_eff needs at least " + std::to_string(least) +
                              " processes");
      }
    }
  }

  add_missing_cell_notes(store, "comm", sweep, table);
  return table;
}

}  // namespace pbench::query
