#include "query/ViewRows.hpp"

#include <sqlite3.h>

namespace pbench::query {

Cell typed_cell(store::Statement& s, int c) {
  if (s.is_null(c)) return {};
  switch (s.type(c)) {
    case SQLITE_INTEGER:
      return s.int64(c);
    case SQLITE_FLOAT:
      return s.real(c);
    default:
      return s.text(c);
  }
}

std::vector<std::vector<Cell>> view_rows(store::Store& store, const std::string& view,
                                         const std::vector<QueryColumn>& columns,
                                         const std::optional<std::string>& sweep,
                                         const std::string& order) {
  std::string sql = "SELECT ";
  for (std::size_t i = 0; i < columns.size(); ++i) {
    sql += (i ? ", v.\"" : "v.\"") + columns[i].key + "\"";
  }
  sql += " FROM " + view + " v WHERE (?1 IS NULL OR v.sweep = ?1) AND " +
         chosen_run_of_view(store) + " ORDER BY " + order;
  auto s = store.db().prepare(sql);
  s.bind(1, sweep);
  std::vector<std::vector<Cell>> rows;
  while (s.step()) {
    std::vector<Cell> row;
    for (std::size_t i = 0; i < columns.size(); ++i)
      row.push_back(typed_cell(s, static_cast<int>(i)));
    rows.push_back(std::move(row));
  }
  return rows;
}

void add_env_column(store::Store& store, const std::optional<std::string>& sweep,
                    std::vector<QueryColumn>& columns) {
  auto s = store.db().prepare(
      "SELECT 1 FROM points p JOIN sweeps sw ON sw.id = p.sweep_id "
      "WHERE (?1 IS NULL OR sw.name = ?1) AND json_type(p.params_json, '$.env') = 'text' LIMIT 1");
  s.bind(1, sweep);
  if (!s.step()) return;
  auto at = columns.begin();
  while (at != columns.end() && at->key != "sweep") ++at;
  columns.insert(at == columns.end() ? columns.begin() : at + 1, label_column("env"));
}

std::string chosen_run_of_view(store::Store& store) {
  auto s = store.db().prepare("SELECT sweep_id, run_no FROM temp.chosen_run ORDER BY sweep_id");
  std::string condition;
  while (s.step()) {
    condition += std::string(condition.empty() ? "" : " OR ") +
                 "(v.sweep_id = " + std::to_string(s.int64(0)) +
                 " AND v.run = " + std::to_string(s.int64(1)) + ")";
  }
  return condition.empty() ? std::string("0") : "(" + condition + ")";
}

}  // namespace pbench::query
