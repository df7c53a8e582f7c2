#pragma once
// A store in memory (or in a file) filled with hand-made result documents whose figures are
// known, for the query and report tests: sweeps of cells, attempts, and results ingested as the
// real ingester does.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "ingest/Ingester.hpp"
#include "store/Store.hpp"

namespace pbench::testing {

/// The stored validity (results.valid, 0 or 1) of a result.
inline int stored_valid(store::Store& store, std::int64_t result_id) {
  auto s = store.db().prepare("SELECT valid FROM results WHERE id = ?1");
  s.bind(1, result_id);
  REQUIRE(s.step());
  return static_cast<int>(s.int64(0));
}

inline nlohmann::json metric(const std::string& name, double value, const std::string& unit,
                             nlohmann::json labels = nlohmann::json::object()) {
  return {{"name", name}, {"value", value}, {"unit", unit}, {"labels", labels}, {"samples", 3}};
}

/// A result document of `worker` on `n` processes with these summary metrics and settings.
/// (One metric is passed as json::array({m}): clang 14 makes a braced {m} a copy of m, gcc an
/// array.)
inline nlohmann::json document(const std::string& worker, int n, nlohmann::json summary, bool valid,
                               nlohmann::json parameters = nlohmann::json::object(),
                               const std::string& started_at = "2026-11-22T07:00:00.000Z") {
  nlohmann::json reasons = nlohmann::json::array();
  if (!valid) reasons.push_back("not the reference configuration");
  return {{"schema_version", 1},
          {"worker", worker},
          {"worker_version", "test"},
          {"started_at", started_at},
          {"ended_at", "2026-11-22T08:00:00.000Z"},
          {"hosts", {"node01"}},
          {"mpi_library_version", "MPICH Version: 4.0.2"},
          {"nprocs", n},
          {"procs_per_node", n},
          {"parameters", parameters},
          {"seeds", nlohmann::json::object()},
          {"measurements", nlohmann::json::object()},
          {"summary", summary},
          {"validity", {{"valid", valid}, {"reasons", reasons}}},
          {"warnings", nlohmann::json::array()}};
}

inline nlohmann::json setting(const nlohmann::json& value) {
  return {{"value", value}, {"unit", ""}, {"source", "command_line"}};
}

struct Cellspec {
  std::string worker;
  int partition;
  std::string params = "{}";
};

struct Fixture {
  store::Store store;
  std::vector<store::PointRecord> points;
  int documents = 0;

  explicit Fixture(store::Store s = store::Store::open_in_memory()) : store(std::move(s)) {}

  void add_sweep(const std::string& name, const std::vector<Cellspec>& cells) {
    points.clear();
    for (std::size_t i = 0; i < cells.size(); ++i) {
      store::PointRecord point;
      point.key = name + "-" + std::to_string(i);
      point.worker = cells[i].worker;
      point.partition = cells[i].partition;
      point.params_json = cells[i].params;
      point.script_path = "/nonexistent/job.sh";
      points.push_back(point);
    }
    store.insert_sweep({0, name, R"({"workers":["comm"],"partitions":[2]})", "local",
                        "/nonexistent", "2026-11-22T00:00:00.000Z"},
                       points);
  }

  /// An attempt of the i-th point ending in `state` with `exit`, and its result if given.
  void add_run(std::size_t i, nlohmann::json doc, store::PointState state = store::PointState::done,
               std::int64_t exit = 0) {
    store::AttemptRecord a;
    a.point_id = points[i].id;
    a.run_no = store.runs(points[i].sweep_id).back().run_no;  // the sweep's latest run
    a.job_id = "job-" + points[i].key;
    a.state = state;
    a.exit_status = exit;
    a.job_dir = a.stdout_path = a.stderr_path = a.result_path = "/nonexistent";
    a = store.add_attempt(a);
    store.set_point_state(points[i].id, state);
    if (!doc.is_null()) {
      // Distinct documents: the store keeps each document once.
      doc["started_at"] = "2026-11-22T07:00:" + std::to_string(10 + documents++) + ".000Z";
      ingest::Ingester(store).ingest_text(doc.dump(), *a.job_id, points[i].id, a.id);
    }
  }
};

}  // namespace pbench::testing
