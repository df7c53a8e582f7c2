#include "query/IoQuery.hpp"
#include "query/EnvColumn.hpp"
#include "query/IoConsortiumQuery.hpp"
#include "query/Layout.hpp"
#include "query/MissingCells.hpp"

#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>
#include <tuple>

#include "query/ResultValidity.hpp"
#include "util/Error.hpp"

namespace pbench::query {
namespace {

/// One partition of one result.
struct Row {
  std::string sweep;
  std::int64_t partition = 0;
  std::int64_t nodes = 0;  // where the job's ranks ran (0: unknown)
  std::int64_t ppn = 0;
  std::string hints;
  std::map<std::string, double> values;  // "write", "b_eff_io", "schedule_time", ...
  bool valid = true;
  std::int64_t result_id = 0;
  bool legacy = false;  ///< stored before pbench-io computed b_eff_io as rev 2.1
};

/// Results stored before pbench-io computed b_eff_io as rev 2.1 does carry the paper's value
/// under "b_eff_io" and rev 2.1's sqrt(WR * R) under "b_eff_io_rev2": read them under today's
/// names (b_eff_io is rev 2.1's, b_eff_io_paper the paper's).
void read_legacy_names(Row& row) {
  auto& v = row.values;
  if (!v.count("b_eff_io_rev2")) return;
  row.legacy = true;
  if (auto paper = v.find("b_eff_io"); paper != v.end()) v["b_eff_io_paper"] = paper->second;
  v.erase("b_eff_io");
  v["b_eff_io"] = v["b_eff_io_rev2"];
  v.erase("b_eff_io_rev2");
}

std::string megabytes(double bytes_per_second) {
  char text[64];
  std::snprintf(text, sizeof(text), "%.3f MB/s", bytes_per_second / 1e6);
  return text;
}

std::string seconds(double s) {
  char text[64];
  std::snprintf(text, sizeof(text), "%g s", s);
  return text;
}

}  // namespace

QueryTable io_table(store::Store& store, const std::optional<std::string>& sweep) {
  if (sweep && !store.find_sweep(*sweep)) throw UsageError("no sweep named '" + *sweep + "'");
  QueryTable table;
  table.columns = {
      {"sweep", "", "sweep", "", 1, 0},
      {"partition", "", "procs", "", 1, 0},
      nodes_column(),
      ppn_column(),
      {"schedule_time", "s", "T", "s", 1, 4},
      {"hints", "", "hints", "", 1, 0},
      {"write", "B/s", "write", "MB/s", 1e-6, 4},
      {"rewrite", "B/s", "rewrite", "MB/s", 1e-6, 4},
      {"read", "B/s", "read", "MB/s", 1e-6, 4},
      {"b_eff_io", "B/s", "b_eff_io", "MB/s", 1e-6, 4},
      {"b_eff_io_paper", "B/s", "paper", "MB/s", 1e-6, 4},
      {"elapsed", "s", "elapsed", "s", 1, 4},
      {"valid", "", "valid", "", 1, 0},
      {"reason", "", "first reason", "", 1, 0},
  };
  auto s = store.db().prepare(
      "SELECT sw.name, p.params_json, r.id, r.valid, r.document, m.name, m.value, m.labels, "
      "r.placement, " +
      std::string(kLayoutSql) +
      " FROM points p JOIN sweeps sw ON sw.id = p.sweep_id "
      "JOIN results r ON r.id = " +
      std::string(store::kChosenResult) +
      " "
      "LEFT JOIN metrics m ON m.result_id = r.id "
      "WHERE p.worker = 'io' AND (?1 IS NULL OR sw.name = ?1) ORDER BY sw.id, p.partition, p.id");
  s.bind(1, sweep);
  // (result id, partition) -> row, in the order met.
  std::map<std::pair<std::int64_t, std::int64_t>, Row> rows;
  std::vector<std::pair<std::int64_t, std::int64_t>> order;
  std::map<std::int64_t, bool> noted;
  std::map<std::int64_t, std::vector<std::string>> reasons;  // of the results that are not valid
  std::vector<std::int64_t> not_valid;                       // their ids, in the order met
  while (s.step()) {
    const std::int64_t result_id = s.int64(2);
    if (s.int64(3) == 0 && !reasons.count(result_id)) {
      reasons[result_id] =
          validity_reasons(nlohmann::json::parse(s.text(4), nullptr, false), s.optional_text(8));
      not_valid.push_back(result_id);
    }
    const auto params = nlohmann::json::parse(s.text(1), nullptr, false);
    std::string hints = "-";
    if (!params.is_discarded() && params.contains("hints") && params["hints"].is_string() &&
        !params["hints"].get<std::string>().empty()) {
      hints = params["hints"].get<std::string>();
    }
    if (s.is_null(5) || s.is_null(6)) {
      if (s.is_null(5) && !noted[result_id]) {
        noted[result_id] = true;
        const auto doc = nlohmann::json::parse(s.text(4), nullptr, false);
        std::string why = "no measurement";
        if (!doc.is_discarded() && !doc["validity"]["reasons"].empty()) {
          why = doc["validity"]["reasons"][0].get<std::string>();
        }
        table.notes.push_back("sweep " + s.text(0) + ": " + why);
      }
      continue;
    }
    const std::string name = s.text(5);
    const auto labels = nlohmann::json::parse(s.text(7), nullptr, false);
    if (labels.is_discarded() || !labels.contains("partition") ||
        !labels["partition"].is_number_integer()) {
      continue;
    }
    const std::int64_t partition = labels["partition"].get<std::int64_t>();
    std::string column;
    if (name == "access_bandwidth" && labels.contains("access")) {
      column = labels["access"].get<std::string>();
    } else if (name == "b_eff_io" || name == "b_eff_io_paper" || name == "b_eff_io_rev2" ||
               name == "schedule_time" || name == "elapsed") {
      column = name;
    } else {
      continue;
    }
    const auto key = std::make_pair(result_id, partition);
    auto [it, inserted] = rows.try_emplace(key);
    if (inserted) {
      order.push_back(key);
      it->second.sweep = s.text(0);
      it->second.partition = partition;
      it->second.nodes = s.optional_int64(9).value_or(0);
      it->second.ppn = s.optional_int64(10).value_or(0);
      it->second.hints = hints;
      it->second.valid = s.int64(3) != 0;
      it->second.result_id = result_id;
    }
    it->second.values[column] = s.real(6);
  }
  // The system value: the maximum over partitions, per sweep, T and hint set.
  using Group = std::tuple<std::string, double, std::string>;
  std::map<Group, std::pair<double, const Row*>> best;
  std::vector<Group> groups;
  bool any_legacy = false;
  for (auto& [key, row] : rows) {
    read_legacy_names(row);
    any_legacy = any_legacy || row.legacy;
  }
  std::vector<std::int64_t> row_results;  // of each row, for the column env
  for (const auto& key : order) {
    const Row& row = rows[key];
    row_results.push_back(row.result_id);
    auto metric = [&](const char* name) -> Cell {
      auto it = row.values.find(name);
      return it == row.values.end() ? Cell{} : Cell{it->second};
    };
    Cell reason;
    if (!row.valid && !reasons[row.result_id].empty()) reason = reasons[row.result_id].front();
    table.rows.push_back({row.sweep, row.partition, count_cell(row.nodes), count_cell(row.ppn),
                          metric("schedule_time"), row.hints, metric("write"), metric("rewrite"),
                          metric("read"), metric("b_eff_io"), metric("b_eff_io_paper"),
                          metric("elapsed"), std::string(row.valid ? "yes" : "no"), reason});
    auto value = row.values.find("b_eff_io");
    if (value == row.values.end()) continue;
    const Group group{row.sweep,
                      row.values.count("schedule_time") ? row.values.at("schedule_time") : 0.0,
                      row.hints};
    // A valid row wins over a larger one that is not valid.
    auto [it, inserted] = best.try_emplace(group, value->second, &row);
    if (inserted) groups.push_back(group);
    const Row& held = *it->second.second;
    if ((row.valid && !held.valid) ||
        (row.valid == held.valid && value->second > it->second.first)) {
      it->second = {value->second, &row};
    }
  }
  add_env_column(store, table, row_results);
  if (!table.rows.empty()) {
    table.notes.push_back(
        "b_eff_io as b_eff_io rev 2.1 computes it: sqrt(WR * R), WR the mean of the five write "
        "types and the type 0 rewrite, R the read average with type 0 counted twice; paper: the "
        "paper's arithmetic b_eff_io, 0.25 write + 0.25 rewrite + 0.5 read");
  }
  if (any_legacy) {
    table.notes.push_back(
        "results stored before pbench-io followed rev 2.1 ran with T per partition split T/3 "
        "per access method; their b_eff_io is the sqrt(WR * R) they recorded as rev-2");
  }
  for (const auto& group : groups) {
    const auto& [value, row] = best[group];
    table.notes.push_back("system b_eff_io of sweep " + std::get<0>(group) + " (T " +
                          seconds(std::get<1>(group)) + ", hints " + std::get<2>(group) + "): " +
                          megabytes(value) + " at partition " + std::to_string(row->partition) +
                          (row->valid ? ""
                                      : ", the best of the not valid results " +
                                            not_valid_mark(reasons[row->result_id])));
  }
  // Why each result that is not valid is not, all its worker's reasons (like query bcast).
  for (std::int64_t result_id : not_valid) {
    std::string sweep_name, partitions;
    int count = 0;
    for (const auto& key : order) {
      if (key.first != result_id) continue;
      sweep_name = rows[key].sweep;
      partitions += (partitions.empty() ? "" : ",") + std::to_string(key.second);
      ++count;
    }
    if (count == 0) continue;  // no measurement: noted above with its first reason
    for (const auto& reason : reasons[result_id]) {
      table.notes.push_back("sweep " + sweep_name +
                            (count == 1 ? ", partition " : ", partitions ") + partitions +
                            ": not valid: " + reason);
    }
  }
  if (const std::int64_t n = count_consortium_results(store, sweep); n > 0) {
    table.notes.push_back(std::to_string(n) + " io point(s) ran the consortium suite: see " +
                          "pbench query io --suite consortium");
  }
  add_missing_cell_notes(store, "io", sweep, table);
  return table;
}

}  // namespace pbench::query
