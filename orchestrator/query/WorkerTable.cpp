#include "query/WorkerTable.hpp"

#include "query/Layout.hpp"
#include "query/MissingCells.hpp"
#include "query/ResultValidity.hpp"
#include "query/ViewRows.hpp"
#include "util/Error.hpp"

namespace pbench::query {
namespace {

std::vector<QueryColumn> framed_columns(const WorkerTable& d) {
  std::vector<QueryColumn> columns = {label_column("sweep")};
  columns.insert(columns.end(), d.leading.begin(), d.leading.end());
  columns.push_back(label_column("partition", "procs"));
  if (d.frame == TableFrame::result) {
    columns.push_back(nodes_column());
    columns.push_back(ppn_column());
  }
  columns.insert(columns.end(), d.columns.begin(), d.columns.end());
  columns.push_back(label_column("valid"));
  if (d.frame == TableFrame::result) columns.push_back(reason_column());
  return columns;
}

// The worker's chosen results of `sweep` in the run the store reads (the view run_results as
// `v`) that meet `condition`, with `columns` selected, in the order of sweep, partition, point.
store::Statement chosen_results(store::Store& store, const WorkerTable& d,
                                const std::optional<std::string>& sweep, const std::string& columns,
                                const std::string& condition) {
  auto s = store.db().prepare("SELECT " + columns +
                              " FROM run_results v WHERE v.worker = ?2 AND (?1 IS NULL OR "
                              "v.sweep = ?1) AND " +
                              condition + " AND " + chosen_run_of_view(store) +
                              " ORDER BY v.sweep_id, v.partition, v.point_id");
  s.bind(1, sweep).bind(2, std::string(d.worker));
  return s;
}

}  // namespace

QueryTable worker_table(store::Store& store, const WorkerTable& d,
                        const std::optional<std::string>& sweep) {
  if (sweep && !store.find_sweep(*sweep)) throw UsageError("no sweep named '" + *sweep + "'");
  QueryTable table;
  table.columns = framed_columns(d);
  if (d.frame == TableFrame::result) add_env_column(store, sweep, table.columns);
  if (d.rows) {
    d.rows(store, sweep, table);
  } else {
    table.rows = view_rows(store, d.view, table.columns, sweep, d.order);
  }
  for (const auto notes : d.notes) notes(store, d, sweep, table);
  add_missing_cell_notes(store, d.worker, sweep, table);
  return table;
}

void no_measurement_notes(store::Store& store, const WorkerTable& d,
                          const std::optional<std::string>& sweep, QueryTable& table) {
  auto s = chosen_results(store, d, sweep,
                          "v.sweep, v.partition, v.shape, (SELECT json_extract(d.head, "
                          "'$.validity.reasons[0]') FROM results d WHERE d.id = v.result_id), "
                          "v.params",
                          "NOT EXISTS (SELECT 1 FROM metrics m WHERE m.result_id = v.result_id)");
  while (s.step()) {
    table.notes.push_back(note_where(s.text(0),
                                     partition_text(s.int64(1), s.optional_text(2).value_or("")),
                                     s.text(4)) +
                          ": " + s.optional_text(3).value_or("no measurement"));
  }
}

void not_valid_notes(store::Store& store, const WorkerTable& d,
                     const std::optional<std::string>& sweep, QueryTable& table) {
  auto s = chosen_results(store, d, sweep, "v.sweep, v.partition, v.shape, v.result_id, v.params",
                          "NOT v.valid");
  while (s.step()) {
    for (const auto& reason : validity_reasons(store, s.int64(3))) {
      table.notes.push_back(note_where(s.text(0),
                                       partition_text(s.int64(1), s.optional_text(2).value_or("")),
                                       s.text(4)) +
                            ": not valid: " + reason);
    }
  }
}

void placement_notes(store::Store& store, const WorkerTable& d,
                     const std::optional<std::string>& sweep, QueryTable& table) {
  add_placement_notes(store, d.worker, sweep, table);
}

}  // namespace pbench::query
