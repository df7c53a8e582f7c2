#include "ingest/MetricRows.hpp"

namespace pbench::ingest {

std::vector<MetricRow> metric_rows(const nlohmann::json& document) {
  std::vector<MetricRow> rows;
  for (const auto& m : document["summary"]) {
    MetricRow row;
    row.name = m["name"].get<std::string>();
    if (!m["value"].is_null()) row.value = m["value"].get<double>();
    row.unit = m["unit"].get<std::string>();
    row.samples = m["samples"].get<std::int64_t>();
    row.labels = m["labels"].dump();
    rows.push_back(std::move(row));
  }
  return rows;
}

}  // namespace pbench::ingest
