#include "query/SystemQuery.hpp"

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <tuple>

#include "common/MetricCatalogue.hpp"
#include "query/Layout.hpp"
#include "query/ResultValidity.hpp"
#include "query/ViewRows.hpp"
#include "util/Error.hpp"

namespace pbench::query {
namespace {

// The columns every headline row is read with, from the store's views headlines and
// headline_rows (schema/store_views.sql).
constexpr const char* kRowColumns =
    "figure, value, unit, partition, at, point, job, valid, reason, nodes, ppn, shape, won, env";

/// One headline row as the views give it, with the order of query system's table.
struct HeadlineRow {
  std::vector<Cell> cells;         // sweep, figure, value, unit, partition, at, point, job, valid,
                                   // reason, nodes, ppn
  std::string shape;               // the shape the point asked for ("" for a plain partition)
  bool won = false;                // the group's own figure (not a companion read with it)
  bool per_shape = false;          // a figure per partition shape
  std::optional<std::string> env;  // the environment (--envs) it was won in
  std::tuple<std::int64_t, std::string, std::int64_t, std::int64_t, std::int64_t, std::int64_t>
      order;
};

/// Reads kRowColumns from `s`, starting at column `first`.
HeadlineRow read_row(store::Statement& s, const std::string& sweep, int first) {
  HeadlineRow row;
  row.cells.push_back(sweep);
  for (int c = first; c < first + 11; ++c) row.cells.push_back(typed_cell(s, c));
  row.shape = s.optional_text(first + 11).value_or("");
  row.won = s.int64(first + 12) != 0;
  row.env = s.optional_text(first + 13);
  return row;
}

// A where clause matches a point parameter, hint or --set setting, an echoed setting, a metric
// label, or the partition; nodes and ppn are where the ranks ran. Values are compared in C++
// only.
struct Candidate {
  std::int64_t partition = 0, nodes = 0, ppn = 0;
  nlohmann::json labels, params, document;
};

bool matches(const std::vector<WhereClause>& where, const Candidate& c) {
  for (const auto& clause : where) {
    bool hit = false;
    if (clause.key == "partition") hit = json_matches(c.partition, clause.value);
    if (clause.key == "nodes" || clause.key == "ppn") {
      const std::int64_t v = clause.key == "nodes" ? c.nodes : c.ppn;
      if (v <= 0 || !json_matches(v, clause.value)) return false;
      continue;
    }
    const auto& params = c.params;
    if (!hit && params.is_object() && params.contains(clause.key)) {
      hit = json_matches(params[clause.key], clause.value);
    }
    if (!hit && params.is_object() && params.contains("settings") &&
        params["settings"].is_object() && params["settings"].contains(clause.key)) {
      hit = json_matches(params["settings"][clause.key], clause.value);
    }
    const auto& document = c.document;
    if (!hit && document.is_object() && document.contains("parameters") &&
        document["parameters"].is_object() && document["parameters"].contains(clause.key)) {
      const auto& p = document["parameters"][clause.key];
      hit = json_matches(p.is_object() && p.contains("value") ? p["value"] : p, clause.value);
    }
    if (!hit && c.labels.is_object() && c.labels.contains(clause.key)) {
      hit = json_matches(c.labels[clause.key], clause.value);
    }
    if (!hit) return false;
  }
  return true;
}

/// The headline of one sweep and run, as the view headlines gives it: from the answer the store
/// keeps of it (headline_answers, the same rows) when it has one.
std::vector<HeadlineRow> headline_rows(store::Store& store, const store::SweepRecord& sweep,
                                       int run) {
  const char* source = store.headline_answered(sweep.id, run) ? "headline_answers" : "headlines";
  auto s = store.db().prepare(
      std::string("SELECT ") + kRowColumns +
      ", group_partition IS NOT NULL, group_order, coalesce(group_partition, 0), "
      "coalesce(group_nodes, 0), coalesce(group_ppn, 0), row_order FROM " +
      source +
      " WHERE sweep_id = ?1 AND run = ?2 "
      "ORDER BY group_order, env, group_partition, group_nodes, group_ppn, row_order");
  s.bind(1, sweep.id).bind(2, run);
  std::vector<HeadlineRow> out;
  while (s.step()) {
    auto row = read_row(s, sweep.name, 0);
    row.per_shape = s.int64(14) != 0;
    row.order = {s.int64(15), row.env.value_or(""), s.int64(16),
                 s.int64(17), s.int64(18),          s.int64(19)};
    out.push_back(std::move(row));
  }
  return out;
}

/// The headline of one sweep and run from the candidates that match every `where` clause:
/// per group, the matching candidate of the smallest rank (the view headline_ranks, the rule's
/// one order) wins, and headline_rows gives its rows; a figure without a matching candidate is
/// a row without a value.
std::vector<HeadlineRow> filtered_rows(store::Store& store, const store::SweepRecord& sweep,
                                       int run, const std::vector<WhereClause>& where) {
  auto candidates = store.db().prepare(
      "SELECT metric_id, figure, figure_order, group_partition IS NOT NULL, "
      "coalesce(group_partition, 0), coalesce(group_nodes, 0), coalesce(group_ppn, 0), "
      "partition, coalesce(nodes, 0), coalesce(ppn, 0), labels, "
      "(SELECT p.params_json FROM points p WHERE p.id = point_id), result_id, env "
      "FROM headline_ranks WHERE sweep_id = ?1 AND run = ?2 "
      "ORDER BY figure_order, env, group_partition, group_nodes, group_ppn, rank");
  candidates.bind(1, sweep.id).bind(2, run);
  auto documents = store.db().prepare("SELECT head FROM results WHERE id = ?1");
  auto rows = store.db().prepare(std::string("SELECT ") + kRowColumns +
                                 ", row_order FROM headline_rows WHERE winner = ?1");
  // A group: its environment, figure and partition shape.
  using Group = std::tuple<std::string, std::string, std::int64_t, std::int64_t, std::int64_t>;
  std::set<Group> decided;
  std::set<std::pair<std::string, std::string>> won;  // environment, figure
  std::vector<HeadlineRow> out;
  while (candidates.step()) {
    const auto env = candidates.optional_text(13);
    const Group group{env.value_or(""), candidates.text(1), candidates.int64(4),
                      candidates.int64(5), candidates.int64(6)};
    if (decided.count(group)) continue;
    Candidate c;
    c.partition = candidates.int64(7);
    c.nodes = candidates.int64(8);
    c.ppn = candidates.int64(9);
    c.labels = nlohmann::json::parse(candidates.text(10), nullptr, false);
    c.params = nlohmann::json::parse(candidates.text(11), nullptr, false);
    documents.reset();
    documents.bind(1, candidates.int64(12));
    if (documents.step()) c.document = nlohmann::json::parse(documents.text(0), nullptr, false);
    if (!matches(where, c)) continue;
    decided.insert(group);
    won.insert({std::get<0>(group), std::get<1>(group)});
    rows.reset();
    rows.bind(1, candidates.int64(0));
    while (rows.step()) {
      auto row = read_row(rows, sweep.name, 0);
      row.per_shape = candidates.int64(3) != 0;
      row.order = {candidates.int64(2), std::get<0>(group), std::get<2>(group),
                   std::get<3>(group),  std::get<4>(group), rows.int64(14)};
      out.push_back(std::move(row));
    }
  }
  // The figures of the sweep (in each of its environments) without a matching candidate.
  auto figures = store.db().prepare(
      "SELECT DISTINCT figure, group_order, env FROM headline_groups "
      "WHERE sweep_id = ?1 AND run = ?2");
  figures.bind(1, sweep.id).bind(2, run);
  while (figures.step()) {
    const std::string figure = figures.text(0);
    const auto env = figures.optional_text(2);
    if (won.count({env.value_or(""), figure})) continue;
    const auto* spec = metrics::find_figure(figure);
    HeadlineRow row;
    row.cells = {sweep.name, figure,
                 Cell{},     std::string(spec ? spec->unit : ""),
                 Cell{},     std::string("no result matches --where"),
                 Cell{},     Cell{},
                 Cell{},     Cell{},
                 Cell{},     Cell{}};
    row.env = env;
    row.order = {figures.int64(1), env.value_or(""), 0, 0, 0, figures.int64(1)};
    out.push_back(std::move(row));
  }
  std::stable_sort(out.begin(), out.end(),
                   [](const auto& a, const auto& b) { return a.order < b.order; });
  return out;
}

}  // namespace

QueryTable system_table(store::Store& store, const std::optional<std::string>& sweep,
                        const std::vector<WhereClause>& where) {
  if (sweep && !store.find_sweep(*sweep)) throw UsageError("no sweep named '" + *sweep + "'");
  QueryTable table;
  table.columns = {
      label_column("sweep"),
      label_column("figure"),
      {"value", "", "value", "", 1, 6, "unit"},
      label_column("unit"),
      label_column("partition", "procs"),
      label_column("at"),
      label_column("point"),
      label_column("job"),
      label_column("valid"),
      reason_column(),
      label_column("nodes"),
      label_column("ppn"),
  };
  // A sweep made with --envs: a column env after the sweep, a row of each figure per environment.
  add_env_column(store, sweep, table.columns);
  const bool with_env = table.columns.size() > 1 && table.columns[1].key == "env";
  // figure=NAME keeps that figure's rows; every other clause chooses the candidates.
  std::vector<WhereClause> candidates, figures;
  for (const auto& clause : where) {
    (clause.key == "figure" ? figures : candidates).push_back(clause);
  }
  const auto figure_kept = [&](const Cell& figure) {
    return std::all_of(figures.begin(), figures.end(), [&](const WhereClause& clause) {
      return cell_matches(figure, metrics::figure_spelling(clause.value));
    });
  };
  auto chosen = store.db().prepare("SELECT run_no FROM temp.chosen_run WHERE sweep_id = ?1");
  for (const auto& sw : store.sweeps()) {
    if (sweep && sw.name != *sweep) continue;
    chosen.reset();
    chosen.bind(1, sw.id);
    const int run = chosen.step() ? static_cast<int>(chosen.int64(0)) : 1;
    const auto rows = candidates.empty() ? headline_rows(store, sw, run)
                                         : filtered_rows(store, sw, run, candidates);
    for (const auto& row : rows) {
      if (!figure_kept(row.cells[1])) continue;
      // A winner that is not valid (no candidate was) is marked with its first reason; the
      // companions read with it are not marked again.
      const auto* valid = std::get_if<std::string>(&row.cells[8]);
      if (row.won && valid && *valid == "no") {
        const auto* reason = std::get_if<std::string>(&row.cells[9]);
        const auto* figure = std::get_if<std::string>(&row.cells[1]);
        const auto* partition = std::get_if<std::int64_t>(&row.cells[4]);
        table.notes.push_back("sweep " + sw.name + (row.env ? ", env " + *row.env : "") + ": " +
                              (figure ? *figure : std::string()) +
                              (row.per_shape && partition
                                   ? " on " + partition_text(*partition, row.shape) + " processes"
                                   : std::string()) +
                              ": no result is valid; shown is the best of the not valid ones " +
                              not_valid_mark(reason ? std::vector<std::string>{*reason}
                                                    : std::vector<std::string>{}));
      }
      auto cells = row.cells;
      if (with_env) cells.insert(cells.begin() + 1, row.env ? Cell{*row.env} : Cell{});
      table.rows.push_back(std::move(cells));
    }
  }
  table.notes.push_back(
      "a valid result wins over a better one that is not valid; ties go to the smaller "
      "partition, then the earlier point, then the smaller label (T, queue depth, size)");
  if (table.rows.empty()) table.notes.push_back("no sweep with results");
  return table;
}

}  // namespace pbench::query
