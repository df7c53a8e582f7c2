#include "query/CommQuery.hpp"

#include <algorithm>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "query/Layout.hpp"
#include "query/ResultValidity.hpp"
#include "query/ViewRows.hpp"
#include "sweep/Partition.hpp"
#include "sweep/WorkerCatalog.hpp"

namespace pbench::query {
namespace {

// Each sweep's 'max' row of the view comm_table: the result that wins the headline b_eff, named
// with its point and job.
void largest_b_eff_notes(store::Store& store, const WorkerTable&,
                         const std::optional<std::string>& sweep, QueryTable& table) {
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
}

// Partitions the sweep asks for but comm does not run (fewer processes than b_eff needs).
void too_small_notes(store::Store& store, const WorkerTable& description,
                     const std::optional<std::string>& sweep, QueryTable& table) {
  const int least = sweep::find_worker(description.worker).min_procs;
  auto specs = store.db().prepare(
      "SELECT name, spec_json FROM sweeps WHERE (?1 IS NULL OR name = ?1) ORDER BY id");
  specs.bind(1, sweep);
  while (specs.step()) {
    const auto spec = nlohmann::json::parse(specs.text(1), nullptr, false);
    if (spec.is_discarded() || !spec.contains("workers") || !spec.contains("partitions")) continue;
    const auto& workers = spec["workers"];
    if (std::find(workers.begin(), workers.end(), description.worker) == workers.end()) continue;
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
}

}  // namespace

// The store's view comm_table: a row per chosen result, then each sweep's 'max' row. Why each
// result that is not valid is not, all its reasons (like query bcast).
const WorkerTable& comm_description() {
  static const WorkerTable table = {
      .worker = "comm",
      .columns =
          {
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
          },
      .view = "comm_table",
      .order = "v.sweep_id, v.row_order, v.partition, v.point_id",
      .notes = {&largest_b_eff_notes, &not_valid_notes, &too_small_notes},
      .leading = {label_column("row")},
  };
  return table;
}

QueryTable comm_table(store::Store& store, const std::optional<std::string>& sweep) {
  return worker_table(store, comm_description(), sweep);
}

}  // namespace pbench::query
