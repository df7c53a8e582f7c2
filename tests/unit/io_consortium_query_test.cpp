// pbench query io --suite consortium: per point and named test the transfer rate (the maximum
// over iterations) with the per-process bandwidth and open/close times of the iteration that
// gave it, the small-files rates, partial results with their reason; b_eff_io stays the default.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "ingest/Ingester.hpp"
#include "query/IoConsortiumQuery.hpp"
#include "query/IoQuery.hpp"
#include "query/WhereFilter.hpp"
#include "query/WorkerQueries.hpp"
#include "store/Store.hpp"
#include "support/StoreFixture.hpp"
#include "util/Error.hpp"

using namespace pbench;
using Json = nlohmann::json;

namespace {

using testing::setting;  // a parameter given on the command line

Json columns(const std::vector<std::string>& names) {
  Json out = Json::array();
  for (const auto& n : names) out.push_back({{"name", n}, {"unit", ""}});
  return out;
}

/// A consortium result on 2 processes, each moving 1000 B per test. Iteration 1 of each test is
/// the faster one (aggregate 0.001 s against 0.002 s); `complete` false: iteration 1 is missing
/// and the result is partial.
Json consortium_document(const std::string& pattern, bool complete, const std::string& started) {
  const std::vector<std::string> tests = {"sustained_write", "cached_write", "sustained_read"};
  Json test_rows = Json::array();
  Json process_rows = Json::array();
  Json summary = Json::array();
  const int iterations = complete ? 2 : 1;
  for (const auto& test : tests) {
    for (int it = 0; it < iterations; ++it) {
      const double aggregate = it == 1 ? 0.001 : 0.002;
      // Process 0 takes the aggregate time, process 1 half of it.
      test_rows.push_back({test,
                           it,
                           2,
                           2000,
                           2,
                           aggregate,
                           2000 / aggregate,
                           0,
                           0.1e-3 * (it + 1),
                           0.15e-3 * (it + 1),
                           0.2e-3 * (it + 1),
                           0.05e-3,
                           0.0005,
                           0.0006,
                           0.0007,
                           0.0001,
                           0.01e-3,
                           0.02e-3,
                           0.03e-3,
                           0.01e-3});
      process_rows.push_back({test, it, 0, 0, 1000, 0.0002, 0.0007, 0.00003, aggregate});
      process_rows.push_back({test, it, 1, 1, 1000, 0.0001, 0.0005, 0.00001, aggregate / 2});
    }
    summary.push_back(
        {{"name", test + "_transfer_rate"},
         {"value", complete ? 2e6 : 1e6},
         {"unit", "B/s"},
         {"samples", iterations},
         {"labels", {{"pattern", pattern}, {"statistic", "maximum over iterations"}}}});
  }
  Json small = Json::array();
  for (int it = 0; it < 2; ++it) {
    small.push_back(
        {"shared", "create", it, 10, 0.01, it == 0 ? 1000.0 : 500.0, 0.005, 0.0075, 0.01, 0.0025});
    small.push_back({"per_process", "create", it, 10, 0.005, it == 0 ? 2000.0 : 4000.0, 0.002,
                     0.0035, 0.005, 0.0015});
  }
  Json measurements = {
      {"consortium_tests",
       {{"columns", columns({"test",
                             "iteration",
                             "processes",
                             "bytes",
                             "transfers",
                             "aggregate_time",
                             "transfer_rate",
                             "read_errors",
                             "open_time_min",
                             "open_time_mean",
                             "open_time_max",
                             "open_time_deviation",
                             "transfer_time_min",
                             "transfer_time_mean",
                             "transfer_time_max",
                             "transfer_time_deviation",
                             "close_time_min",
                             "close_time_mean",
                             "close_time_max",
                             "close_time_deviation"})},
        {"rows", test_rows}}},
      {"consortium_processes",
       {{"columns", columns({"test", "iteration", "process", "read_process", "bytes", "open_time",
                             "transfer_time", "close_time", "total_time"})},
        {"rows", process_rows}}}};
  if (complete) {
    measurements["consortium_small_files"] = {
        {"columns", columns({"directory", "phase", "iteration", "files", "aggregate_time", "rate",
                             "time_min", "time_mean", "time_max", "time_deviation"})},
        {"rows", small}};
  }
  const Json parameters = {
      {"suite", setting("consortium")}, {"pattern", setting(pattern)},
      {"api", setting("mpiio")},        {"collective", setting(pattern == "strided" ? 1 : 0)},
      {"file_per_process", setting(0)}, {"transfer_size", setting(500)},
      {"block_size", setting(1000)},    {"segment_count", setting(1)}};
  Json doc = testing::document("io", 2, summary, complete, parameters, started);
  doc["seeds"] = {{"transfer_sizes", 7}};
  doc["measurements"] = measurements;
  doc["validity"]["reasons"] = Json::array();
  if (!complete) {
    doc["validity"]["reasons"].push_back(
        "partial result: the run stopped at iteration 1, sustained_write: write to 'f' failed: "
        "No space left on device");
  }
  return doc;
}

struct Fixture {
  store::Store store = store::Store::open_in_memory();
  std::vector<store::PointRecord> points;

  Fixture() {
    for (const char* pattern : {"segmented", "strided", "random"}) {
      store::PointRecord point;
      point.key = std::string("c-") + pattern;
      point.worker = "io";
      point.partition = 2;
      point.params_json = Json{{"worker", "io"},
                               {"partition", 2},
                               {"pattern", pattern},
                               {"hints", "romio_cb_write=enable"},
                               {"transfer_size", 4096},
                               {"collective", true},
                               {"settings", {{"suite", "consortium"}}}}
                              .dump();
      point.script_path = "/nonexistent/job.sh";
      points.push_back(point);
    }
    store.insert_sweep({0, "c", R"({"workers":["io"],"partitions":[2]})", "local", "/nonexistent",
                        "2026-11-22T00:00:00.000Z"},
                       points);
    add_run(0, consortium_document("segmented", true, "2026-11-22T07:00:01.000Z"), 0);
    add_run(1, consortium_document("strided", false, "2026-11-22T07:00:02.000Z"), 3);
    // The third point failed without a result.
    store::AttemptRecord a;
    a.point_id = points[2].id;
    a.attempt_no = 1;
    a.job_id = "job-2";
    a.state = store::PointState::failed;
    a.exit_status = 2;
    a.job_dir = a.stdout_path = a.stderr_path = a.result_path = "/nonexistent";
    store.add_attempt(a);
    store.set_point_state(points[2].id, a.state);
  }

  void add_run(std::size_t i, const Json& document, int exit_status) {
    store::AttemptRecord a;
    a.point_id = points[i].id;
    a.attempt_no = 1;
    a.job_id = "job-" + std::to_string(i);
    a.state = exit_status == 0 ? store::PointState::done : store::PointState::failed;
    a.exit_status = exit_status;
    a.job_dir = a.stdout_path = a.stderr_path = a.result_path = "/nonexistent";
    a = store.add_attempt(a);
    store.set_point_state(points[i].id, a.state);
    ingest::Ingester(store).ingest_text(document.dump(), *a.job_id, points[i].id, a.id);
  }
};

/// The cell of column `key` in `row`.
const query::Cell& cell(const query::QueryTable& t, const std::vector<query::Cell>& row,
                        const std::string& key) {
  for (std::size_t i = 0; i < t.columns.size(); ++i) {
    if (t.columns[i].key == key) return row.at(i);
  }
  FAIL("no column " << key);
  throw;
}

std::string text(const query::QueryTable& t, const std::vector<query::Cell>& row,
                 const std::string& key) {
  return std::get<std::string>(cell(t, row, key));
}

double number(const query::QueryTable& t, const std::vector<query::Cell>& row,
              const std::string& key) {
  return std::get<double>(cell(t, row, key));
}

}  // namespace

TEST_CASE("query io --suite consortium: the best iteration per test, its spread and the rates") {
  Fixture f;
  const auto t = query::io_consortium_table(f.store, std::string("c"));
  // segmented: 3 tests + 2 small-files rows; strided (partial): 3 tests from iteration 0.
  REQUIRE(t.rows.size() == 8);
  const auto& write = t.rows[0];
  CHECK(text(t, write, "pattern") == "segmented");
  CHECK(text(t, write, "api") == "mpiio-indep");
  CHECK(text(t, write, "sharing") == "shared");
  CHECK(text(t, write, "hints") == "romio_cb_write=enable");
  CHECK(std::get<std::int64_t>(cell(t, write, "transfer_size")) == 500);
  CHECK(std::get<std::int64_t>(cell(t, write, "block_size")) == 1000);
  CHECK(std::get<std::int64_t>(cell(t, write, "segment_count")) == 1);
  CHECK(text(t, write, "test") == "sustained_write");
  // Iteration 1 is the faster one: 2000 B / 0.001 s, and its processes 1000 B / 0.001 s and
  // 1000 B / 0.0005 s.
  CHECK(number(t, write, "bandwidth") == doctest::Approx(2e6));
  CHECK(number(t, write, "process_bandwidth_min") == doctest::Approx(1e6));
  CHECK(number(t, write, "process_bandwidth_mean") == doctest::Approx(1.5e6));
  CHECK(number(t, write, "process_bandwidth_max") == doctest::Approx(2e6));
  CHECK(number(t, write, "open_time_min") == doctest::Approx(0.2e-3));
  CHECK(number(t, write, "open_time_mean") == doctest::Approx(0.3e-3));
  CHECK(number(t, write, "open_time_max") == doctest::Approx(0.4e-3));
  CHECK(number(t, write, "close_time_max") == doctest::Approx(0.03e-3));
  CHECK(std::holds_alternative<std::monostate>(cell(t, write, "rate")));
  CHECK(std::get<std::int64_t>(cell(t, write, "samples")) == 2);
  CHECK(text(t, write, "valid") == "yes");
  CHECK(text(t, t.rows[1], "test") == "cached_write");
  CHECK(text(t, t.rows[2], "test") == "sustained_read");
  // Small files: the best rate over the two iterations per directory.
  CHECK(text(t, t.rows[3], "test") == "create");
  CHECK(text(t, t.rows[3], "sharing") == "shared");
  CHECK(number(t, t.rows[3], "rate") == doctest::Approx(1000));
  CHECK(text(t, t.rows[4], "sharing") == "per_process");
  CHECK(number(t, t.rows[4], "rate") == doctest::Approx(4000));
  CHECK(std::holds_alternative<std::monostate>(cell(t, t.rows[4], "bandwidth")));
  // The partial result: what was measured, not valid, and the reason in the notes.
  const auto& partial = t.rows[5];
  CHECK(text(t, partial, "pattern") == "strided");
  CHECK(text(t, partial, "api") == "mpiio-coll");
  CHECK(number(t, partial, "bandwidth") == doctest::Approx(1e6));
  CHECK(std::get<std::int64_t>(cell(t, partial, "samples")) == 1);
  CHECK(text(t, partial, "valid") == "no");
  REQUIRE(t.notes.size() == 2);
  CHECK(t.notes[0] ==
        "sweep c, partition 2, strided, mpiio-coll, transfer 500 B: not valid: partial result: "
        "the run stopped at iteration 1, sustained_write: write to 'f' failed: No space left on "
        "device");
  // A point without a result is named by its consortium dimensions.
  CHECK(t.notes[1] ==
        "sweep c, partition 2, hints romio_cb_write=enable, pattern random, transfer 4096 B, "
        "collective on: no result: failed, exit status 2");
  // --where on the table's columns.
  auto only = t;
  query::filter_rows(only, query::parse_where({"test=sustained_read", "pattern=strided"}));
  CHECK(only.rows.size() == 1);
}

TEST_CASE("query io: b_eff_io stays the default and points to the consortium table") {
  Fixture f;
  const auto* io = query::find_worker_query("io");
  REQUIRE(io != nullptr);
  CHECK((query::suite_table(*io, "") == &query::io_table));
  CHECK((query::suite_table(*io, "b_eff_io") == &query::io_table));
  CHECK((query::suite_table(*io, "consortium") == &query::io_consortium_table));
  CHECK_THROWS_WITH_AS(query::suite_table(*io, "ior"),
                       "--suite: 'ior' is not a suite of io (b_eff_io, consortium)", UsageError);
  CHECK_THROWS_AS(query::suite_table(*query::find_worker_query("logp"), "consortium"), UsageError);
  const auto t = query::io_table(f.store, std::string("c"));
  CHECK(t.rows.empty());
  REQUIRE_FALSE(t.notes.empty());
  CHECK(t.notes[0] ==
        "2 io point(s) ran the consortium suite: see pbench query io --suite consortium");
  CHECK(query::count_consortium_results(f.store, std::string("c")) == 2);
  // A store without consortium results says so.
  store::Store empty = store::Store::open_in_memory();
  const auto none = query::io_consortium_table(empty, std::nullopt);
  REQUIRE(none.notes.size() == 1);
  CHECK(none.notes[0] == "no consortium results (sweep with --workers io --suite consortium)");
}
