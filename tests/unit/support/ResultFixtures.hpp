#pragma once
// Hand-made result documents with known values, for store, ingest and query tests.
#include <nlohmann/json.hpp>

#include <string>

namespace pbench::testing {

/// A valid logp result document for one queue depth with the given values (seconds).
inline nlohmann::json logp_document(int nprocs, int queue_depth, double eel, double g,
                                    double big_g, const std::string& started_at =
                                                      "2026-11-22T07:50:00.000Z") {
  auto metric = [](const std::string& name, double value, const std::string& unit,
                   nlohmann::json labels) {
    return nlohmann::json{{"name", name}, {"value", value}, {"unit", unit}, {"labels", labels},
                          {"samples", 10}};
  };
  const nlohmann::json q = {{"queue_depth", queue_depth}};
  return {
      {"schema_version", 1},
      {"worker", "logp"},
      {"worker_version", "test"},
      {"started_at", started_at},
      {"ended_at", "2026-11-22T07:50:01.000Z"},
      {"hosts", {"node01"}},
      {"mpi_library_version", "MPICH Version: 4.0.2"},
      {"nprocs", nprocs},
      {"procs_per_node", nprocs},
      {"parameters",
       {{"queue_depths", {{"value", {queue_depth}}, {"unit", "messages"}, {"source", "command_line"}}}}},
      {"seeds", nlohmann::json::object()},
      {"measurements",
       {{"eel", {{"columns", {{{"name", "run"}, {"unit", ""}}, {{"name", "eel"}, {"unit", "s"}}}},
                 {"rows", {{0, eel}, {1, eel * 1.1}}}}}}},
      {"summary",
       {metric("eel_min", eel, "s", nlohmann::json::object()),
        metric("o_s", eel / 4, "s", nlohmann::json::object()),
        metric("o_r", eel / 4, "s", nlohmann::json::object()),
        metric("latency_l", eel / 2, "s", nlohmann::json::object()), metric("g", g, "s", q),
        metric("big_g", big_g, "s/B", q), metric("bandwidth", 1 / big_g, "B/s", q),
        metric("large_message_threshold", g / big_g, "B", q)}},
      {"validity", {{"valid", true}, {"reasons", nlohmann::json::array()}}},
      {"warnings", nlohmann::json::array()}};
}

}  // namespace pbench::testing
