#include "query/LogpQuery.hpp"
#include "query/EnvColumn.hpp"
#include "query/Layout.hpp"
#include "query/MissingCells.hpp"

#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <tuple>

#include "util/Error.hpp"

namespace pbench::query {
namespace {

struct Row {
  std::map<std::string, double> values;  // metric name -> value
  bool valid = true;
};

// Metrics without a queue depth label apply to every queue depth of their result.
const std::set<std::string> kPerRun = {"eel_min", "o_s", "o_r", "latency_l"};
const std::set<std::string> kPerDepth = {"g", "big_g", "bandwidth", "large_message_threshold"};

}  // namespace

QueryTable logp_table(store::Store& store, const std::optional<std::string>& sweep) {
  if (sweep && !store.find_sweep(*sweep)) throw UsageError("no sweep named '" + *sweep + "'");
  QueryTable table;
  table.columns = {
      {"sweep", "", "sweep", "", 1, 0},
      {"partition", "", "procs", "", 1, 0},
      nodes_column(),
      ppn_column(),
      {"queue_depth", "", "q", "", 1, 0},
      {"eel", "s", "EEL", "us", 1e6, 3},
      {"o_s", "s", "o_s", "us", 1e6, 3},
      {"o_r", "s", "o_r", "us", 1e6, 3},
      {"g", "s", "g", "us", 1e6, 3},
      {"big_g", "s/B", "G", "ns/B", 1e9, 3},
      {"bandwidth", "B/s", "1/G", "MB/s", 1e-6, 4},
      {"latency_l", "s", "L", "us", 1e6, 3},
      {"large_message_threshold", "B", "M=g/G", "B", 1, 4},
      {"valid", "", "valid", "", 1, 0},
  };
  // The newest result of each point of the chosen sweep(s), with its metrics.
  auto s = store.db().prepare(
      "SELECT sw.name, p.partition, p.params_json, r.id, r.valid, r.document, m.name, m.value, "
      "m.labels, " +
      std::string(kLayoutSql) +
      " FROM points p JOIN sweeps sw ON sw.id = p.sweep_id "
      "JOIN results r ON r.id = " +
      std::string(store::kChosenResult) +
      " "
      "LEFT JOIN metrics m ON m.result_id = r.id "
      "WHERE p.worker = 'logp' AND (?1 IS NULL OR sw.name = ?1) ORDER BY sw.id, p.partition, p.id");
  s.bind(1, sweep);
  // sweep, partition, nodes, processes per node (0: unknown), result, q: two points of one
  // partition (4x1 and 2x2, or 2 and 1x2) are rows of their own.
  using Key =
      std::tuple<std::string, std::int64_t, std::int64_t, std::int64_t, std::int64_t, std::int64_t>;
  std::map<Key, Row> rows;
  std::map<std::int64_t, std::tuple<std::string, std::int64_t, std::map<std::string, double>>>
      per_run;  // result id -> (sweep, partition, run-wide metrics)
  std::map<std::int64_t, bool> validity;
  std::set<std::int64_t> noted;
  while (s.step()) {
    const std::string sweep_name = s.text(0);
    const std::int64_t partition = s.int64(1);
    const std::int64_t result_id = s.int64(3);
    const std::int64_t nodes = s.optional_int64(9).value_or(0);
    const std::int64_t ppn = s.optional_int64(10).value_or(0);
    const std::string asked = s.optional_text(11).value_or("");
    validity[result_id] = s.int64(4) != 0;
    auto& run = per_run[result_id];
    std::get<0>(run) = sweep_name;
    std::get<1>(run) = partition;
    if (s.is_null(6)) {
      // A result without metrics: say why (the worker's validity reasons).
      if (noted.insert(result_id).second) {
        const auto doc = nlohmann::json::parse(s.text(5), nullptr, false);
        std::string why = "no measurement";
        if (!doc.is_discarded() && !doc["validity"]["reasons"].empty()) {
          why = doc["validity"]["reasons"][0].get<std::string>();
        }
        table.notes.push_back("sweep " + sweep_name + ", partition " +
                              partition_text(partition, asked) + ": " + why);
      }
      continue;
    }
    const std::string name = s.text(6);
    if (s.is_null(7)) continue;
    const double value = s.real(7);
    const auto labels = nlohmann::json::parse(s.text(8), nullptr, false);
    if (kPerRun.count(name) && (labels.is_discarded() || labels.empty())) {
      std::get<2>(run)[name] = value;
    } else if (kPerDepth.count(name) && labels.contains("queue_depth")) {
      const Key key{sweep_name, partition, nodes,
                    ppn,        result_id, labels["queue_depth"].get<std::int64_t>()};
      rows[key].values[name] = value;
      rows[key].valid = validity[result_id];
      rows[key].values["__result"] = static_cast<double>(result_id);
    }
  }
  std::vector<std::int64_t> row_results;
  for (auto& [key, row] : rows) {
    const auto result_id = static_cast<std::int64_t>(row.values["__result"]);
    row_results.push_back(result_id);
    for (const auto& [name, value] : std::get<2>(per_run[result_id])) row.values[name] = value;
    // Not [&]: clang before 16 cannot capture a structured binding (row).
    auto metric = [&values = row.values](const char* name) -> Cell {
      auto it = values.find(name);
      return it == values.end() ? Cell{} : Cell{it->second};
    };
    table.rows.push_back(
        {std::get<0>(key), std::get<1>(key), count_cell(std::get<2>(key)),
         count_cell(std::get<3>(key)), std::get<5>(key), metric("eel_min"), metric("o_s"),
         metric("o_r"), metric("g"), metric("big_g"), metric("bandwidth"), metric("latency_l"),
         metric("large_message_threshold"), std::string(row.valid ? "yes" : "no")});
  }
  add_env_column(store, table, row_results);
  add_placement_notes(store, "logp", sweep, table);
  add_missing_cell_notes(store, "logp", sweep, table);
  return table;
}

}  // namespace pbench::query
