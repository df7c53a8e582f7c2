#include "query/SystemQuery.hpp"

#include <algorithm>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <tuple>

#include "query/Layout.hpp"
#include "query/ResultValidity.hpp"
#include "util/Error.hpp"

namespace pbench::query {
namespace {

// One metric value of the newest result of a point.
struct Candidate {
  std::int64_t point_id = 0;
  std::string point_key;
  std::int64_t partition = 0;
  std::int64_t nodes = 0;  // where the ranks ran (0: unknown)
  std::int64_t ppn = 0;
  std::string asked;  // the shape the point asked for ("" for a plain partition)
  bool valid = false;
  double value = 0;
  nlohmann::json labels;
  std::int64_t result_id = 0;
};

// A where clause matches a point parameter, hint or --set setting, an echoed setting, a metric
// label, or the partition; nodes and ppn are where the ranks ran. Values are compared in C++
// only.
bool matches(const std::vector<WhereClause>& where, const Candidate& c,
             const nlohmann::json& params, const nlohmann::json& document) {
  for (const auto& clause : where) {
    bool hit = false;
    if (clause.key == "partition") hit = json_matches(c.partition, clause.value);
    if (clause.key == "nodes" || clause.key == "ppn") {
      const std::int64_t v = clause.key == "nodes" ? c.nodes : c.ppn;
      if (v <= 0 || !json_matches(v, clause.value)) return false;
      continue;
    }
    if (!hit && params.is_object() && params.contains(clause.key)) {
      hit = json_matches(params[clause.key], clause.value);
    }
    if (!hit && params.is_object() && params.contains("settings") &&
        params["settings"].is_object() && params["settings"].contains(clause.key)) {
      hit = json_matches(params["settings"][clause.key], clause.value);
    }
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

// The point's parameters and the result's document, for --where clauses only.
std::pair<nlohmann::json, nlohmann::json> params_and_document(store::Store& store,
                                                              const Candidate& c) {
  auto s = store.db().prepare(
      "SELECT p.params_json, r.document FROM points p, results r WHERE p.id = ?1 AND r.id = ?2");
  s.bind(1, c.point_id).bind(2, c.result_id);
  if (!s.step()) return {nlohmann::json::object(), nlohmann::json::object()};
  return {nlohmann::json::parse(s.text(0), nullptr, false),
          nlohmann::json::parse(s.text(1), nullptr, false)};
}

// The `metric` values of the newest result of each `worker` point of a sweep that match.
// Index-only (the covering indexes results_by_point and metrics_by_name of schema/store.sql):
// the documents, parameters and jobs are read only where a --where clause or a winner needs them.
std::vector<Candidate> candidates(store::Store& store, std::int64_t sweep_id,
                                  const std::string& worker, const std::string& metric,
                                  const std::vector<WhereClause>& where) {
  auto s = store.db().prepare(
      "SELECT p.id, p.point_key, p.partition, r.valid, m.value, m.labels, r.id, " +
      std::string(kLayoutSql) +
      " FROM points p "
      "JOIN results r INDEXED BY results_by_point ON r.point_id = p.id "
      "AND r.id = " +
      std::string(store::kChosenResult) +
      " "
      "JOIN metrics m INDEXED BY metrics_by_name ON m.name = ?2 AND m.result_id = r.id "
      "WHERE p.sweep_id = ?1 AND p.worker = ?3 AND m.value IS NOT NULL ORDER BY p.id, m.id");
  s.bind(1, sweep_id).bind(2, metric).bind(3, worker);
  std::vector<Candidate> out;
  while (s.step()) {
    Candidate c;
    c.point_id = s.int64(0);
    c.point_key = s.text(1);
    c.partition = s.int64(2);
    c.valid = s.int64(3) != 0;
    c.value = s.real(4);
    c.labels = nlohmann::json::parse(s.text(5), nullptr, false);
    if (c.labels.is_discarded()) c.labels = nlohmann::json::object();
    // io results hold several partitions: the label says which.
    if (c.labels.contains("partition") && c.labels["partition"].is_number_integer()) {
      c.partition = c.labels["partition"].get<std::int64_t>();
    }
    c.result_id = s.int64(6);
    c.nodes = s.optional_int64(7).value_or(0);
    c.ppn = s.optional_int64(8).value_or(0);
    c.asked = s.optional_text(9).value_or("");
    if (!where.empty()) {
      const auto [params, document] = params_and_document(store, c);
      if (!matches(where, c, params, document)) continue;
    }
    out.push_back(std::move(c));
  }
  return out;
}

// b_eff_io as the reference code rev 2.1 computes it, the io headline: today's results store it
// as b_eff_io; results stored before pbench-io followed rev 2.1 store it as b_eff_io_rev2 (and
// the paper's arithmetic value as b_eff_io), so theirs is read from there.
std::vector<Candidate> io_headline_candidates(store::Store& store, std::int64_t sweep_id,
                                              const std::vector<WhereClause>& where) {
  auto legacy = candidates(store, sweep_id, "io", "b_eff_io_rev2", where);
  std::set<std::int64_t> legacy_results;
  for (const auto& c : legacy) legacy_results.insert(c.result_id);
  auto out = candidates(store, sweep_id, "io", "b_eff_io", where);
  std::erase_if(out, [&](const Candidate& c) { return legacy_results.count(c.result_id) > 0; });
  out.insert(out.end(), legacy.begin(), legacy.end());
  return out;
}

// The job of the attempt that gave a result, if any.
std::optional<std::string> job_of(store::Store& store, std::int64_t result_id) {
  auto s = store.db().prepare(
      "SELECT a.job_id FROM results r JOIN attempts a ON a.id = r.attempt_id WHERE r.id = ?1");
  s.bind(1, result_id);
  if (!s.step()) return std::nullopt;
  return s.optional_text(0);
}

// The winner: valid first, then the best value (largest or smallest), then the tie rule.
const Candidate* best(const std::vector<Candidate>& all, bool largest) {
  const Candidate* win = nullptr;
  for (const auto& c : all) {
    if (win == nullptr) {
      win = &c;
      continue;
    }
    if (c.valid != win->valid) {
      if (c.valid) win = &c;
      continue;
    }
    if (c.value != win->value) {
      if (largest ? c.value > win->value : c.value < win->value) win = &c;
      continue;
    }
    const auto a = std::make_tuple(c.partition, c.point_id, c.labels.dump());
    const auto b = std::make_tuple(win->partition, win->point_id, win->labels.dump());
    if (a < b) win = &c;
  }
  return win;
}

// Another metric of the same result with the same labels (restricted to `keys`).
std::optional<double> companion(store::Store& store, const Candidate& c, const std::string& name,
                                const std::vector<std::string>& keys) {
  auto s = store.db().prepare(
      "SELECT value, labels FROM metrics WHERE result_id = ?1 AND name = ?2 ORDER BY id");
  s.bind(1, c.result_id).bind(2, name);
  while (s.step()) {
    if (s.is_null(0)) continue;
    const auto labels = nlohmann::json::parse(s.text(1), nullptr, false);
    if (labels.is_discarded()) continue;
    bool same = true;
    for (const auto& k : keys) {
      const bool here = labels.contains(k), there = c.labels.contains(k);
      if (here != there || (here && labels[k] != c.labels[k])) same = false;
    }
    if (same) return s.real(0);
  }
  return std::nullopt;
}

std::string number(double v) {
  char text[64];
  std::snprintf(text, sizeof(text), "%.6g", v);
  return text;
}

std::string document_setting(store::Store& store, std::int64_t result_id, const std::string& key) {
  auto s = store.db().prepare("SELECT document FROM results WHERE id = ?1");
  s.bind(1, result_id);
  if (!s.step()) return "?";
  const auto doc = nlohmann::json::parse(s.text(0), nullptr, false);
  if (doc.is_discarded() || !doc.contains("parameters") || !doc["parameters"].contains(key)) {
    return "?";
  }
  const auto& v = doc["parameters"][key];
  const auto& value = v.is_object() && v.contains("value") ? v["value"] : v;
  return value.is_string() ? value.get<std::string>() : value.dump();
}

std::string hints_of(store::Store& store, std::int64_t point_id) {
  auto s = store.db().prepare("SELECT params_json FROM points WHERE id = ?1");
  s.bind(1, point_id);
  if (!s.step()) return "-";
  const auto params = nlohmann::json::parse(s.text(0), nullptr, false);
  if (params.is_discarded() || !params.contains("hints") || !params["hints"].is_string() ||
      params["hints"].get<std::string>().empty()) {
    return "-";
  }
  return params["hints"].get<std::string>();
}

/// Processes, nodes and processes per node: 4x1 and 2x2 are different cells of 4 processes.
using Shape = std::tuple<std::int64_t, std::int64_t, std::int64_t>;

struct Builder {
  store::Store& store;
  QueryTable& table;
  std::string sweep;

  /// A headline row. A winner that is not valid (no candidate was) carries its first reason in
  /// the table and, unless `companion` (another figure of a winner already noted), a note that
  /// marks it "(not valid: <first reason>)".
  void row(const std::string& figure, const std::string& unit, const Candidate* c,
           std::optional<std::int64_t> partition, const std::string& at,
           std::optional<double> value, bool companion = false) {
    auto cell_of = [](const auto& v) -> Cell {
      if (v) return *v;
      return {};
    };
    std::optional<std::int64_t> part =
        partition ? partition : (c ? std::optional(c->partition) : std::nullopt);
    const auto job = c ? job_of(store, c->result_id) : std::nullopt;
    Cell reason;
    if (c && !c->valid) {
      const auto reasons = validity_reasons(store, c->result_id);
      if (!reasons.empty()) reason = reasons.front();
      if (!companion) {
        table.notes.push_back("sweep " + sweep + ": " + figure +
                              (partition
                                   ? " on " + partition_text(*partition, c->asked) + " processes"
                                   : std::string()) +
                              ": no result is valid; shown is the best of the not valid ones " +
                              not_valid_mark(reasons));
      }
    }
    table.rows.push_back({sweep, figure, cell_of(value), unit, cell_of(part), at,
                          c ? Cell{c->point_key} : Cell{}, job ? Cell{*job} : Cell{},
                          c ? Cell{std::string(c->valid ? "yes" : "no")} : Cell{}, reason,
                          c ? count_cell(c->nodes) : Cell{}, c ? count_cell(c->ppn) : Cell{}});
  }
  void missing(const std::string& figure, const std::string& unit, const std::string& why) {
    row(figure, unit, nullptr, std::nullopt, why, std::nullopt);
  }
};

}  // namespace

QueryTable system_table(store::Store& store, const std::optional<std::string>& sweep,
                        const std::vector<WhereClause>& where) {
  if (sweep && !store.find_sweep(*sweep)) throw UsageError("no sweep named '" + *sweep + "'");
  QueryTable table;
  table.columns = {
      {"sweep", "", "sweep", "", 1, 0},     {"figure", "", "figure", "", 1, 0},
      {"value", "", "value", "", 1, 6, "unit"}, {"unit", "", "unit", "", 1, 0},
      {"partition", "", "procs", "", 1, 0}, {"at", "", "at", "", 1, 0},
      {"point", "", "point", "", 1, 0},     {"job", "", "job", "", 1, 0},
      {"valid", "", "valid", "", 1, 0},     {"reason", "", "first reason", "", 1, 0},
      {"nodes", "", "nodes", "", 1, 0},     {"ppn", "", "ppn", "", 1, 0},
  };
  const std::string no_result = where.empty() ? "no result" : "no result matches --where";
  for (const auto& sw : store.sweeps()) {
    if (sweep && sw.name != *sweep) continue;
    std::set<std::string> workers;
    auto w = store.db().prepare("SELECT DISTINCT worker FROM points WHERE sweep_id = ?1");
    w.bind(1, sw.id);
    while (w.step()) workers.insert(w.text(0));
    Builder b{store, table, sw.name};

    if (workers.count("io")) {
      const auto all = io_headline_candidates(store, sw.id, where);
      if (const Candidate* c = best(all, true)) {
        const auto t = companion(store, *c, "schedule_time", {"partition"});
        b.row("b_eff_io", "B/s", c, std::nullopt,
              "T=" + (t ? number(*t) + " s" : std::string("?")) +
                  ", hints=" + hints_of(store, c->point_id),
              c->value);
      } else {
        b.missing("b_eff_io", "B/s", no_result);
      }
    }
    if (workers.count("comm")) {
      for (const std::string figure : {"b_eff", "b_eff_per_process"}) {
        const auto all = candidates(store, sw.id, "comm", figure, where);
        if (const Candidate* c = best(all, true)) {
          b.row(figure, "B/s", c, std::nullopt, "", c->value);
        } else {
          b.missing(figure, "B/s", no_result);
        }
      }
    }
    if (workers.count("logp")) {
      const auto all = candidates(store, sw.id, "logp", "g", where);
      std::map<Shape, std::vector<Candidate>> by_partition;
      for (const auto& c : all) by_partition[{c.partition, c.nodes, c.ppn}].push_back(c);
      if (by_partition.empty()) b.missing("logp g", "s", no_result);
      for (const auto& [shape, list] : by_partition) {
        const std::int64_t partition = std::get<0>(shape);
        const Candidate* c = best(list, false);
        const std::string q =
            c->labels.contains("queue_depth") ? "q=" + c->labels["queue_depth"].dump() : "";
        b.row("logp g", "s", c, partition, q, c->value);
        b.row("logp G", "s/B", c, partition, q, companion(store, *c, "big_g", {"queue_depth"}),
              true);
        b.row("logp o_s", "s", c, partition, q, companion(store, *c, "o_s", {}), true);
        b.row("logp o_r", "s", c, partition, q, companion(store, *c, "o_r", {}), true);
        b.row("logp L", "s", c, partition, q, companion(store, *c, "latency_l", {}), true);
      }
    }
    if (workers.count("bcast")) {
      const auto all = candidates(store, sw.id, "bcast", "ol", where);
      // Per partition, the OL at the smallest size measured there.
      std::map<Shape, std::vector<Candidate>> by_partition;
      for (const auto& c : all) {
        if (c.labels.contains("size") && c.labels["size"].is_number()) {
          by_partition[{c.partition, c.nodes, c.ppn}].push_back(c);
        }
      }
      if (by_partition.empty()) b.missing("bcast ol", "s", no_result);
      for (auto& [shape, list] : by_partition) {
        const std::int64_t partition = std::get<0>(shape);
        double smallest = list.front().labels["size"].get<double>();
        for (const auto& c : list) smallest = std::min(smallest, c.labels["size"].get<double>());
        std::vector<Candidate> at_smallest;
        for (const auto& c : list) {
          if (c.labels["size"].get<double>() == smallest) at_smallest.push_back(c);
        }
        const Candidate* c = best(at_smallest, false);
        b.row("bcast ol", "s", c, partition,
              "size=" + c->labels["size"].dump() +
                  " B, impl=" + document_setting(store, c->result_id, "impl"),
              c->value);
      }
    }
  }
  table.notes.push_back(
      "a valid result wins over a better one that is not valid; ties go to the smaller "
      "partition, then the earlier point, then the smaller label (T, queue depth, size)");
  if (table.rows.empty()) table.notes.push_back("no sweep with results");
  return table;
}

}  // namespace pbench::query
