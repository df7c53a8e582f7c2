#include "query/Layout.hpp"

#include <nlohmann/json.hpp>

namespace pbench::query {

QueryColumn nodes_column() {
  return label_column("nodes");
}
QueryColumn ppn_column() {
  return label_column("ppn");
}

Cell optional_int_cell(store::Statement& s, int column) {
  if (auto v = s.optional_int64(column)) return *v;
  return {};
}

Cell count_cell(std::int64_t count) {
  if (count <= 0) return {};
  return count;
}

std::string partition_text(std::int64_t partition, std::int64_t nodes, std::int64_t ppn) {
  std::string out = std::to_string(partition);
  if (nodes > 0 && ppn > 0) out += " (" + std::to_string(nodes) + "x" + std::to_string(ppn) + ")";
  return out;
}

std::string partition_text(std::int64_t partition, const std::string& asked) {
  return std::to_string(partition) + (asked.empty() ? "" : " (" + asked + ")");
}

std::string note_where(const std::string& sweep, const std::string& partition,
                       const std::string& params_json) {
  std::string out = "sweep " + sweep + ", partition " + partition;
  const auto params = nlohmann::json::parse(params_json, nullptr, false);
  if (!params.is_object()) return out;
  if (params.contains("queue_depth")) out += ", q " + params["queue_depth"].dump();
  if (params.contains("schedule_time")) out += ", T " + params["schedule_time"].dump();
  if (params.contains("hints") && params["hints"].is_string()) {
    out += ", hints " + params["hints"].get<std::string>();
  }
  // io's consortium suite.
  if (params.contains("pattern") && params["pattern"].is_string()) {
    out += ", pattern " + params["pattern"].get<std::string>();
  }
  if (params.contains("transfer_size")) {
    out += ", transfer " + params["transfer_size"].dump() + " B";
  }
  if (params.contains("collective") && params["collective"].is_boolean()) {
    out += std::string(", collective ") + (params["collective"].get<bool>() ? "on" : "off");
  }
  if (params.contains("env") && params["env"].is_string()) {
    out += ", environment " + params["env"].get<std::string>();
  }
  return out;
}

void add_placement_notes(store::Store& store, const std::string& worker,
                         const std::optional<std::string>& sweep, QueryTable& table) {
  auto s = store.db().prepare(
      "SELECT sw.name, p.partition, p.nodes, p.procs_per_node, r.placement, r.ingest_reason, "
      "p.params_json "
      "FROM points p JOIN sweeps sw ON sw.id = p.sweep_id "
      "JOIN results r ON r.id = " +
      std::string(store::kChosenResult) +
      " WHERE p.worker = ?2 AND (?1 IS NULL OR sw.name = ?1) "
      "AND (r.placement IS NOT NULL OR r.ingest_reason IS NOT NULL) ORDER BY sw.id, p.id");
  s.bind(1, sweep).bind(2, worker);
  while (s.step()) {
    const std::string where = note_where(s.text(0),
                                         partition_text(s.int64(1), s.optional_int64(2).value_or(0),
                                                        s.optional_int64(3).value_or(0)),
                                         s.text(6));
    for (const int column : {4, 5}) {
      if (const auto reason = s.optional_text(column)) {
        table.notes.push_back(where + ": not valid: " + *reason);
      }
    }
  }
}

}  // namespace pbench::query
