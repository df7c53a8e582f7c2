#pragma once
// The newest stored result of each point of one worker in a sweep: the point's parameters, the
// whole result document and its rows of the metrics table. The figure builders read these.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "store/Store.hpp"

namespace pbench::report {

struct StoredMetric {
  std::string name;
  std::optional<double> value;  ///< empty when the worker stored null
  std::string unit;
  nlohmann::json labels;  ///< an object
};

struct StoredResult {
  std::string point_key;
  std::int64_t partition = 0;
  nlohmann::json params;    ///< the point's parameters (points.params_json)
  std::string env;          ///< its environment (the parameter env, --envs); "" without one
  nlohmann::json document;  ///< the result document (Store: document(results.packed))
  bool valid = false;
  std::vector<StoredMetric> metrics;
};

/// The newest result of each point of `worker` in `sweep`, in point order (partition, then id).
std::vector<StoredResult> newest_results(store::Store& store, const std::string& sweep,
                                         const std::string& worker);
/// The workers that have points in `sweep`.
std::vector<std::string> sweep_workers(store::Store& store, const std::string& sweep);
/// The rows of a document's measurements table `name` as objects keyed by column name; empty
/// when the document has no such table.
std::vector<nlohmann::json> measurement_rows(const nlohmann::json& document,
                                             const std::string& name);
/// object[key] as a number; NaN when missing or not a number.
double json_number(const nlohmann::json& object, const std::string& key);
/// object[key] as text (numbers printed); "" when missing.
std::string json_text(const nlohmann::json& object, const std::string& key);
/// A result that is not valid with its reasons, for the page: "point KEY (N processes): reason;
/// reason" ("no reason stored" when the document has none; "(N processes, environment E)" for
/// a point of an environment; an oversubscription in a word, as query::reason_cell() shows it).
std::string not_valid_text(const StoredResult& result);
/// True when an io result ran the consortium suite (parameters.suite == "consortium").
bool is_consortium(const StoredResult& result);

}  // namespace pbench::report
