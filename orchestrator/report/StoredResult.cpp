#include "report/StoredResult.hpp"

#include "query/QueryTable.hpp"

#include <cmath>
#include <map>

namespace pbench::report {

std::vector<StoredResult> newest_results(store::Store& store, const std::string& sweep,
                                         const std::string& worker) {
  std::vector<StoredResult> results;
  std::map<std::int64_t, std::size_t> by_id;  // result id -> index
  auto s = store.db().prepare(
      "SELECT r.id, p.point_key, p.partition, p.params_json, document(r.packed), r.valid "
      "FROM points p JOIN sweeps sw ON sw.id = p.sweep_id "
      "JOIN results r ON r.id = " +
      std::string(store::kChosenResult) +
      " "
      "WHERE sw.name = ?1 AND p.worker = ?2 ORDER BY p.partition, p.id");
  s.bind(1, sweep).bind(2, worker);
  while (s.step()) {
    StoredResult r;
    r.point_key = s.text(1);
    r.partition = s.int64(2);
    r.params = nlohmann::json::parse(s.text(3), nullptr, false);
    r.document = nlohmann::json::parse(s.text(4), nullptr, false);
    if (!r.params.is_object()) r.params = nlohmann::json::object();
    if (r.params.contains("env") && r.params["env"].is_string())
      r.env = r.params["env"].get<std::string>();
    if (r.document.is_discarded()) r.document = nlohmann::json::object();
    r.valid = s.int64(5) != 0;
    by_id[s.int64(0)] = results.size();
    results.push_back(std::move(r));
  }
  auto m = store.db().prepare(
      "SELECT m.result_id, m.name, m.value, m.unit, m.labels FROM metrics m "
      "JOIN results r ON r.id = m.result_id JOIN points p ON p.id = r.point_id "
      "JOIN sweeps sw ON sw.id = p.sweep_id WHERE sw.name = ?1 AND p.worker = ?2 ORDER BY m.id");
  m.bind(1, sweep).bind(2, worker);
  while (m.step()) {
    auto it = by_id.find(m.int64(0));
    if (it == by_id.end()) continue;  // an older result of the point
    StoredMetric metric;
    metric.name = m.text(1);
    if (!m.is_null(2)) metric.value = m.real(2);
    metric.unit = m.text(3);
    metric.labels = nlohmann::json::parse(m.text(4), nullptr, false);
    if (!metric.labels.is_object()) metric.labels = nlohmann::json::object();
    results[it->second].metrics.push_back(std::move(metric));
  }
  return results;
}

std::vector<std::string> sweep_workers(store::Store& store, const std::string& sweep) {
  std::vector<std::string> workers;
  auto s = store.db().prepare(
      "SELECT DISTINCT p.worker FROM points p JOIN sweeps sw ON sw.id = p.sweep_id "
      "WHERE sw.name = ?1 ORDER BY p.worker");
  s.bind(1, sweep);
  while (s.step()) workers.push_back(s.text(0));
  return workers;
}

std::vector<nlohmann::json> measurement_rows(const nlohmann::json& document,
                                             const std::string& name) {
  std::vector<nlohmann::json> rows;
  if (!document.is_object() || !document.contains("measurements")) return rows;
  const auto& tables = document["measurements"];
  if (!tables.is_object() || !tables.contains(name)) return rows;
  const auto& table = tables[name];
  if (!table.is_object() || !table.contains("columns") || !table.contains("rows")) return rows;
  const auto& columns = table["columns"];
  for (const auto& row : table["rows"]) {
    if (!row.is_array()) continue;
    nlohmann::json object = nlohmann::json::object();
    for (std::size_t i = 0; i < columns.size() && i < row.size(); ++i) {
      if (columns[i].is_object() && columns[i].contains("name") && columns[i]["name"].is_string())
        object[columns[i]["name"].get<std::string>()] = row[i];
    }
    rows.push_back(std::move(object));
  }
  return rows;
}

double json_number(const nlohmann::json& object, const std::string& key) {
  if (!object.is_object() || !object.contains(key) || !object[key].is_number()) return NAN;
  return object[key].get<double>();
}

std::string json_text(const nlohmann::json& object, const std::string& key) {
  if (!object.is_object() || !object.contains(key) || object[key].is_null()) return "";
  if (object[key].is_string()) return object[key].get<std::string>();
  return object[key].dump();
}

std::string not_valid_text(const StoredResult& result) {
  std::string reasons;
  const auto& doc = result.document;
  if (doc.is_object() && doc.contains("validity") && doc["validity"].is_object()) {
    const auto list = doc["validity"].value("reasons", nlohmann::json::array());
    if (list.is_array()) {
      for (const auto& reason : list)
        if (reason.is_string())
          reasons += (reasons.empty() ? "" : "; ") + query::reason_cell(reason.get<std::string>());
    }
  }
  return "point " + result.point_key + " (" + std::to_string(result.partition) + " process" +
         (result.partition == 1 ? "" : "es") +
         (result.env.empty() ? std::string() : ", environment " + result.env) +
         "): " + (reasons.empty() ? std::string("no reason stored") : reasons);
}

bool is_consortium(const StoredResult& result) {
  const auto& doc = result.document;
  if (!doc.is_object() || !doc.contains("parameters")) return false;
  const auto& p = doc["parameters"];
  return p.is_object() && p.contains("suite") && p["suite"].is_object() &&
         p["suite"].value("value", nlohmann::json()) == "consortium";
}

}  // namespace pbench::report
