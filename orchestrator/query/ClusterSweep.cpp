#include "query/ClusterSweep.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "util/Error.hpp"

namespace pbench::query {
namespace {

std::string cell_text(const Cell& cell) {
  if (const auto* s = std::get_if<std::string>(&cell)) return *s;
  if (const auto* i = std::get_if<std::int64_t>(&cell)) return std::to_string(*i);
  return "";
}

}  // namespace

std::vector<ClusterSweep> cluster_sweeps(store::Store& store,
                                         const std::optional<std::string>& sweep) {
  if (sweep && !store.find_sweep(*sweep)) throw UsageError("no sweep named '" + *sweep + "'");
  auto s = store.db().prepare(
      "SELECT name, coalesce(cluster, 'unnamed') FROM sweeps WHERE ?1 IS NULL OR "
      "coalesce(base_name, name) = (SELECT coalesce(base_name, name) FROM sweeps WHERE name = ?1) "
      "ORDER BY id");
  s.bind(1, sweep);
  std::vector<ClusterSweep> out;
  while (s.step()) out.push_back({s.text(0), s.text(1)});
  return out;
}

QueryTable by_cluster(const std::vector<ClusterSweep>& sweeps, std::vector<QueryTable> tables,
                      const std::string& after, bool interleave) {
  QueryTable out;
  if (tables.empty()) return out;
  // Every table has the columns of the first, or an env column more (a sweep made with --envs):
  // the widest one's columns, env cells empty in the others.
  std::size_t widest = 0;
  for (std::size_t i = 0; i < tables.size(); ++i) {
    if (tables[i].columns.size() > tables[widest].columns.size()) widest = i;
  }
  out.columns = tables[widest].columns;
  const auto at = after.empty() ? 0 : find_column(tables[widest], after).value_or(0) + 1;
  out.columns.insert(out.columns.begin() + static_cast<std::ptrdiff_t>(at),
                     label_column("cluster"));
  using Key = std::tuple<std::string, std::string, std::string, std::string>;
  std::vector<std::pair<Key, std::vector<Cell>>> rows;
  std::set<std::string> said;
  for (std::size_t i = 0; i < tables.size(); ++i) {
    auto& table = tables[i];
    const auto env = find_column(table, "env");
    const auto figure = find_column(table, "figure");
    const auto partition = find_column(table, "partition");
    const auto run = find_column(table, "run");
    for (auto& row : table.rows) {
      Key key{run ? cell_text(row[*run]) : "", env ? cell_text(row[*env]) : "",
              figure ? cell_text(row[*figure]) : "", partition ? cell_text(row[*partition]) : ""};
      std::vector<Cell> cells;
      for (const auto& column : out.columns) {
        if (column.key == "cluster") {
          cells.push_back(sweeps[i].cluster);
          continue;
        }
        const auto c = find_column(table, column.key);
        cells.push_back(c ? row[*c] : Cell{});
      }
      rows.emplace_back(std::move(key), std::move(cells));
    }
    for (auto& note : table.notes) {
      if (said.insert(note).second) out.notes.push_back(note);
    }
  }
  if (interleave) {
    std::map<Key, std::size_t> first;
    for (const auto& [key, cells] : rows) first.emplace(key, first.size());
    std::stable_sort(rows.begin(), rows.end(), [&](const auto& a, const auto& b) {
      return first.at(a.first) < first.at(b.first);
    });
  }
  for (auto& [key, cells] : rows) out.rows.push_back(std::move(cells));
  return out;
}

bool parse_by_cluster(const std::string& by) {
  if (by.empty()) return false;
  if (by == "cluster") return true;
  throw UsageError("--by " + by + ": the rows can be compared by cluster only (--by cluster)");
}

}  // namespace pbench::query
