#include "query/RowGrouping.hpp"

#include <algorithm>

#include "util/Error.hpp"

namespace pbench::query {
namespace {

/// 0: a number, 1: text, 2: missing.
int rank(const Cell& cell) {
  if (std::holds_alternative<std::monostate>(cell)) return 2;
  if (std::holds_alternative<std::string>(cell)) return 1;
  return 0;
}

double numeric(const Cell& cell) {
  if (const auto* d = std::get_if<double>(&cell)) return *d;
  return static_cast<double>(std::get<std::int64_t>(cell));
}

}  // namespace

const char* grouping_keys() {
  return "T, hints, queue_depth, partition, nodes, ppn, env";
}

void group_rows(QueryTable& table, const std::string& key) {
  std::string column;
  if (key == "T") {
    column = "schedule_time";
  } else if (key == "hints" || key == "queue_depth" || key == "partition" || key == "nodes" ||
             key == "ppn" || key == "env") {
    column = key;
  } else {
    throw UsageError("unknown --by key '" + key + "' (known: " + grouping_keys() + ")");
  }
  std::size_t index = table.columns.size();
  for (std::size_t i = 0; i < table.columns.size(); ++i) {
    if (table.columns[i].key == column) index = i;
  }
  if (index == table.columns.size()) {
    std::string have;
    for (const char* k : {"T", "hints", "queue_depth", "partition", "nodes", "ppn", "env"}) {
      const std::string c = std::string(k) == "T" ? "schedule_time" : k;
      for (const auto& col : table.columns) {
        if (col.key == c) have += (have.empty() ? "" : ", ") + std::string(k);
      }
    }
    throw UsageError("--by " + key + ": this table has no such column (it groups by: " + have +
                     ")");
  }
  std::stable_sort(table.rows.begin(), table.rows.end(),
                   [index](const std::vector<Cell>& a, const std::vector<Cell>& b) {
                     const Cell& x = a[index];
                     const Cell& y = b[index];
                     if (rank(x) != rank(y)) return rank(x) < rank(y);
                     if (rank(x) == 0) return numeric(x) < numeric(y);
                     if (rank(x) == 1) return std::get<std::string>(x) < std::get<std::string>(y);
                     return false;
                   });
}

}  // namespace pbench::query
