#include "query/PointsQuery.hpp"

#include "util/Error.hpp"

namespace pbench::query {

QueryTable points_table(store::Store& store, const std::optional<std::string>& sweep,
                        bool missing_only) {
  if (sweep && !store.find_sweep(*sweep)) throw UsageError("no sweep named '" + *sweep + "'");
  QueryTable table;
  table.columns = {
      label_column("sweep"),
      label_column("point"),
      label_column("worker"),
      label_column("partition", "procs"),
      label_column("params", "parameters"),
      label_column("state"),
      label_column("attempts"),
      label_column("job"),
      label_column("exit_status", "exit"),
      label_column("signal"),
      label_column("result"),
      // The shape asked for (where the result ran for a plain partition), and why the result's
      // placement is not that shape.
      label_column("nodes"),
      label_column("ppn"),
      {"placement", "", "placement", "", 1, 0, {}, true},
      // The reason of a result a deadline cut short (validity.partial); elastic, like
      // placement: shortened in the aligned table so its lines keep to kTableWidth, whole in a
      // note.
      {"partial", "", "partial", "", 1, 0, {}, true},
  };
  auto s = store.db().prepare(
      "SELECT sw.name, p.point_key, p.worker, p.partition, p.params_json, p.state, "
      "(SELECT count(*) FROM attempts WHERE point_id = p.id), a.job_id, a.exit_status, a.signal, "
      "EXISTS (SELECT 1 FROM results r WHERE r.id = " +
      std::string(store::kChosenResult) +
      "), "
      // The shape asked for; where the chosen result ran when the point asked for none.
      "coalesce(p.nodes, (SELECT r.nodes FROM results r WHERE r.id = " +
      std::string(store::kChosenResult) +
      ")), "
      "coalesce(p.procs_per_node, (SELECT r.procs_per_node FROM results r WHERE r.id = " +
      std::string(store::kChosenResult) +
      ")), "
      "(SELECT r.placement FROM results r WHERE r.id = " +
      std::string(store::kChosenResult) + "), " + store::kChosenPartialReason +
      " FROM points p JOIN sweeps sw ON sw.id = p.sweep_id "
      "LEFT JOIN attempts a ON a.id = (SELECT max(id) FROM attempts WHERE point_id = p.id) "
      "WHERE (?1 IS NULL OR sw.name = ?1) ORDER BY sw.id, p.id");
  s.bind(1, sweep);
  std::size_t cells = 0;
  while (s.step()) {
    ++cells;
    const bool has_result = s.int64(10) != 0;
    if (missing_only && has_result) continue;
    auto optional_text = [&](int c) -> Cell {
      if (auto v = s.optional_text(c)) return *v;
      return {};
    };
    auto optional_int = [&](int c) -> Cell {
      if (auto v = s.optional_int64(c)) return *v;
      return {};
    };
    table.rows.push_back({s.text(0), s.text(1), s.text(2), s.int64(3), s.text(4), s.text(5),
                          s.int64(6), optional_text(7), optional_int(8), optional_text(9),
                          std::string(has_result ? "yes" : "no"), optional_int(11),
                          optional_int(12), optional_text(13), optional_text(14)});
  }
  if (missing_only) {
    table.notes.push_back(std::to_string(table.rows.size()) + " of " + std::to_string(cells) +
                          " cells without a result");
  }
  return table;
}

}  // namespace pbench::query
