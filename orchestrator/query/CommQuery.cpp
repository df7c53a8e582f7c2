#include "query/CommQuery.hpp"

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "query/Layout.hpp"
#include "query/MissingCells.hpp"
#include "query/ResultValidity.hpp"
#include "query/ViewRows.hpp"
#include "sweep/Partition.hpp"
#include "sweep/WorkerCatalog.hpp"
#include "util/Error.hpp"

namespace pbench::query {

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
      {"b_eff_per_process_at_lmax", "B/s", "b_eff/p@L_max", "MB/s", 1e-6, 5},
      {"ring_per_process_at_lmax", "B/s", "ring/p@L_max", "MB/s", 1e-6, 5},
      {"latency_rings_random", "s", "lat", "us", 1e6, 3},
      {"latency_rings", "s", "lat rings", "us", 1e6, 3},
      {"latency_pingpong", "s", "lat ping-pong", "us", 1e6, 3},
      {"valid", "", "valid", "", 1, 0},
      reason_column(),
  };
  add_env_column(store, sweep, table.columns);
  // The store's view comm_table: a row per chosen result, then each sweep's 'max' row, the
  // result that wins the headline b_eff.
  table.rows = view_rows(store, "comm_table", table.columns, sweep,
                         "v.sweep_id, v.row_order, v.partition, v.point_id");
  auto best = store.db().prepare(
      std::string("SELECT v.sweep, v.b_eff, v.partition, v.shape, v.point, v.job, v.valid, "
                  "v.reason FROM comm_table v WHERE v.\"row\" = 'max' "
                  "AND (?1 IS NULL OR v.sweep = ?1) AND ") +
      chosen_run_of_view(store) + " ORDER BY v.sweep_id");
  best.bind(1, sweep);
  while (best.step()) {
    const bool valid = best.text(6) == "yes";
    std::vector<std::string> reasons;
    if (auto reason = best.optional_text(7)) reasons.push_back(*reason);
    table.notes.push_back("sweep " + best.text(0) + ": the largest b_eff" +
                          (valid ? "" : " (no result is valid; among the not valid ones)") + ", " +
                          megabytes(best.real(1)) + ", is on " +
                          partition_text(best.int64(2), best.optional_text(3).value_or("")) +
                          " processes (point " + best.text(4) +
                          (best.is_null(5) ? std::string() : ", job " + best.text(5)) + ")" +
                          (valid ? "" : " " + not_valid_mark(reasons)));
  }
  // Why each result that is not valid is not, all its reasons (like query bcast).
  auto invalid = store.db().prepare(
      std::string("SELECT v.sweep, v.partition, v.shape, v.result_id, v.params "
                  "FROM run_results v "
                  "WHERE v.worker = 'comm' AND NOT v.valid AND (?1 IS NULL OR v.sweep = ?1) "
                  "AND ") +
      chosen_run_of_view(store) + " ORDER BY v.sweep_id, v.partition, v.point_id");
  invalid.bind(1, sweep);
  while (invalid.step()) {
    for (const auto& reason : validity_reasons(store, invalid.int64(3))) {
      table.notes.push_back(
          note_where(invalid.text(0),
                     partition_text(invalid.int64(1), invalid.optional_text(2).value_or("")),
                     invalid.text(4)) +
          ": not valid: " + reason);
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
