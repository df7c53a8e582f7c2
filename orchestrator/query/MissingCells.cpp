#include "query/MissingCells.hpp"

#include "query/Layout.hpp"
#include "util/StderrTail.hpp"

namespace pbench::query {

void add_missing_cell_notes(store::Store& store, const std::string& worker,
                            const std::optional<std::string>& sweep, QueryTable& table) {
  auto missing = store.db().prepare(
      "SELECT sw.name, p.partition, p.params_json, p.state, a.exit_status, a.signal, "
      "a.stderr_tail, p.nodes, p.procs_per_node FROM points p JOIN sweeps sw ON sw.id = p.sweep_id "
      "LEFT JOIN attempts a ON a.id = (SELECT max(id) FROM attempts WHERE point_id = p.id) "
      "WHERE p.worker = ?2 AND (?1 IS NULL OR sw.name = ?1) "
      "AND NOT EXISTS (SELECT 1 FROM results r WHERE r.id = " +
      std::string(store::kChosenResult) + ") ORDER BY sw.id, p.id");
  missing.bind(1, sweep);
  missing.bind(2, worker);
  while (missing.step()) {
    std::string why = "no result: " + missing.text(3);
    if (auto status = missing.optional_int64(4)) why += ", exit status " + std::to_string(*status);
    if (auto signal = missing.optional_text(5)) why += ", signal " + *signal;
    if (auto tail = missing.optional_text(6); tail && !telling_line(*tail).empty()) {
      why += " (" + telling_line(*tail) + ")";
    }
    table.notes.push_back(
        note_where(missing.text(0),
                   partition_text(missing.int64(1), missing.optional_int64(7).value_or(0),
                                  missing.optional_int64(8).value_or(0)),
                   missing.text(2)) +
        ": " + why);
  }
  if (table.rows.empty() && table.notes.empty()) {
    table.notes.push_back("no " + worker + " results" +
                          (sweep ? " in sweep " + *sweep : std::string()) +
                          " (run 'pbench collect' after the jobs finish)");
  }
}

}  // namespace pbench::query
