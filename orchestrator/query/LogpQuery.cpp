#include "query/LogpQuery.hpp"

#include "query/Layout.hpp"
#include "query/MissingCells.hpp"
#include "query/ViewRows.hpp"
#include "util/Error.hpp"

namespace pbench::query {

QueryTable logp_table(store::Store& store, const std::optional<std::string>& sweep) {
  if (sweep && !store.find_sweep(*sweep)) throw UsageError("no sweep named '" + *sweep + "'");
  QueryTable table;
  table.columns = {
      {"sweep", "", "sweep", "", 1, 0},
      {"partition", "", "procs", "", 1, 0},
      nodes_column(),
      ppn_column(),
      {"queue_depth", "", "q", "", 1, 0},
      {"eel", "s", "EEL", "us", 1e6, 3},
      {"o_s", "s", "o_s", "us", 1e6, 3},
      {"o_r", "s", "o_r", "us", 1e6, 3},
      {"g", "s", "g", "us", 1e6, 3},
      {"big_g", "s/B", "G", "ns/B", 1e9, 3},
      {"bandwidth", "B/s", "1/G", "MB/s", 1e-6, 4},
      {"latency_l", "s", "L", "us", 1e6, 3},
      {"large_message_threshold", "B", "M=g/G", "B", 1, 4},
      {"valid", "", "valid", "", 1, 0},
      reason_column(),
  };
  add_env_column(store, sweep, table.columns);
  // The store's view logp_table: a row per queue depth of each chosen result.
  table.rows = view_rows(store, "logp_table", table.columns, sweep,
                         "v.sweep, v.partition, coalesce(v.nodes, 0), coalesce(v.ppn, 0), "
                         "v.point_id, v.queue_depth");
  // A result without a measurement: why (its worker's first reason).
  auto s = store.db().prepare(
      std::string("SELECT v.sweep, v.partition, v.shape, "
                  "(SELECT json_extract(d.head, '$.validity.reasons[0]') FROM results d "
                  "WHERE d.id = v.result_id), v.params FROM run_results v "
                  "WHERE v.worker = 'logp' AND (?1 IS NULL OR v.sweep = ?1) AND ") +
      chosen_run_of_view(store) +
      " AND NOT EXISTS (SELECT 1 FROM metrics m WHERE m.result_id = v.result_id) "
      "ORDER BY v.sweep_id, v.partition, v.point_id");
  s.bind(1, sweep);
  while (s.step()) {
    table.notes.push_back(note_where(s.text(0),
                                     partition_text(s.int64(1), s.optional_text(2).value_or("")),
                                     s.text(4)) +
                          ": " + s.optional_text(3).value_or("no measurement"));
  }
  add_placement_notes(store, "logp", sweep, table);
  add_missing_cell_notes(store, "logp", sweep, table);
  return table;
}

}  // namespace pbench::query
