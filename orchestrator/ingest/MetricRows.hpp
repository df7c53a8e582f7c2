#pragma once
// The metric rows a result document gives the store: one per entry of its summary, in order.
// Ingest writes them; `pbench store verify` makes them again from each stored document and
// compares (a changed row is named).
#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace pbench::ingest {

struct MetricRow {
  std::string name;
  std::optional<double> value;  ///< empty for a metric not measured (null)
  std::string unit;
  std::int64_t samples = 0;
  std::string labels;  ///< the labels object as JSON text
};

/// The rows of a document that parse_and_validate accepted.
std::vector<MetricRow> metric_rows(const nlohmann::json& document);

}  // namespace pbench::ingest
