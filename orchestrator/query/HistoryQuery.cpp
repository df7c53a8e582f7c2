#include "query/HistoryQuery.hpp"

#include <algorithm>
#include <set>

#include "query/SystemQuery.hpp"
#include "util/Error.hpp"

namespace pbench::query {
namespace {

std::string with_spaces(std::string name) {
  std::replace(name.begin(), name.end(), '_', ' ');
  return name;
}

// The system table's columns, by key.
std::size_t column(const QueryTable& table, const std::string& key) {
  for (std::size_t i = 0; i < table.columns.size(); ++i) {
    if (table.columns[i].key == key) return i;
  }
  throw UsageError("the headline table has no column '" + key + "'");
}

std::string text_of(const Cell& cell) {
  if (const auto* s = std::get_if<std::string>(&cell)) return *s;
  return "";
}

}  // namespace

QueryTable history_table(store::Store& store, const std::string& sweep,
                         const std::optional<std::string>& metric,
                         const std::vector<WhereClause>& where) {
  const auto record = store.find_sweep(sweep);
  if (!record) throw UsageError("no sweep named '" + sweep + "'");
  QueryTable history;
  history.columns = {
      {"time", "", "time", "", 1, 0},     {"run", "", "run", "", 1, 0},
      {"figure", "", "figure", "", 1, 0}, {"partition", "", "procs", "", 1, 0},
      {"value", "", "value", "", 1, 6},   {"unit", "", "unit", "", 1, 0},
      {"at", "", "at", "", 1, 0},         {"valid", "", "valid", "", 1, 0},
  };
  std::set<std::string> figures;
  for (const auto& run : store.runs(record->id)) {
    store.choose_run(store::RunChoice::number(run.run_no));
    const auto headline = system_table(store, sweep, where);
    const auto figure = column(headline, "figure"), partition = column(headline, "partition"),
               value = column(headline, "value"), unit = column(headline, "unit"),
               at = column(headline, "at"), valid = column(headline, "valid");
    for (const auto& row : headline.rows) {
      const std::string name = text_of(row[figure]);
      figures.insert(name);
      if (metric && name != *metric && name != with_spaces(*metric)) continue;
      history.rows.push_back({run.started_at, static_cast<std::int64_t>(run.run_no), name,
                              row[partition], row[value], row[unit], row[at],
                              row[valid].index() == 0 ? Cell{std::string("-")} : row[valid]});
    }
  }
  store.choose_run(store::RunChoice::latest());
  if (metric && figures.count(*metric) == 0 && figures.count(with_spaces(*metric)) == 0) {
    std::string known;
    for (const auto& f : figures) known += (known.empty() ? "" : ", ") + f;
    throw UsageError("sweep '" + sweep + "' has no figure '" + *metric +
                     "' (it has: " + (known.empty() ? "none" : known) + ")");
  }
  history.notes.push_back(
      "each run's headline figures as query system gives them; '-' in "
      "valid: no result in that run");
  return history;
}

}  // namespace pbench::query
