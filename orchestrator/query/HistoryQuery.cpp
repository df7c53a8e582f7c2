#include "query/HistoryQuery.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "common/MetricCatalogue.hpp"
#include "query/Reference.hpp"
#include "query/SystemQuery.hpp"
#include "query/ViewRows.hpp"
#include "util/Error.hpp"

namespace pbench::query {
namespace {

std::string text_of(const Cell& cell) {
  if (const auto* s = std::get_if<std::string>(&cell)) return *s;
  return "";
}

/// One history row: the run's start, its number, then the headline row's environment (--envs),
/// figure, partition, value, unit, at and valid ('-' for a figure without a result in that run).
using HistoryRow = std::vector<Cell>;

/// The history rows of every run of `sweep_id` whose headline the store keeps answered
/// (headline_answers: the same rows query system gives for the run), in one statement, by run;
/// only `figure`'s rows when given. Each answered run is in the map, with no rows if its
/// headline has none (of that figure).
std::map<int, std::vector<HistoryRow>> answered_rows(store::Store& store, std::int64_t sweep_id,
                                                     const std::optional<std::string>& figure) {
  std::map<int, std::vector<HistoryRow>> out;
  auto runs = store.db().prepare("SELECT run FROM headline_answered WHERE sweep_id = ?1");
  runs.bind(1, sweep_id);
  while (runs.step()) out[static_cast<int>(runs.int64(0))];
  auto s = store.db().prepare(
      "SELECT ru.started_at, a.run, a.env, a.figure, a.partition, a.value, a.unit, a.at, "
      "a.valid "
      "FROM headline_answered k CROSS JOIN runs ru CROSS JOIN headline_answers a "
      "WHERE k.sweep_id = ?1 AND ru.sweep_id = k.sweep_id AND ru.run_no = k.run "
      "AND a.sweep_id = k.sweep_id AND a.run = k.run AND (?2 IS NULL OR a.figure = ?2) "
      "ORDER BY a.run, a.group_order, a.env, a.group_partition, a.group_nodes, a.group_ppn, "
      "a.row_order");
  s.bind(1, sweep_id).bind(2, figure);
  while (s.step()) {
    HistoryRow row;
    row.reserve(9);
    for (int c = 0; c < 9; ++c) row.push_back(typed_cell(s, c));
    if (row[8].index() == 0) row[8] = std::string("-");
    out[static_cast<int>(s.int64(1))].push_back(std::move(row));
  }
  return out;
}

}  // namespace

QueryTable history_table(store::Store& store, const std::string& sweep,
                         const std::optional<std::string>& metric,
                         const std::vector<WhereClause>& where) {
  const auto record = store.find_sweep(sweep);
  if (!record) throw UsageError("no sweep named '" + sweep + "'");
  QueryTable history;
  history.columns = {
      label_column("time"),
      label_column("run"),
      label_column("env"),
      label_column("figure"),
      label_column("partition", "procs"),
      {"value", "", "value", "", 1, 6, "unit"},
      label_column("unit"),
      label_column("at"),
      label_column("valid"),
  };
  std::set<std::string> figures;
  // The runs whose headline the store keeps answered come from one statement; the others (a
  // store no pbench has answered, or --where) from query system, run by run.
  // With --metric, the figures the sweep has at all come from the kept answers' own list (the
  // error below names them), the rows of the one figure from the statement.
  const auto figure =
      metric ? std::optional<std::string>(metrics::figure_spelling(*metric)) : std::nullopt;
  auto kept = where.empty() ? answered_rows(store, record->id, figure)
                            : std::map<int, std::vector<HistoryRow>>{};
  if (!kept.empty() && figure) {
    auto names =
        store.db().prepare("SELECT DISTINCT figure FROM headline_answers WHERE sweep_id = ?1");
    names.bind(1, record->id);
    while (names.step()) figures.insert(names.text(0));
  }
  for (const auto& run : store.runs(record->id)) {
    std::vector<HistoryRow> rows;
    if (auto k = kept.find(run.run_no); k != kept.end()) {
      rows = std::move(k->second);
    } else {
      store.choose_run(store::RunChoice::number(run.run_no));
      const auto headline = system_table(store, sweep, where);
      const auto figure = column_index(headline, "figure"),
                 partition = column_index(headline, "partition"),
                 value = column_index(headline, "value"), unit = column_index(headline, "unit"),
                 at = column_index(headline, "at"), valid = column_index(headline, "valid");
      const auto env = find_column(headline, "env");
      for (const auto& row : headline.rows) {
        rows.push_back({run.started_at, static_cast<std::int64_t>(run.run_no),
                        env ? row[*env] : Cell{}, row[figure], row[partition], row[value],
                        row[unit], row[at],
                        row[valid].index() == 0 ? Cell{std::string("-")} : row[valid]});
      }
    }
    for (auto& row : rows) {
      const std::string name = text_of(row[3]);
      figures.insert(name);
      if (metric && name != metrics::figure_spelling(*metric)) continue;
      history.rows.push_back(std::move(row));
    }
  }
  store.choose_run(store::RunChoice::latest());
  if (metric && figures.count(metrics::figure_spelling(*metric)) == 0) {
    std::string known;
    for (const auto& f : figures) known += (known.empty() ? "" : ", ") + f;
    throw UsageError("sweep '" + sweep + "' has no figure '" + *metric +
                     "' (it has: " + (known.empty() ? "none" : known) + ")");
  }
  // A sweep made without --envs keeps its columns.
  bool with_env = false;
  for (const auto& row : history.rows) with_env = with_env || row[2].index() != 0;
  if (!with_env) {
    history.columns.erase(history.columns.begin() + 2);
    for (auto& row : history.rows) row.erase(row.begin() + 2);
  }
  history.notes.push_back(
      "each run's headline figures as query system gives them; '-' in "
      "valid: no result in that run");
  return history;
}

QueryTable history_stats(const QueryTable& history) {
  const auto figure = column_index(history, "figure"),
             partition = column_index(history, "partition"), value = column_index(history, "value"),
             unit = column_index(history, "unit"), valid = column_index(history, "valid");
  const auto env = find_column(history, "env");
  // In the history's order of first appearance, per environment (--envs).
  using Key = std::tuple<std::string, std::string, std::int64_t, std::string>;
  std::vector<Key> order;
  std::map<Key, std::pair<std::vector<double>, std::int64_t>> values;  // values, not valid
  for (const auto& row : history.rows) {
    const auto* v = std::get_if<double>(&row[value]);
    if (v == nullptr) continue;
    const auto* p = std::get_if<std::int64_t>(&row[partition]);
    const Key key{env ? text_of(row[*env]) : std::string(), text_of(row[figure]), p ? *p : 0,
                  text_of(row[unit])};
    if (values.find(key) == values.end()) order.push_back(key);
    auto& entry = values[key];
    entry.first.push_back(*v);
    if (text_of(row[valid]) != "yes") ++entry.second;
  }
  QueryTable stats;
  stats.columns = {
      label_column("env"),
      label_column("figure"),
      label_column("partition", "procs"),
      label_column("n"),
      {"median", "", "median", "", 1, 6, "unit"},
      {"mad", "", "MAD", "", 1, 4, "unit"},
      {"p5", "", "p5", "", 1, 6, "unit"},
      {"p95", "", "p95", "", 1, 6, "unit"},
      {"min", "", "min", "", 1, 6, "unit"},
      {"max", "", "max", "", 1, 6, "unit"},
      label_column("unit"),
      label_column("not_valid", "not valid"),
  };
  for (const auto& key : order) {
    const auto& [env_text, name, part, unit_text] = key;
    const auto& [list, not_valid] = values[key];
    const FigureSpread s = spread_of(list);
    stats.rows.push_back({env_text, name, part > 0 ? Cell{part} : Cell{}, std::int64_t{s.n},
                          s.median, s.mad, s.p5, s.p95, *std::min_element(list.begin(), list.end()),
                          *std::max_element(list.begin(), list.end()), unit_text, not_valid});
  }
  if (!env) {
    stats.columns.erase(stats.columns.begin());
    for (auto& row : stats.rows) row.erase(row.begin());
  }
  stats.notes.push_back(
      "per figure over the runs that gave it a value: n, median, median absolute deviation "
      "(MAD; the robust standard deviation is 1.4826 x MAD), 5th and 95th percentiles; not "
      "valid: how many of the n came from a result that is not valid");
  return stats;
}

}  // namespace pbench::query
