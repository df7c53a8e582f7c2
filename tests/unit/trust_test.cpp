// Trust (issue 24): a result checked against the point that asked for it (worker, processes,
// shape), every worker's own launch check, the size limits of a stored document, and the
// warning for environment values that differ between the runs of a sweep.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "collect/EnvironmentDrift.hpp"
#include "common/LaunchCheck.hpp"
#include "ingest/Ingester.hpp"
#include "ingest/LaunchCheck.hpp"
#include "ingest/ResultRules.hpp"
#include "support/StoreFixture.hpp"
#include "util/Error.hpp"

using namespace pbench;
using nlohmann::json;
using testing::document;

namespace {

json summary() {
  return json::array({testing::metric("b_eff", 1e9, "B/s")});
}

}  // namespace

TEST_CASE("launch check: the worker, the processes and the shape the point asked for") {
  const auto plain = ingest::asked_launch("comm", 4, "{}");
  const auto shaped = ingest::asked_launch("comm", 4, R"({"nodes": 2, "procs_per_node": 2})");
  const auto doc = document("comm", 2, summary(), true);
  CHECK(ingest::worker_mismatch(doc, plain).empty());
  CHECK(ingest::worker_mismatch(document("logp", 4, summary(), true), plain) ==
        "names worker 'logp', but its point is a comm point: another worker's result, not stored");
  CHECK(ingest::launch_problem(doc, plain, {}) ==
        "launch: partition 4 asked, the result is from 2 processes");
  CHECK(ingest::launch_problem(document("comm", 1, summary(), true), plain, {}) ==
        "launch: partition 4 asked, the result is from 1 process");
  CHECK(ingest::launch_problem(doc, shaped, {}) ==
        "launch: 2x2 asked (4 processes), the result is from 2 processes");
  CHECK(ingest::launch_problem(document("comm", 4, summary(), true), plain, {}).empty());
  store::ResultLayout packed;
  packed.placement = "placement: 2x2 asked, ranks found on 1 node (node01: 4)";
  CHECK(ingest::launch_problem(document("comm", 4, summary(), true), shaped, packed) ==
        packed.placement);
}

TEST_CASE(
    "ingest: a wrong launch is stored not valid with its reason, another worker's result is "
    "refused") {
  testing::Fixture f;
  f.add_sweep("s", {{"comm", 4}, {"comm", 2}});
  store::AttemptRecord a;
  a.point_id = f.points[0].id;
  a.state = store::PointState::done;
  a = f.store.add_attempt(a);
  ingest::Ingester ingester(f.store);
  const auto outcome = ingester.ingest_text(document("comm", 2, summary(), true).dump(), "two",
                                            f.points[0].id, a.id);
  CHECK(outcome.launch == "launch: partition 4 asked, the result is from 2 processes");
  CHECK(testing::stored_valid(f.store, outcome.result_id) == 0);
  auto s = f.store.db().prepare("SELECT placement FROM results WHERE id = ?1");
  s.bind(1, outcome.result_id);
  REQUIRE(s.step());
  CHECK(s.text(0) == outcome.launch);
  // The right count is valid, with no reason.
  const auto right = ingester.ingest_text(
      document("comm", 2, summary(), true, json::object(), "2026-11-22T07:00:01.000Z").dump(),
      "right", f.points[1].id, std::nullopt);
  CHECK(right.launch.empty());
  CHECK(testing::stored_valid(f.store, right.result_id) == 1);
  // Another worker's result: refused, nothing stored.
  CHECK_THROWS_WITH_AS(
      ingester.ingest_text(document("bcast", 2, json::array({testing::metric("ol", 1e-6, "s")}),
                                    true, json::object(), "2026-11-22T07:00:05.000Z")
                               .dump(),
                           "other", f.points[1].id, std::nullopt),
      "result 'other': names worker 'bcast', but its point is a comm point: another worker's "
      "result, not stored",
      ValidationError);
  CHECK(f.store.result_count(f.store.find_sweep("s")->id) == 2);
}

TEST_CASE("worker launch check: PBENCH_PARTITION against the world's size") {
  CHECK_FALSE(worker::launch_mismatch(nullptr, 1));
  CHECK_FALSE(worker::launch_mismatch("", 3));
  CHECK_FALSE(worker::launch_mismatch("4", 4));
  const auto fewer = worker::launch_mismatch("4", 1);
  REQUIRE(fewer);
  CHECK(fewer->rfind("launch: the job launches partition 4 (PBENCH_PARTITION), but this worker's "
                     "MPI world has 1 process: the launcher started singletons",
                     0) == 0);
  CHECK(fewer->find("srun --mpi=pmi2 with an MPI that wants PMIx") != std::string::npos);
  const auto more = worker::launch_mismatch("2", 4);
  REQUIRE(more);
  CHECK(more->find("has 4 processes: the launch line starts more processes") != std::string::npos);
  for (const char* bad : {"x", "4x", "-2", "0", "2 "}) {
    CAPTURE(bad);
    const auto problem = worker::launch_mismatch(bad, 2);
    REQUIRE(problem);
    CHECK(problem->find("is not a number of processes") != std::string::npos);
  }
}

TEST_CASE(
    "limits: a string over 1 MiB is named by its pointer, a document over 64 MiB is refused") {
  auto doc = document("comm", 2, summary(), true);
  CHECK(ingest::ResultRules::size_problems(doc).empty());
  doc["warnings"] = json::array({"short", std::string(ingest::ResultRules::kMaxStringBytes, 'x')});
  CHECK(ingest::ResultRules::size_problems(doc).empty());  // at the cap: allowed
  doc["warnings"][1] = std::string(ingest::ResultRules::kMaxStringBytes + 1, 'x');
  doc["parameters"][std::string(ingest::ResultRules::kMaxStringBytes + 2, 'k')] =
      testing::setting(1);
  const auto problems = ingest::ResultRules::size_problems(doc);
  REQUIRE(problems.size() == 2);
  CHECK(problems[0] ==
        "at /parameters: a key of 1048578 bytes, more than the 1048576 (1 MiB) a "
        "field may hold");
  CHECK(problems[1] ==
        "at /warnings/1: a string of 1048577 bytes, more than the 1048576 (1 MiB) "
        "a field may hold");
  CHECK_THROWS_WITH_AS(ingest::parse_and_validate(doc.dump(), "big"),
                       doctest::Contains("result 'big': at /parameters: a key of 1048578 bytes"),
                       ValidationError);
  const std::string huge(ingest::ResultRules::kMaxDocumentBytes + 1, ' ');
  CHECK_THROWS_WITH_AS(ingest::parse_and_validate(huge, "huge"),
                       "result 'huge': 67108865 bytes, more than the 67108864 (64 MiB) a result "
                       "document may have",
                       ValidationError);
}

TEST_CASE("environment drift: a parameter from the environment that differs between runs") {
  testing::Fixture f;
  f.add_sweep("e", {{"logp", 2}});
  const json logp_summary = json::array({testing::metric("g", 1e-6, "s")});
  const auto from_env = [](int value) {
    return json{{"flood_bytes", {{"value", value}, {"unit", "B"}, {"source", "environment"}}},
                {"deadline", {{"value", value}, {"unit", "s"}, {"source", "environment"}}}};
  };
  f.add_run(0, document("logp", 2, logp_summary, true, from_env(8)));
  const auto sweep = *f.store.find_sweep("e");
  CHECK(run::environment_drift(f.store, sweep).empty());
  f.store.start_run(sweep.id, "2026-11-23T00:00:00.000Z", "{}");
  f.add_run(0, document("logp", 2, logp_summary, true, from_env(8)));
  CHECK(run::environment_drift(f.store, sweep).empty());  // the same value: one definition
  f.store.start_run(sweep.id, "2026-11-24T00:00:00.000Z", "{}");
  f.add_run(0, document("logp", 2, logp_summary, true, from_env(4)));
  const auto lines = run::environment_drift(f.store, sweep);
  REQUIRE(lines.size() == 1);  // the deadline is the job's own, not a definition
  CHECK(lines[0] ==
        "logp parameter flood_bytes came from the environment (PBENCH_FLOOD_BYTES) with values "
        "that differ between runs of sweep e: 4 in run 3; 8 in runs 1, 2; those runs' figures "
        "are not of one definition");
}
