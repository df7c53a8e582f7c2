#include "query/BcastQuery.hpp"

#include "query/Layout.hpp"
#include "query/ViewRows.hpp"

namespace pbench::query {

namespace {

// Why each result that is not valid is not: every reason its worker gave.
void not_valid_reason_notes(store::Store& store, const WorkerTable&,
                            const std::optional<std::string>& sweep, QueryTable& table) {
  auto s = store.db().prepare(
      std::string("SELECT v.sweep, v.partition, v.shape, reason.value, v.params "
                  "FROM run_results v "
                  "JOIN results d ON d.id = v.result_id, "
                  "json_each(d.head, '$.validity.reasons') reason "
                  "WHERE v.worker = 'bcast' AND NOT v.valid AND (?1 IS NULL OR v.sweep = ?1) "
                  "AND ") +
      chosen_run_of_view(store) + " ORDER BY v.sweep_id, v.partition, v.point_id, reason.key");
  s.bind(1, sweep);
  while (s.step()) {
    table.notes.push_back(note_where(s.text(0),
                                     partition_text(s.int64(1), s.optional_text(2).value_or("")),
                                     s.text(4)) +
                          ": not valid: " + s.text(3));
  }
}

// Which method gave OL (pbench-bcast --method; results before it have no table method and
// are OL_i's): the synchronized-clock method's results are named, with how it was chosen.
void method_notes(store::Store& store, const WorkerTable&, const std::optional<std::string>& sweep,
                  QueryTable& table) {
  auto m = store.db().prepare(
      std::string(
          "SELECT v.sweep, v.partition, v.shape, v.params, "
          "json_extract(document(d.packed), '$.measurements.method.rows[0][1]') "
          "FROM run_results v JOIN results d ON d.id = v.result_id "
          "WHERE v.worker = 'bcast' AND (?1 IS NULL OR v.sweep = ?1) "
          "AND json_extract(document(d.packed), '$.measurements.method.rows[0][0]') = 'sync' "
          "AND ") +
      chosen_run_of_view(store) + " ORDER BY v.sweep_id, v.partition, v.point_id");
  m.bind(1, sweep);
  while (m.step()) {
    table.notes.push_back(
        note_where(m.text(0), partition_text(m.int64(1), m.optional_text(2).value_or("")),
                   m.text(3)) +
        ": OL by the synchronized-clock method (" + m.optional_text(4).value_or("--method sync") +
        "), cross-checked by OL_i on its latest tasks");
  }
}

}  // namespace

// The store's view bcast_table: a row per message size of each chosen result.
const WorkerTable& bcast_description() {
  static const WorkerTable table = {
      .worker = "bcast",
      .columns =
          {
              label_column("impl"),
              {"hop_delay", "s", "d", "us", 1e6, 4},
              {"size", "B", "size", "B", 1, 10},
              {"ol", "s", "OL", "us", 1e6, 4},
              label_column("ol_task", "task"),
              {"send_latency", "s", "send", "us", 1e6, 4},
              {"rounds_latency", "s", "rounds", "us", 1e6, 4},
              label_column("root_order", "order"),
              {"barrier_latency", "s", "barrier", "us", 1e6, 4},
              {"ack_latency", "s", "ack", "us", 1e6, 4},
          },
      .view = "bcast_table",
      .order = "v.sweep_id, v.partition, v.point_id, v.size",
      .notes = {&not_valid_reason_notes, &method_notes, &placement_notes},
  };
  return table;
}

QueryTable bcast_table(store::Store& store, const std::optional<std::string>& sweep) {
  return worker_table(store, bcast_description(), sweep);
}

}  // namespace pbench::query
