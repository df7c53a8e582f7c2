#include "query/CompareQuery.hpp"

#include <map>
#include <tuple>

#include "common/MetricCatalogue.hpp"
#include "query/SystemQuery.hpp"
#include "util/Error.hpp"

namespace pbench::query {
namespace {

// Columns of system_table used here.
constexpr std::size_t kFigure = 1, kValue = 2, kUnit = 3, kPartition = 4, kAt = 5, kValid = 8,
                      kReason = 9, kNodes = 10, kPpn = 11;

// "2x1" for a row's layout, "" when unknown.
std::string shape_of(const std::vector<Cell>* row) {
  if (!row) return "";
  const auto* n = std::get_if<std::int64_t>(&(*row)[kNodes]);
  const auto* p = std::get_if<std::int64_t>(&(*row)[kPpn]);
  return n && p ? std::to_string(*n) + "x" + std::to_string(*p) : "";
}

// One side's headline rows without the column env (a sweep made with --envs) and each row's
// environment to match it by: "" when the side names its own environment (--envs) or has none.
struct SideRows {
  std::vector<std::vector<Cell>> rows;
  std::map<const std::vector<Cell>*, std::string> env;
};
SideRows side_rows(QueryTable table, bool env_named) {
  SideRows out;
  const bool with_env = table.columns.size() > 1 && table.columns[1].key == "env";
  std::vector<std::string> envs;
  for (auto& row : table.rows) {
    std::string env;
    if (with_env) {
      if (const auto* e = std::get_if<std::string>(&row[1])) env = *e;
      row.erase(row.begin() + 1);
    }
    envs.push_back(env_named ? "" : env);
    out.rows.push_back(std::move(row));
  }
  for (std::size_t i = 0; i < out.rows.size(); ++i) out.env[&out.rows[i]] = envs[i];
  return out;
}

// Rows are matched within one environment (when neither side names its own). Maxima over
// partitions are matched by figure alone; per-partition figures (LogP, bcast) by figure,
// partition and shape (a figure of a shape the other sweep lacks is then matched by figure and
// partition alone, and the table says that the shapes differ).
std::tuple<std::string, std::string, std::string> key_of(const std::vector<Cell>& row,
                                                         const std::string& env,
                                                         bool with_shape = true) {
  const auto& figure = std::get<std::string>(row[kFigure]);
  if (figure == "b_eff_io" || figure == "b_eff" || figure == "b_eff_per_process") {
    return {env, figure, ""};
  }
  const auto* p = std::get_if<std::int64_t>(&row[kPartition]);
  std::string key = p ? std::to_string(*p) : std::string();
  if (with_shape) key += " " + shape_of(&row);
  return {env, figure, key};
}

bool not_valid(const std::vector<Cell>* row) {
  const auto* valid = row ? std::get_if<std::string>(&(*row)[kValid]) : nullptr;
  return valid && *valid == "no";
}

// The clauses of one side: the common ones and its environment's (env=NAME), once the sweep is
// known to have points of that environment.
std::vector<WhereClause> side_where(store::Store& store, const CompareSide& side,
                                    std::vector<WhereClause> where) {
  if (!side.env) return where;
  if (!store.find_sweep(side.sweep)) throw UsageError("no sweep named '" + side.sweep + "'");
  auto s = store.db().prepare(
      "SELECT DISTINCT json_extract(p.params_json, '$.env') FROM points p "
      "JOIN sweeps sw ON sw.id = p.sweep_id "
      "WHERE sw.name = ?1 AND json_type(p.params_json, '$.env') = 'text' ORDER BY 1");
  s.bind(1, side.sweep);
  std::string known;
  bool found = false;
  while (s.step()) {
    found = found || s.text(0) == *side.env;
    known += (known.empty() ? "" : ", ") + s.text(0);
  }
  if (!found) {
    throw UsageError("sweep '" + side.sweep + "' has no environment '" + *side.env + "' (" +
                     (known.empty() ? std::string("it was not made with --envs")
                                    : "its environments: " + known) +
                     ")");
  }
  where.push_back({"env", *side.env});
  return where;
}

// The table's columns, A's and B's values headed by their sweeps; a_shape, b_shape: each
// side's nodes x processes per node (a note says where they differ).
std::vector<QueryColumn> compare_columns(const std::string& sweep_a, const std::string& sweep_b) {
  return {label_column("figure"),
          label_column("unit"),
          label_column("better"),
          {"a", "", sweep_a, "", 1, 6, "unit"},
          label_column("a_partition", "procs"),
          label_column("a_at", "at"),
          label_column("a_valid", "valid"),
          {"b", "", sweep_b, "", 1, 6, "unit"},
          label_column("b_partition", "procs"),
          label_column("b_at", "at"),
          label_column("b_valid", "valid"),
          {"ratio", "", "B/A", "", 1, 4},
          label_column("a_shape", "A shape"),
          label_column("b_shape", "B shape")};
}

}  // namespace

std::string CompareSide::label() const {
  return env ? sweep + " env=" + *env : sweep;
}

QueryTable compare_table(store::Store& store, const std::string& sweep_a,
                         const std::string& sweep_b, const std::vector<WhereClause>& where) {
  return compare_table(store, CompareSide{sweep_a, std::nullopt},
                       CompareSide{sweep_b, std::nullopt}, where);
}

QueryTable compare_table(store::Store& store, const CompareSide& side_a, const CompareSide& side_b,
                         const std::vector<WhereClause>& where) {
  const auto a = side_rows(system_table(store, side_a.sweep, side_where(store, side_a, where)),
                           side_a.env.has_value() || side_b.env.has_value());
  const auto b = side_rows(system_table(store, side_b.sweep, side_where(store, side_b, where)),
                           side_a.env.has_value() || side_b.env.has_value());
  bool by_env = false;
  for (const auto* side : {&a, &b}) {
    for (const auto& [row, env] : side->env) by_env = by_env || !env.empty();
  }
  const std::string sweep_a = side_a.label(), sweep_b = side_b.label();
  QueryTable table;
  table.columns = compare_columns(sweep_a, sweep_b);
  // Sweeps made with --envs, compared whole: a row per figure and environment.
  if (by_env) table.columns.insert(table.columns.begin() + 1, label_column("env"));
  // Rows in A's order, then the figures only B has.
  using Key = std::tuple<std::string, std::string, std::string>;
  std::map<Key, const std::vector<Cell>*> of_b;
  std::map<Key, std::vector<const std::vector<Cell>*>> of_b_any_shape;
  for (const auto& row : b.rows) {
    of_b[key_of(row, b.env.at(&row))] = &row;
    of_b_any_shape[key_of(row, b.env.at(&row), false)].push_back(&row);
  }
  std::map<const std::vector<Cell>*, bool> used;  // B's rows matched with one of A
  bool unsigned_ratio = false;
  auto add = [&](const std::vector<Cell>* ra, const std::vector<Cell>* rb) {
    const auto& any = ra ? *ra : *rb;
    Cell ratio;
    if (ra && rb) {
      const auto* va = std::get_if<double>(&(*ra)[kValue]);
      const auto* vb = std::get_if<double>(&(*rb)[kValue]);
      // A ratio of a value of zero or less says nothing (B/A of a negative latency flips the
      // comparison): only positive values are compared.
      if (va && vb && *va > 0 && *vb > 0) {
        ratio = *vb / *va;
      } else if (va && vb) {
        unsigned_ratio = true;
      }
    }
    auto cell = [](const std::vector<Cell>* r, std::size_t c) { return r ? (*r)[c] : Cell{}; };
    auto shape = [](const std::vector<Cell>* r) -> Cell {
      const auto text = shape_of(r);
      return text.empty() ? Cell{} : Cell{text};
    };
    const auto& figure = std::get<std::string>(any[kFigure]);
    const auto* spec = metrics::find_figure(figure);
    table.rows.push_back({any[kFigure], any[kUnit],
                          spec ? Cell{std::string(metrics::to_string(spec->better))} : Cell{},
                          cell(ra, kValue), cell(ra, kPartition), cell(ra, kAt), cell(ra, kValid),
                          cell(rb, kValue), cell(rb, kPartition), cell(rb, kAt), cell(rb, kValid),
                          ratio, shape(ra), shape(rb)});
    const std::string env = ra ? a.env.at(ra) : b.env.at(rb);
    if (by_env) {
      table.rows.back().insert(table.rows.back().begin() + 1, env.empty() ? Cell{} : Cell{env});
    }
    // Figures measured in different layouts: 2x1 is the network, 1x2 memory.
    if (ra && rb && shape_of(ra) != shape_of(rb) && !shape_of(ra).empty() &&
        !shape_of(rb).empty()) {
      table.notes.push_back(figure + (env.empty() ? "" : " in env " + env) +
                            ": the shapes differ: A (" + sweep_a + ") ran on " + shape_of(ra) +
                            ", B (" + sweep_b + ") on " + shape_of(rb) +
                            " (nodes x processes per node)");
    }
    // Each side's figure that is not valid, marked with its first reason (an oversubscription in
    // a word: a figure per row would repeat it).
    for (const auto& [side, sweep, row] : {std::tuple{"A", &sweep_a, ra}, {"B", &sweep_b, rb}}) {
      if (!not_valid(row)) continue;
      const auto* reason = std::get_if<std::string>(&(*row)[kReason]);
      const auto* partition = std::get_if<std::int64_t>(&(*row)[kPartition]);
      table.notes.push_back(std::string(side) + " (" + *sweep + "): " + figure +
                            (env.empty() ? "" : " in env " + env) +
                            (partition ? " on " + std::to_string(*partition) + " processes" : "") +
                            " (not valid" + (reason ? ": " + reason_cell(*reason) : std::string()) +
                            ")");
    }
  };
  // Same figure, partition and shape first; then what is left by figure and partition.
  std::vector<std::pair<const std::vector<Cell>*, const std::vector<Cell>*>> matched;
  for (const auto& row : a.rows) {
    const auto it = of_b.find(key_of(row, a.env.at(&row)));
    const std::vector<Cell>* other = it == of_b.end() ? nullptr : it->second;
    if (other) used[other] = true;
    matched.emplace_back(&row, other);
  }
  for (auto& [ra, rb] : matched) {
    if (rb) continue;
    for (const auto* candidate : of_b_any_shape[key_of(*ra, a.env.at(ra), false)]) {
      if (!used[candidate]) {
        used[candidate] = true;
        rb = candidate;
        break;
      }
    }
  }
  for (const auto& [ra, rb] : matched) add(ra, rb);
  for (const auto& row : b.rows) {
    if (!used[&row]) add(nullptr, &row);
  }
  table.notes.push_back("ratio = " + sweep_b + " / " + sweep_a +
                        "; better: which way is better for the figure (higher or lower)");
  if (unsigned_ratio) {
    table.notes.push_back("no ratio where a value is zero or less");
  }
  return table;
}

}  // namespace pbench::query
