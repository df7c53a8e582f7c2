#include "query/MissingCells.hpp"

#include <nlohmann/json.hpp>

#include "query/Layout.hpp"
#include "util/StderrTail.hpp"

namespace pbench::query {
namespace {

// The point's own sweep dimensions, as the worker tables name them.
std::string dimensions_of(const std::string& params_json) {
  const auto params = nlohmann::json::parse(params_json, nullptr, false);
  if (params.is_discarded() || !params.is_object()) return "";
  std::string out;
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
  return out;
}

}  // namespace

void add_missing_cell_notes(store::Store& store, const std::string& worker,
                            const std::optional<std::string>& sweep, QueryTable& table) {
  auto missing = store.db().prepare(
      "SELECT sw.name, p.partition, p.params_json, p.state, a.exit_status, a.signal, "
      "a.stderr_tail, p.nodes, p.procs_per_node FROM points p JOIN sweeps sw ON sw.id = p.sweep_id "
      "LEFT JOIN attempts a ON a.id = (SELECT max(id) FROM attempts WHERE point_id = p.id) "
      "WHERE p.worker = ?2 AND (?1 IS NULL OR sw.name = ?1) "
      "AND NOT EXISTS (SELECT 1 FROM results r WHERE r.id = " +
      std::string(store::kChosenResult) + ") ORDER BY sw.id, p.id");
  missing.bind(1, sweep);
  missing.bind(2, worker);
  while (missing.step()) {
    std::string why = "no result: " + missing.text(3);
    if (auto status = missing.optional_int64(4)) why += ", exit status " + std::to_string(*status);
    if (auto signal = missing.optional_text(5)) why += ", signal " + *signal;
    if (auto tail = missing.optional_text(6); tail && !telling_line(*tail).empty()) {
      why += " (" + telling_line(*tail) + ")";
    }
    table.notes.push_back("sweep " + missing.text(0) + ", partition " +
                          partition_text(missing.int64(1), missing.optional_int64(7).value_or(0),
                                         missing.optional_int64(8).value_or(0)) +
                          dimensions_of(missing.text(2)) + ": " + why);
  }
  if (table.rows.empty() && table.notes.empty()) {
    table.notes.push_back("no " + worker + " results" +
                          (sweep ? " in sweep " + *sweep : std::string()) +
                          " (run 'pbench collect' after the jobs finish)");
  }
}

}  // namespace pbench::query
