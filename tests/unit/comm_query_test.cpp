// pbench query comm: the paper's Table 1 by partition from the newest result of each point, the
// maximum over partitions (valid results first) with the winning point and job, and notes for
// partitions that were not run or have no result.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include "ingest/Ingester.hpp"
#include "query/CommQuery.hpp"
#include "store/Store.hpp"
#include "support/StoreFixture.hpp"
#include "util/Error.hpp"

using namespace pbench;

namespace {

using testing::metric;

/// A comm result on `n` processes whose figures all derive from b_eff (B/s).
nlohmann::json comm_document(int n, double b_eff, bool valid, const std::string& started_at) {
  nlohmann::json summary = {
      metric("b_eff", b_eff, "B/s"),
      metric("b_eff_per_process", b_eff / n, "B/s"),
      metric("l_max", 8192, "B"),
      metric("pingpong_bandwidth", 5e9, "B/s"),
      metric("b_eff_at_lmax", 2 * b_eff, "B/s"),
      metric("b_eff_per_process_at_lmax", 2 * b_eff / n, "B/s"),
      metric("ring_per_process_at_lmax", 3 * b_eff / n, "B/s"),
      metric("b_ring", b_eff, "B/s"),
      metric("b_random", b_eff, "B/s"),
      metric("latency_rings_random", 2e-6, "s"),
      metric("latency_rings", 1e-6, "s"),
      metric("latency_pingpong", 5e-7, "s"),
      metric("b_pattern", 1.0, "B/s", {{"pattern", "ring1:1*2"}}),
  };
  auto doc = testing::document("comm", n, summary, valid, nlohmann::json::object(), started_at);
  doc["seeds"] = {{"random_patterns", 7}};
  if (!valid) {
    doc["validity"]["reasons"] =
        nlohmann::json::array({"not the reference configuration: repetitions = 1 (reference 3)"});
  }
  return doc;
}

struct Fixture {
  store::Store store = store::Store::open_in_memory();
  std::vector<store::PointRecord> points;

  /// A comm sweep over `partitions` with one point for each of `planned`.
  void add_sweep(const std::string& name, const std::string& partitions,
                 const std::vector<int>& planned) {
    points.clear();
    for (int p : planned) {
      store::PointRecord point;
      point.key = name + "-p" + std::to_string(p);
      point.worker = "comm";
      point.partition = p;
      point.params_json = "{}";
      point.script_path = "/nonexistent/job.sh";
      points.push_back(point);
    }
    store.insert_sweep({0, name, R"({"workers":["comm"],"partitions":)" + partitions + "}", "local",
                        "/nonexistent", "2026-11-22T00:00:00.000Z"},
                       points);
  }

  /// An attempt of the i-th point with `job`, and its result when `document` is not null.
  void add_run(std::size_t i, const std::string& job, const nlohmann::json& document,
               std::optional<std::string> stderr_tail = std::nullopt) {
    store::AttemptRecord a;
    a.point_id = points[i].id;
    a.attempt_no = 1;
    a.job_id = job;
    a.state = document.is_null() ? store::PointState::failed : store::PointState::done;
    a.exit_status = document.is_null() ? 2 : 0;
    a.job_dir = a.stdout_path = a.stderr_path = a.result_path = "/nonexistent";
    a.stderr_tail = std::move(stderr_tail);
    a = store.add_attempt(a);
    store.set_point_state(points[i].id, a.state);
    if (!document.is_null()) {
      ingest::Ingester(store).ingest_text(document.dump(), job, points[i].id, a.id);
    }
  }
};

std::vector<std::string> keys(const query::QueryTable& t) {
  std::vector<std::string> out;
  for (const auto& c : t.columns) out.push_back(c.key);
  return out;
}

double number(const query::Cell& cell) {
  return std::get<double>(cell);
}

}  // namespace

TEST_CASE("comm query: Table 1 per partition, then the partition with the largest valid b_eff") {
  Fixture f;
  f.add_sweep("s", "[1,2,4,8,16]", {2, 4, 8, 16});
  f.add_run(0, "job-2", comm_document(2, 1e9, true, "2026-11-22T07:00:00.000Z"));
  f.add_run(1, "job-4", comm_document(4, 3e9, true, "2026-11-22T07:01:00.000Z"));
  f.add_run(2, "job-8", comm_document(8, 9e9, false, "2026-11-22T07:02:00.000Z"));
  f.add_run(3, "job-16", nullptr, "killed\nout of memory\n");

  const auto t = query::comm_table(f.store, std::string("s"));
  CHECK(keys(t) == std::vector<std::string>{
                       "sweep", "row", "partition", "nodes", "ppn", "b_eff", "b_eff_per_process",
                       "l_max", "pingpong_bandwidth", "b_eff_at_lmax", "b_eff_per_process_at_lmax",
                       "ring_per_process_at_lmax", "latency_rings_random", "latency_rings",
                       "latency_pingpong", "valid", "reason"});
  REQUIRE(t.rows.size() == 4);
  CHECK(std::get<std::int64_t>(t.rows[0][2]) == 2);
  CHECK(std::get<std::string>(t.rows[2][15]) == "no");
  // A row that is not valid carries its worker's first reason; a valid row none.
  CHECK(std::get<std::string>(t.rows[2][16]) ==
        "not the reference configuration: repetitions = 1 (reference 3)");
  CHECK(std::holds_alternative<std::monostate>(t.rows[1][16]));
  // Every figure of a row comes from its own result.
  CHECK(number(t.rows[1][5]) == doctest::Approx(3e9));
  CHECK(number(t.rows[1][6]) == doctest::Approx(3e9 / 4));
  CHECK(number(t.rows[1][7]) == doctest::Approx(8192));
  CHECK(number(t.rows[1][10]) == doctest::Approx(6e9 / 4));
  CHECK(number(t.rows[1][11]) == doctest::Approx(9e9 / 4));
  CHECK(number(t.rows[1][14]) == doctest::Approx(5e-7));
  // The not-valid 8-process result has the largest b_eff, but the maximum is the valid one.
  CHECK(std::get<std::string>(t.rows[3][1]) == "max");
  CHECK(std::get<std::int64_t>(t.rows[3][2]) == 4);
  CHECK(number(t.rows[3][5]) == doctest::Approx(3e9));
  REQUIRE(t.notes.size() == 4);
  CHECK(t.notes[0] ==
        "sweep s: the largest b_eff, 3000 MB/s, is on 4 processes (point s-p4, job job-4)");
  // Every reason of a result that is not valid, like query bcast's notes.
  CHECK(t.notes[1] ==
        "sweep s, partition 8: not valid: not the reference configuration: repetitions = 1 "
        "(reference 3)");
  CHECK(t.notes[2] == "sweep s, partition 1: not run, b_eff needs at least 2 processes");
  CHECK(t.notes[3] == "sweep s, partition 16: no result: failed, exit status 2 (out of memory)");
}

TEST_CASE("comm query: without a valid result the maximum is among the others, and says so") {
  Fixture f;
  f.add_sweep("a", "[2,4]", {2, 4});
  f.add_run(0, "j2", comm_document(2, 2e9, false, "2026-11-22T07:00:00.000Z"));
  f.add_run(1, "j4", comm_document(4, 1e9, false, "2026-11-22T07:01:00.000Z"));
  f.add_sweep("b", "[2]", {2});
  f.add_run(0, "k2", comm_document(2, 5e9, true, "2026-11-22T07:02:00.000Z"));

  const auto t = query::comm_table(f.store, std::nullopt);
  REQUIRE(t.rows.size() == 5);  // a: 2, 4, max; b: 2, max
  CHECK(std::get<std::string>(t.rows[2][1]) == "max");
  CHECK(std::get<std::int64_t>(t.rows[2][2]) == 2);
  CHECK(std::get<std::string>(t.rows[4][0]) == "b");
  CHECK(std::get<std::string>(t.rows[4][1]) == "max");
  REQUIRE(t.notes.size() == 4);
  CHECK(t.notes[0] ==
        "sweep a: the largest b_eff (no result is valid; among the not valid ones), 2000 MB/s, is "
        "on 2 processes (point a-p2, job j2) (not valid: not the reference configuration: "
        "repetitions = 1 (reference 3))");
  CHECK(t.notes[1] ==
        "sweep b: the largest b_eff, 5000 MB/s, is on 2 processes (point b-p2, job k2)");
  CHECK(t.notes[2].find("sweep a, partition 2: not valid: not the reference") == 0);
  CHECK(t.notes[3].find("sweep a, partition 4: not valid: not the reference") == 0);

  // The table renders with display units; an unknown sweep is a usage error.
  const auto text = query::render(t, query::Format::table);
  // (wider than 160 columns with the units beside the titles: the units under them)
  CHECK(text.find("b_eff  b_eff/proc") != std::string::npos);
  CHECK(text.find("[MB/s]      [MB/s]") != std::string::npos);
  CHECK(text.find("[MiB]") != std::string::npos);
  for (std::size_t at = 0, end = 0; at < text.size(); at = end + 1) {
    end = text.find('\n', at);
    CHECK(end - at <= query::kTableWidth);
  }
  CHECK_THROWS_AS(query::comm_table(f.store, std::string("nope")), UsageError);
}

TEST_CASE("comm query: an empty store says there are no comm results") {
  auto store = store::Store::open_in_memory();
  const auto t = query::comm_table(store, std::nullopt);
  CHECK(t.rows.empty());
  REQUIRE(t.notes.size() == 1);
  CHECK(t.notes[0].find("no comm results") == 0);
}
