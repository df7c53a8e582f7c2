// The store defends itself (issue 38 item 4): `pbench store verify` holds every stored result to
// its document (its SHA-256, the columns copied from it, the metric rows made again from its
// summary) and names each difference; a sound store verifies clean. A sweep's record on disk
// (sweep.json), which `pbench store rebuild` reads, comes back as it was written.
#include <doctest/doctest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "ingest/MetricRows.hpp"
#include "ingest/StoreVerifier.hpp"
#include "store/Integrity.hpp"
#include "store/PackedDocument.hpp"
#include "support/StoreFixture.hpp"
#include "sweepdir/SweepRecordFile.hpp"
#include "util/Error.hpp"

using namespace pbench;
using pbench::testing::document;
using pbench::testing::Fixture;
using pbench::testing::metric;

namespace {

/// A store with one sweep "s" of two comm points, each with a result of two metrics.
Fixture two_results() {
  Fixture f;
  f.add_sweep("s", {{"comm", 2}, {"comm", 4}});
  for (std::size_t i = 0; i < 2; ++i) {
    f.add_run(i, document("comm", 2 * static_cast<int>(i + 1),
                          nlohmann::json::array({metric("b_eff", 1.25e9, "B/s"),
                                                 metric("b_eff_per_process", 0.5e9, "B/s")}),
                          true));
  }
  return f;
}

void run_sql(store::Store& store, const std::string& sql) {
  store.db().exec(sql);
}

}  // namespace

TEST_CASE("store verify: a sound store has no problem, and every row was compared") {
  auto f = two_results();
  const auto report = ingest::verify_store(f.store.db());
  CHECK(report.integrity.empty());
  CHECK(report.results == 2);
  CHECK(report.metric_rows == 4);
  CHECK(report.problems.empty());
  CHECK_FALSE(report.damaged());
}

TEST_CASE(
    "store verify: a changed metric value is named with its result, sweep, point and values") {
  auto f = two_results();
  run_sql(f.store,
          "UPDATE metrics SET value = 1.25e7 WHERE name = 'b_eff' AND result_id = "
          "(SELECT max(id) FROM results)");
  const auto report = ingest::verify_store(f.store.db());
  REQUIRE(report.problems.size() == 1);
  const auto& p = report.problems.front();
  CHECK(p.kind == "metric");
  CHECK(p.result_id == 2);
  CHECK(p.sweep == "s");
  CHECK(p.point == "comm p=4 [s-1]");
  CHECK(p.metric == "b_eff {}");
  CHECK(p.stored == "12500000");
  CHECK(p.document == "1250000000");
  CHECK(p.message ==
        "result 2 (sweep s, comm p=4 [s-1]): metric b_eff {}: stored 12500000, its document "
        "says 1250000000");
  CHECK(report.damaged());
}

TEST_CASE("store verify: one bit of a double is told apart") {
  auto f = two_results();
  // The next double after 1.25e9: the same to 15 digits.
  run_sql(f.store,
          "UPDATE metrics SET value = 1250000000.0000002 WHERE name = 'b_eff' AND result_id = 1");
  const auto report = ingest::verify_store(f.store.db());
  REQUIRE(report.problems.size() == 1);
  CHECK(report.problems.front().stored == "1250000000.0000002");
  CHECK(report.problems.front().document == "1250000000");
}

TEST_CASE("store verify: a missing, an extra and a changed unit or sample count are named") {
  auto f = two_results();
  run_sql(f.store, "DELETE FROM metrics WHERE name = 'b_eff_per_process' AND result_id = 1");
  run_sql(f.store,
          "INSERT INTO metrics(result_id, name, value, unit, samples, labels) "
          "VALUES (1, 'b_eff_ring', 3.5, 'B/s', 3, '{}')");
  run_sql(f.store,
          "UPDATE metrics SET unit = 'MB/s', samples = 9 WHERE name = 'b_eff' AND "
          "result_id = 2");
  const auto report = ingest::verify_store(f.store.db());
  std::string all;
  for (const auto& p : report.problems) all += p.message + "\n";
  CAPTURE(all);
  CHECK(report.problems.size() == 4);
  CHECK(all.find("result 1 (sweep s, comm p=2 [s-0]): metric b_eff_ring {}: stored 3.5, not in "
                 "its document") != std::string::npos);
  CHECK(all.find("result 1 (sweep s, comm p=2 [s-0]): metric b_eff_per_process {}: its "
                 "document says 500000000, no row stored") != std::string::npos);
  CHECK(all.find("metric b_eff {}: stored unit MB/s, its document says B/s") != std::string::npos);
  CHECK(all.find("metric b_eff {}: stored samples 9, its document says 3") != std::string::npos);
}

TEST_CASE("store verify: a document changed after ingest does not match its SHA-256") {
  auto f = two_results();
  {
    // The stored document changed, packed again as the store keeps it (its head left as it was).
    std::string text = f.store.document(1);
    const std::string from = "\"worker_version\":\"test\"";
    REQUIRE(text.find(from) != std::string::npos);
    text.replace(text.find(from), from.size(), "\"worker_version\":\"tampered\"");
    const auto packed = store::pack_document(nlohmann::json::parse(text), text);
    f.store.db()
        .prepare("UPDATE results SET packed = ?1 WHERE id = 1")
        .bind_blob(1, packed.packed)
        .run();
  }
  const auto report = ingest::verify_store(f.store.db());
  std::string all;
  for (const auto& p : report.problems) all += p.kind + ": " + p.message + "\n";
  CAPTURE(all);
  REQUIRE(report.problems.size() == 3);
  CHECK(report.problems[0].kind == "document");
  CHECK(report.problems[0].message.find("result 1 (sweep s, comm p=2 [s-0]): its document does "
                                        "not match its SHA-256") == 0);
  // The column copied from the document now differs from it too.
  CHECK(report.problems[1].kind == "column");
  CHECK(report.problems[1].message ==
        "result 1 (sweep s, comm p=2 [s-0]): column worker_version is test, its document says "
        "tampered");
  // And the head the views read is not the document's.
  CHECK(report.problems[2].kind == "column");
  CHECK(report.problems[2].message ==
        "result 1 (sweep s, comm p=2 [s-0]): column head is not its document's head");
}

TEST_CASE("store verify: the metric rows are the ones ingest stores") {
  const auto doc = document("logp", 2,
                            nlohmann::json::array({metric("g", 1.5e-7, "s", {{"queue_depth", 8}}),
                                                   metric("eel_min", 2e-6, "s")}),
                            true);
  auto rows = ingest::metric_rows(doc);
  REQUIRE(rows.size() == 2);
  CHECK(rows[0].name == "g");
  CHECK(rows[0].value == 1.5e-7);
  CHECK(rows[0].labels == R"({"queue_depth":8})");
  CHECK(rows[1].samples == 3);
  auto with_null = doc;
  with_null["summary"][1]["value"] = nullptr;
  CHECK_FALSE(ingest::metric_rows(with_null)[1].value.has_value());
}

TEST_CASE(
    "store integrity: a sound store passes quick_check, and the damage message says how to "
    "recover") {
  auto f = two_results();
  CHECK(store::integrity_problems(f.store.db(), false).empty());
  CHECK(store::integrity_problems(f.store.db(), true).empty());
  CHECK_NOTHROW(store::require_intact(f.store.db()));
  CHECK(store::damaged_store_message("/srv/p.db", "Rowid 65 out of order") ==
        "store '/srv/p.db' is damaged (SQLite: Rowid 65 out of order); nothing was written into "
        "it: 'pbench store verify --db /srv/p.db' says what, 'pbench store rebuild --db "
        "/srv/p.db' makes a new store from the result documents in the runs directory");
}

TEST_CASE("sweep record: written and read back with its runs, a file of another kind refused") {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / ("pbench-record-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  CHECK_FALSE(run::read_sweep_record(dir.string()).has_value());
  const std::string spec =
      R"({"name":"s","workers":["logp"],"partitions":[2,"2x1"],"queue_depths":[1],)"
      R"("scheduler":"local","launcher":"mpiexec","settings":{}})";
  const store::SweepRecord sweep{0, "s", spec, "local", dir.string(), "2026-11-28T01:00:00.000Z"};
  run::write_sweep_record(sweep,
                          {{0, 0, 1, "2026-11-28T01:00:00.000Z", R"({"pbench_version":"x"})"},
                           {0, 0, 2, "2026-11-28T02:00:00.000Z", "{}"}});
  const auto read = run::read_sweep_record(dir.string());
  REQUIRE(read.has_value());
  CHECK(read->sweep.name == "s");
  CHECK(nlohmann::json::parse(read->sweep.spec_json) == nlohmann::json::parse(sweep.spec_json));
  CHECK(read->sweep.scheduler == "local");
  CHECK(read->sweep.created_at == sweep.created_at);
  CHECK(read->sweep.directory == dir.string());
  REQUIRE(read->runs.size() == 2);
  CHECK(read->runs[0].envelope_json == R"({"pbench_version":"x"})");
  CHECK(read->runs[1].run_no == 2);
  CHECK(read->runs[1].started_at == "2026-11-28T02:00:00.000Z");
  std::ofstream(run::sweep_record_path(dir.string())) << R"({"name": "s"})";
  CHECK_THROWS_WITH_AS(run::read_sweep_record(dir.string()),
                       doctest::Contains("sweep.json' is not a pbench sweep record (version 1)"),
                       UsageError);
  fs::remove_all(dir);
}

TEST_CASE(
    "sweep record: a damaged sweep.json is refused by schema/sweep.schema.json, naming "
    "every problem") {
  namespace fs = std::filesystem;
  const fs::path dir =
      fs::temp_directory_path() / ("pbench-record-bad-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  const auto refused = [&](const std::string& text) {
    std::ofstream(run::sweep_record_path(dir.string()), std::ios::trunc) << text;
    try {
      run::read_sweep_record(dir.string());
    } catch (const UsageError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  const std::string spec = R"({"name":"s","workers":["logp"],"partitions":[2],"queue_depths":[1],)"
                           R"("scheduler":"local","launcher":"mpiexec","settings":{}})";
  const auto record = [&](const std::string& runs) {
    return R"({"sweep_record_version":1,"name":"s","scheduler":"local",)"
           R"("created_at":"2026-11-28T01:00:00.000Z","spec":)" +
           spec + R"(,"runs":)" + runs + "}";
  };
  CHECK(refused(record(R"([{"run":1,"started_at":"x","envelope":{}}])")) == "accepted");
  CHECK(refused("{not json") == "'" + run::sweep_record_path(dir.string()) +
                                    "' is not a pbench sweep record (version 1): not JSON");
  const auto zero_run = refused(record(R"([{"run":0,"started_at":"x"}])"));
  CHECK(zero_run.find("at /runs/0/run: ") != std::string::npos);
  const auto two = refused(record(R"([{"run":"one"},{"run":2,"started_at":"x","extra":1}])"));
  CHECK(two.find("at /runs/0/run: ") != std::string::npos);
  CHECK(two.find("at /runs/0/started_at: ") != std::string::npos);
  CHECK(two.find("at /runs/1/extra: unexpected property") != std::string::npos);
  const auto bad_spec = refused(R"({"sweep_record_version":1,"name":"s","scheduler":"local",)"
                                R"("created_at":"t","spec":{"name":"s","workers":"logp"}})");
  CHECK(bad_spec.find("at /spec/workers: ") != std::string::npos);
  CAPTURE(bad_spec);
  CHECK(bad_spec.find("at /spec/launcher: missing required property") != std::string::npos);
  fs::remove_all(dir);
}

TEST_CASE("store verify: a kept headline answer that differs from the metric rows is named") {
  auto f = two_results();
  CHECK(f.store.answer_headlines() == 1);
  CHECK(ingest::verify_store(f.store.db()).problems.empty());
  run_sql(f.store, "UPDATE headline_answers SET value = value / 100 WHERE figure = 'b_eff'");
  const auto report = ingest::verify_store(f.store.db());
  REQUIRE(report.problems.size() == 1);
  const auto& p = report.problems.front();
  CHECK(p.kind == "headline");
  CHECK(p.sweep == "s");
  CHECK(p.stored == "12500000");
  CHECK(p.document == "1250000000");
  CHECK(p.message.find("sweep s run 1: headline b_eff (partition ") == 0);
  CHECK(p.message.find("): kept value 12500000, the store's metric rows give 1250000000") !=
        std::string::npos);
}
