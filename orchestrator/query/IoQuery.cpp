#include "query/IoQuery.hpp"

#include <cstdio>
#include <map>

#include "query/IoConsortiumQuery.hpp"
#include "query/Layout.hpp"
#include "query/ResultValidity.hpp"
#include "query/ViewRows.hpp"

namespace pbench::query {
namespace {

// The order of io_table's rows: by point, each point's partitions.
constexpr const char* kOrder = "v.sweep_id, v.point_partition, v.point_id, v.partition";

// " of the 2x2 point" for a result of a point that asked for a shape, "" otherwise: an io result
// of 4 processes measures partitions 1 to 4, on 4x1 or 2x2 nodes.
std::string of_shape(const std::optional<std::string>& shape) {
  return shape && !shape->empty() ? " of the " + *shape + " point" : "";
}

std::string seconds(double s) {
  char text[64];
  std::snprintf(text, sizeof(text), "%g s", s);
  return text;
}

// `sql` (whose WHERE clause comes last) on `sweep` and the run the table reads, in `by` order.
store::Statement in_run(store::Store& store, const std::optional<std::string>& sweep,
                        const std::string& sql, const std::string& by) {
  auto s = store.db().prepare(sql + " AND (?1 IS NULL OR v.sweep = ?1) AND " +
                              chosen_run_of_view(store) + (by.empty() ? "" : " ORDER BY " + by));
  s.bind(1, sweep);
  return s;
}

// A result without a measurement: why (its worker's first reason).
void no_measurement_reasons(store::Store& store, const WorkerTable&,
                            const std::optional<std::string>& sweep, QueryTable& table) {
  auto empty =
      in_run(store, sweep,
             "SELECT v.sweep, (SELECT json_extract(d.head, '$.validity.reasons[0]') FROM results d "
             "WHERE d.id = v.result_id) FROM run_results v WHERE v.worker = 'io' "
             "AND NOT EXISTS (SELECT 1 FROM metrics m WHERE m.result_id = v.result_id)",
             "v.sweep_id, v.partition, v.point_id");
  while (empty.step()) {
    table.notes.push_back("sweep " + empty.text(0) + ": " +
                          empty.optional_text(1).value_or("no measurement"));
  }
}

// How b_eff_io is computed, and how it was for results stored before rev 2.1.
void formula_notes(store::Store& store, const WorkerTable&, const std::optional<std::string>& sweep,
                   QueryTable& table) {
  if (!table.rows.empty()) {
    table.notes.push_back(
        "b_eff_io as b_eff_io rev 2.1 computes it: sqrt(WR * R), WR the mean of the five write "
        "types and the type 0 rewrite, R the read average with type 0 counted twice; paper: the "
        "paper's arithmetic b_eff_io, 0.25 write + 0.25 rewrite + 0.5 read");
  }
  auto legacy = in_run(store, sweep, "SELECT 1 FROM io_table v WHERE v.legacy", "");
  if (legacy.step()) {
    table.notes.push_back(
        "results stored before pbench-io followed rev 2.1 ran with T per partition split T/3 "
        "per access method; their b_eff_io is the sqrt(WR * R) they recorded as rev-2");
  }
}

// The system value: per T and hint set, the b_eff_io that wins by the headline's rule.
void system_notes(store::Store& store, const WorkerTable&, const std::optional<std::string>& sweep,
                  QueryTable& table) {
  auto system =
      in_run(store, sweep,
             "SELECT v.sweep, v.schedule_time, v.hints, m.value, "
             "coalesce(json_extract(m.labels, '$.partition'), f.partition), f.valid, f.reason, "
             "f.shape, v.env "
             "FROM io_system v JOIN metrics m ON m.id = v.winner "
             "JOIN result_facts f ON f.result_id = m.result_id WHERE 1",
             "v.sweep_id, v.env, v.schedule_time, v.hints");
  while (system.step()) {
    std::vector<std::string> reasons;
    if (auto reason = system.optional_text(6)) reasons.push_back(*reason);
    // One note per environment of a sweep made with --envs: each has its own system value.
    const auto env = system.optional_text(8);
    table.notes.push_back("system b_eff_io of sweep " + system.text(0) +
                          (env ? ", environment " + *env : std::string()) + " (T " +
                          seconds(system.optional_real(1).value_or(0)) + ", hints " +
                          system.text(2) + "): " + megabytes(system.real(3)) + " at partition " +
                          std::to_string(system.int64(4)) + of_shape(system.optional_text(7)) +
                          (system.int64(5) != 0
                               ? ""
                               : ", the best of the not valid results " + not_valid_mark(reasons)));
  }
}

// Why each result that is not valid is not, all its reasons, with the partitions it measured.
void not_valid_partition_notes(store::Store& store, const WorkerTable&,
                               const std::optional<std::string>& sweep, QueryTable& table) {
  auto invalid =
      in_run(store, sweep,
             "SELECT v.sweep, v.result_id, v.partition, "
             "(SELECT f.shape FROM result_facts f WHERE f.result_id = v.result_id), v.env "
             "FROM io_table v "
             "WHERE v.valid = 'no'",
             kOrder);
  std::vector<std::int64_t> results;  // in the table's order
  struct Measured {
    std::string sweep, partitions, shape, env;
  };
  std::map<std::int64_t, Measured> measured;
  while (invalid.step()) {
    const std::int64_t id = invalid.int64(1);
    auto [it, fresh] =
        measured.try_emplace(id, Measured{invalid.text(0), "", of_shape(invalid.optional_text(3)),
                                          invalid.optional_text(4).value_or("")});
    if (fresh) results.push_back(id);
    it->second.partitions += (fresh ? "" : ",") + std::to_string(invalid.int64(2));
  }
  for (const std::int64_t id : results) {
    const auto& m = measured[id];
    const bool one = m.partitions.find(',') == std::string::npos;
    for (const auto& reason : validity_reasons(store, id)) {
      table.notes.push_back(
          "sweep " + m.sweep + (one ? ", partition " : ", partitions ") + m.partitions + m.shape +
          (m.env.empty() ? "" : ", environment " + m.env) + ": not valid: " + reason);
    }
  }
}

// The io points that ran the consortium suite, whose table is another.
void consortium_notes(store::Store& store, const WorkerTable&,
                      const std::optional<std::string>& sweep, QueryTable& table) {
  if (const std::int64_t n = count_consortium_results(store, sweep); n > 0) {
    table.notes.push_back(std::to_string(n) + " io point(s) ran the consortium suite: see " +
                          "pbench query io --suite consortium");
  }
}

}  // namespace

// The store's view io_table: a row per partition of each chosen result.
const WorkerTable& io_description() {
  static const WorkerTable table = {
      .worker = "io",
      .columns =
          {
              {"schedule_time", "s", "T", "s", 1, 4},
              label_column("hints"),
              {"write", "B/s", "write", "MB/s", 1e-6, 4},
              {"rewrite", "B/s", "rewrite", "MB/s", 1e-6, 4},
              {"read", "B/s", "read", "MB/s", 1e-6, 4},
              {"b_eff_io", "B/s", "b_eff_io", "MB/s", 1e-6, 4},
              {"b_eff_io_paper", "B/s", "paper", "MB/s", 1e-6, 4},
              {"elapsed", "s", "elapsed", "s", 1, 4},
          },
      .view = "io_table",
      .order = kOrder,
      .notes = {&no_measurement_reasons, &formula_notes, &system_notes, &not_valid_partition_notes,
                &consortium_notes},
  };
  return table;
}

QueryTable io_table(store::Store& store, const std::optional<std::string>& sweep) {
  return worker_table(store, io_description(), sweep);
}

}  // namespace pbench::query
