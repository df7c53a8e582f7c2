#include "query/BcastQuery.hpp"
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

/// The metrics of one result and message size.
struct Row {
  std::string sweep;
  std::int64_t partition = 0;
  std::int64_t nodes = 0;  // where the ranks ran (0: unknown)
  std::int64_t ppn = 0;
  std::string asked;  // the shape the point asked for ("" for a plain partition)
  std::string impl;
  double hop_delay = 0;  // [s]
  std::string root_order;
  bool valid = true;
  std::map<std::string, double> values;  // metric name -> value
};

/// A parameter's value from a result document's echo, or `fallback` when it is not there.
template <typename T>
T echoed(const nlohmann::json& doc, const char* name, T fallback) {
  if (doc.is_discarded() || !doc.contains("parameters")) return fallback;
  const auto& parameters = doc["parameters"];
  if (!parameters.contains(name) || !parameters[name].contains("value")) return fallback;
  try {
    return parameters[name]["value"].get<T>();
  } catch (const nlohmann::json::exception&) {
    return fallback;
  }
}

}  // namespace

QueryTable bcast_table(store::Store& store, const std::optional<std::string>& sweep) {
  if (sweep && !store.find_sweep(*sweep)) throw UsageError("no sweep named '" + *sweep + "'");
  QueryTable table;
  table.columns = {
      {"sweep", "", "sweep", "", 1, 0},
      {"partition", "", "procs", "", 1, 0},
      nodes_column(),
      ppn_column(),
      {"impl", "", "impl", "", 1, 0},
      {"hop_delay", "s", "d", "us", 1e6, 4},
      {"size", "B", "size", "B", 1, 10},
      {"ol", "s", "OL", "us", 1e6, 4},
      {"ol_task", "", "task", "", 1, 0},
      {"send_latency", "s", "send", "us", 1e6, 4},
      {"rounds_latency", "s", "rounds", "us", 1e6, 4},
      {"root_order", "", "order", "", 1, 0},
      {"barrier_latency", "s", "barrier", "us", 1e6, 4},
      {"ack_latency", "s", "ack", "us", 1e6, 4},
      {"valid", "", "valid", "", 1, 0},
  };
  // The newest result of each bcast point of the chosen sweep(s), with its metrics.
  auto s = store.db().prepare(
      "SELECT sw.name, p.partition, r.id, r.valid, r.document, m.name, m.value, m.labels, " +
      std::string(kLayoutSql) +
      " FROM points p JOIN sweeps sw ON sw.id = p.sweep_id "
      "JOIN results r ON r.id = " +
      std::string(store::kChosenResult) +
      " "
      "LEFT JOIN metrics m ON m.result_id = r.id "
      "WHERE p.worker = 'bcast' AND (?1 IS NULL OR sw.name = ?1) "
      "ORDER BY sw.id, p.partition, p.id, r.id");
  s.bind(1, sweep);
  using Key = std::tuple<std::int64_t, std::int64_t>;  // result id, size
  std::map<Key, Row> rows;
  std::vector<std::int64_t> order;   // result ids as the query lists them
  std::map<std::int64_t, Row> runs;  // result id -> what its rows share
  while (s.step()) {
    const std::int64_t result_id = s.int64(2);
    if (!runs.count(result_id)) {
      order.push_back(result_id);
      Row run;
      run.sweep = s.text(0);
      run.partition = s.int64(1);
      run.nodes = s.optional_int64(8).value_or(0);
      run.ppn = s.optional_int64(9).value_or(0);
      run.asked = s.optional_text(10).value_or("");
      run.valid = s.int64(3) != 0;
      const auto doc = nlohmann::json::parse(s.text(4), nullptr, false);
      run.impl = echoed<std::string>(doc, "impl", "?");
      run.hop_delay = echoed<double>(doc, "hop_delay_us", 0) * 1e-6;
      run.root_order = echoed<std::string>(doc, "root_order", "?");
      const std::string cell =
          "sweep " + run.sweep + ", partition " + partition_text(run.partition, run.asked);
      if (!run.valid && !doc.is_discarded()) {
        // Why the result is not valid (the worker's reasons), so a row marked "no" is explained.
        for (const auto& reason : doc["validity"]["reasons"]) {
          table.notes.push_back(cell + ": not valid: " + reason.get<std::string>());
        }
      }
      runs[result_id] = run;
    }
    if (s.is_null(5) || s.is_null(6)) continue;
    const auto labels = nlohmann::json::parse(s.text(7), nullptr, false);
    if (labels.is_discarded() || !labels.contains("size")) continue;
    const Key key{result_id, labels["size"].get<std::int64_t>()};
    auto [it, fresh] = rows.try_emplace(key, runs[result_id]);
    it->second.values[s.text(5)] = s.real(6);
  }
  std::vector<std::int64_t> row_results;  // of each row, for the column env
  for (std::int64_t result_id : order) {
    for (const auto& [key, row] : rows) {
      if (std::get<0>(key) != result_id) continue;
      row_results.push_back(result_id);
      // Not [&]: clang before 16 cannot capture a structured binding (row).
      auto metric = [&values = row.values](const char* name) -> Cell {
        auto found = values.find(name);
        return found == values.end() ? Cell{} : Cell{found->second};
      };
      Cell task;
      if (auto found = row.values.find("ol_task"); found != row.values.end()) {
        task = static_cast<std::int64_t>(found->second);
      }
      table.rows.push_back({row.sweep, row.partition, count_cell(row.nodes), count_cell(row.ppn),
                            row.impl, row.hop_delay, std::get<1>(key), metric("ol"), task,
                            metric("send_latency"), metric("rounds_latency"), row.root_order,
                            metric("barrier_latency"), metric("ack_latency"),
                            std::string(row.valid ? "yes" : "no")});
    }
  }
  add_env_column(store, table, row_results);
  add_placement_notes(store, "bcast", sweep, table);
  add_missing_cell_notes(store, "bcast", sweep, table);
  return table;
}

}  // namespace pbench::query
