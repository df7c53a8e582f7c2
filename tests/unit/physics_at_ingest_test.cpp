// Physics at ingest (issue 38): every metric of the catalogue has a bound (positive, a latency
// floor, zero or more, any finite value; a bandwidth ceiling per process), and a result whose
// document says valid with a value outside it is stored not valid with the reason, for every
// worker; a store of an older version gets the same judgement of what it holds.
#include <doctest/doctest.h>

#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <nlohmann/json.hpp>
#include <string>

#include "common/MetricCatalogue.hpp"
#include "ingest/Ingester.hpp"
#include "query/ResultValidity.hpp"
#include "store/Store.hpp"
#include "support/OldStores.hpp"
#include "support/StoreFixture.hpp"
#include "util/Error.hpp"

using namespace pbench;
using nlohmann::json;

namespace {

/// A value the metric can have: a microsecond, a gigabyte per second, a nanosecond per byte, 4.
double possible(const metrics::MetricSpec& m) {
  if (m.unit == "s") return 1e-6;
  if (m.unit == "B/s") return 1e9;
  if (m.unit == "s/B") return 1e-9;
  return 4;
}

std::string text_of(store::Store& store, const std::string& sql, std::int64_t id) {
  auto s = store.db().prepare(sql);
  s.bind(1, id);
  REQUIRE(s.step());
  return s.optional_text(0).value_or("(null)");
}

}  // namespace

TEST_CASE("physics: every metric of every worker has a bound, and values outside it are named") {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  int latencies = 0;
  int anything = 0;
  for (const auto& m : metrics::catalogue()) {
    CAPTURE(m.worker);
    CAPTURE(m.name);
    const auto bound = metrics::bound_of(m);
    CHECK(bound != metrics::Bound::by_unit);
    CHECK(!metrics::bound_text(m).empty());
    CHECK(metrics::impossible_value(m, possible(m), 2).empty());
    for (const double never : {nan, inf, -inf}) {
      CHECK(metrics::impossible_value(m, never, 2).find("is not a finite number") !=
            std::string::npos);
    }
    const std::string negative = metrics::impossible_value(m, -1, 2);
    if (bound == metrics::Bound::any) {
      ++anything;
      CHECK(negative.empty());
    } else {
      CHECK(negative.rfind("physically impossible: " + std::string(m.name) + " = ", 0) == 0);
    }
    if (bound == metrics::Bound::positive) {
      CHECK(metrics::impossible_value(m, 0, 2).find("is not positive") != std::string::npos);
    }
    if (bound == metrics::Bound::non_negative) CHECK(metrics::impossible_value(m, 0, 2).empty());
    if (bound == metrics::Bound::latency) {
      ++latencies;
      CHECK(m.unit == "s");
      CHECK(metrics::impossible_value(m, 1e-12, 2).find("is below 0.01 us") != std::string::npos);
      CHECK(metrics::impossible_value(m, metrics::kLatencyFloor, 2).empty());
    }
    if (m.unit == "B/s") {
      // The ceiling scales with the processes the figure sums over: one for a figure of one
      // process or pair (logp's flood bandwidth), all of them for b_eff or b_eff_io.
      if (metrics::bandwidth_processes(m, 2) == 1) {
        CHECK(metrics::impossible_value(m, 0.9e13, 2).empty());
        CHECK(metrics::impossible_value(m, 1.9e13, 2).find("per process x 1 process") !=
              std::string::npos);
      } else {
        CHECK(metrics::impossible_value(m, 1.5e13, 2).empty());
        CHECK(metrics::impossible_value(m, 2.5e13, 2).find("per process x 2 processes") !=
              std::string::npos);
      }
      CHECK(metrics::bound_text(m) == "> 0, <= 1e+13 B/s per process");
    }
    if (m.unit == "s/B") {
      CHECK(metrics::impossible_value(m, 1e-14, 2).find("is below") != std::string::npos);
    }
  }
  // Every worker's end-to-end and broadcast latencies have the floor; L alone may be negative.
  CHECK(latencies >= 10);
  CHECK(anything == 1);
  CHECK(metrics::bound_of(*metrics::find_metric("logp", "latency_l")) == metrics::Bound::any);
  CHECK(metrics::bound_of(*metrics::find_metric("logp", "o_s")) == metrics::Bound::non_negative);
  CHECK(metrics::bound_of(*metrics::find_metric("io", "cut_rows")) == metrics::Bound::non_negative);
  CHECK(metrics::impossible_value(*metrics::find_metric("logp", "g"), -1e-6, 2) ==
        "physically impossible: g = -1 us is not positive");
}

TEST_CASE(
    "physics: a result saying valid with a figure that cannot be is stored not valid, for "
    "every worker") {
  // worker, a metric that cannot be as written, and the words of its reason.
  struct Case {
    std::string worker;
    json bad;
    std::string words;
  };
  const std::vector<Case> cases = {
      {"logp", testing::metric("g", -1e-6, "s", {{"queue_depth", 1}}),
       "g = -1 us is not positive ({\"queue_depth\":1})"},
      {"logp",
       testing::metric("bandwidth_at_max_size", -5e9, "B/s",
                       {{"queue_depth", 1}, {"size", 4194304}}),
       "bandwidth_at_max_size = -5e+09 B/s is not positive"},
      {"logp", testing::metric("eel_min", 1e-12, "s"), "eel_min = 1e-06 us is below 0.01 us"},
      {"comm", testing::metric("b_eff", 5e20, "B/s"),
       "b_eff = 5e+20 B/s is above 4e+13 B/s (1e+13 B/s per process x 4 processes)"},
      {"io", testing::metric("b_eff_io", 0, "B/s", {{"partition", 4}}),
       "b_eff_io = 0 B/s is not positive"},
      {"io", testing::metric("read_errors", -3, "count"), "read_errors = -3 count is negative"},
      {"bcast", testing::metric("ol", -2e-6, "s", {{"size", 8}}), "ol = -2 us is not positive"},
      {"links", testing::metric("link_latency", 2e-9, "s", {{"from", "a"}, {"to", "b"}}),
       "link_latency = 0.002 us is below 0.01 us"},
      {"links", testing::metric("link_latency", 0, "s", {{"from", "a"}, {"to", "b"}}),
       "link_latency = 0 us is not positive"},
  };
  for (const auto& c : cases) {
    CAPTURE(c.worker);
    CAPTURE(c.words);
    testing::Fixture f;
    f.add_sweep("s", {{c.worker, 4}});
    ingest::Ingester ingester(f.store);
    const auto stored =
        ingester.ingest_text(testing::document(c.worker, 4, json::array({c.bad}), true).dump(),
                             "doc", f.points[0].id, std::nullopt);
    CAPTURE(stored.impossible);
    CHECK(stored.impossible.find(c.words) != std::string::npos);
    CHECK(text_of(f.store, "SELECT valid FROM results WHERE id = ?1", stored.result_id) == "0");
    const auto reasons = query::validity_reasons(f.store, stored.result_id);
    REQUIRE(!reasons.empty());
    CHECK(reasons.front() == stored.impossible);
    // The views' first reason says it too.
    CHECK(text_of(f.store, "SELECT reason FROM result_facts WHERE result_id = ?1",
                  stored.result_id) == stored.impossible);
    // The metric is stored as the document gave it: the document stays the worker's.
    CHECK(text_of(f.store, "SELECT count(*) FROM metrics WHERE result_id = ?1", stored.result_id) ==
          "1");
  }
}

TEST_CASE(
    "physics: a document that says not valid keeps its reasons, the impossible one first, "
    "L may be negative") {
  testing::Fixture f;
  f.add_sweep("s", {{"logp", 2}, {"logp", 2}});
  ingest::Ingester ingester(f.store);
  const auto not_valid = ingester.ingest_text(
      testing::document("logp", 2, json::array({testing::metric("g", -1e-6, "s")}), false).dump(),
      "a", f.points[0].id, std::nullopt);
  // Not counted as a document that lied: it said not valid.
  CHECK(not_valid.impossible.empty());
  const auto reasons = query::validity_reasons(f.store, not_valid.result_id);
  REQUIRE(reasons.size() == 2);
  CHECK(reasons[0] == "physically impossible: g = -1 us is not positive");
  CHECK(reasons[1] == "not the reference configuration");
  // L = EEL - o_s - o_r is a model figure: negative is no reason.
  const auto model = ingester.ingest_text(
      testing::document(
          "logp", 2,
          {testing::metric("eel_min", 1e-6, "s"), testing::metric("latency_l", -2e-7, "s")}, true,
          json::object(), "2026-11-22T07:00:09.000Z")
          .dump(),
      "b", f.points[1].id, std::nullopt);
  CHECK(model.impossible.empty());
  CHECK(text_of(f.store, "SELECT valid FROM results WHERE id = ?1", model.result_id) == "1");
}

TEST_CASE(
    "physics: an older store's valid result with a figure that cannot be becomes not valid "
    "on migration, with the reason") {
  const auto path =
      std::filesystem::temp_directory_path() / ("pbench-v8-" + std::to_string(::getpid()) + ".db");
  std::filesystem::remove(path);
  std::int64_t bad = 0;
  std::int64_t good = 0;
  {
    testing::Fixture f(store::Store::open(path.string(), store::Store::Access::create));
    f.add_sweep("old", {{"logp", 2}, {"logp", 4}});
    f.add_run(0,
              testing::document("logp", 2, json::array({testing::metric("g", 2e-7, "s")}), true));
    f.add_run(1,
              testing::document("logp", 4, json::array({testing::metric("g", 3e-7, "s")}), true));
    bad =
        std::stoll(text_of(f.store, "SELECT id FROM results WHERE point_id = ?1", f.points[0].id));
    good =
        std::stoll(text_of(f.store, "SELECT id FROM results WHERE point_id = ?1", f.points[1].id));
    // What an older pbench stored valid: a negative gap.
    f.store.db().exec("UPDATE metrics SET value = -1e-6 WHERE result_id = " + std::to_string(bad));
    testing::make_version_4(f.store);
    f.store.db().exec("ALTER TABLE results DROP COLUMN ingest_reason");
  }
  auto store = store::Store::open(path.string(), store::Store::Access::existing);
  CHECK(text_of(store, "SELECT valid FROM results WHERE id = ?1", bad) == "0");
  CHECK(text_of(store, "SELECT ingest_reason FROM results WHERE id = ?1", bad) ==
        "physically impossible: g = -1 us is not positive");
  CHECK(text_of(store, "SELECT valid FROM results WHERE id = ?1", good) == "1");
  CHECK(text_of(store, "SELECT bound FROM metric_catalogue WHERE name = 'eel_min' AND ?1 = 0", 0) ==
        ">= 0.01 us");
  for (const auto* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(path.string() + suffix);
}

TEST_CASE("ingest names NaN and Infinity, and refuses a result that is a symbolic link") {
  std::string text =
      testing::document("logp", 2, json::array({testing::metric("g", 1.5e-7, "s")}), true).dump();
  for (const std::string word : {"NaN", "Infinity", "-Infinity"}) {
    std::string bad = text;
    bad.replace(bad.find("1.5e-07"), 7, word);
    CHECK_THROWS_WITH_AS(ingest::parse_and_validate(bad, "r.json"),
                         doctest::Contains((word + " is not a JSON number").c_str()),
                         ValidationError);
  }
  const auto dir =
      std::filesystem::temp_directory_path() / ("pbench-symlink-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  { std::ofstream(dir / "other.json") << text; }
  std::filesystem::create_symlink(dir / "other.json", dir / "result.json");
  testing::Fixture f;
  f.add_sweep("s", {{"logp", 2}});
  ingest::Ingester ingester(f.store);
  CHECK_THROWS_WITH_AS(ingester.ingest_file((dir / "result.json").string(), f.points[0].id, {}),
                       doctest::Contains("a symbolic link (to '"), ValidationError);
  CHECK(f.store.result_count(f.store.find_sweep("s")->id) == 0);
  // The file itself is stored.
  CHECK(!ingester.ingest_file((dir / "other.json").string(), f.points[0].id, {}).duplicate);
  std::filesystem::remove_all(dir);
}

TEST_CASE("a one-pair bandwidth is capped per process, and by a machine's stated peaks") {
  const auto& pair = *metrics::find_metric("logp", "bandwidth_at_max_size");
  // 19 TB/s between two processes of a 2-process run: above the generic 10 TB/s per process.
  CHECK(metrics::impossible_value(pair, 1.9e13, 2).find("is above 1e+13 B/s") != std::string::npos);
  const std::vector<metrics::MetricValue> values = {{"bandwidth_at_max_size", 1.9e13, ""}};
  CHECK(!metrics::impossible_figures("logp", 2, values).empty());
  // A machine known to move 20 GB/s per process and 50 GB/s per node: 30 GB/s cannot be.
  metrics::BandwidthPeaks peaks;
  peaks.per_process = 20e9;
  peaks.per_node = 50e9;
  peaks.source = "site profile 'lab'";
  CHECK(metrics::impossible_value(pair, 19e9, 2, 1, peaks).empty());
  const auto over = metrics::impossible_value(pair, 30e9, 2, 1, peaks);
  CHECK(over.find("more than the machine's stated peak") != std::string::npos);
  CHECK(over.find("site profile 'lab'") != std::string::npos);
  // A sum over processes: the smaller of 20 GB/s x 8 processes and 50 GB/s x 2 nodes.
  CHECK(metrics::bandwidth_cap(8, 2, peaks) == 100e9);
  CHECK(metrics::bandwidth_cap(8, 2) == 8e13);
  const auto& sum = *metrics::find_metric("comm", "b_eff");
  CHECK(metrics::impossible_value(sum, 99e9, 8, 2, peaks).empty());
  CHECK(!metrics::impossible_value(sum, 101e9, 8, 2, peaks).empty());
  // 1/G above the stated per-process peak.
  const auto& per_byte = *metrics::find_metric("logp", "big_g");
  CHECK(!metrics::impossible_value(per_byte, 1 / 30e9, 2, 1, peaks).empty());
  CHECK(metrics::impossible_value(per_byte, 1 / 10e9, 2, 1, peaks).empty());
}

TEST_CASE(
    "a document not valid for its worker's own physical reason is still held to the machine's "
    "stated peaks") {
  testing::Fixture f;
  f.add_sweep("s", {{"logp", 2}, {"logp", 2}});
  // What pbench-logp writes when its flood curve was not bandwidth-bound: G not reported, its own
  // physical reason, and the flood's bandwidth at its largest size.
  auto doc = testing::document("logp", 2,
                               json::array({testing::metric("bandwidth_at_max_size", 9e7, "B/s"),
                                            testing::metric("g", -1e-6, "s")}),
                               false);
  doc["validity"]["reasons"] =
      json::array({"physically impossible: G (q = 1) = -0.15 ns/B is not positive"});
  metrics::BandwidthPeaks slow;
  slow.per_process = 1000;
  slow.per_node = 1000;
  slow.source = "site profile slow.toml [machine]";
  ingest::Ingester held(f.store);
  held.set_machine_peaks(slow);
  const auto stated = held.ingest_text(doc.dump(), "a", f.points[0].id, std::nullopt);
  const auto reason = text_of(f.store, "SELECT ingest_reason FROM results WHERE id = ?1",
                              stated.result_id);
  // The stated peak's finding, and not the worker's own again (g is its to name).
  CHECK(reason.find("bandwidth_at_max_size = ") != std::string::npos);
  CHECK(reason.find("more than the machine's stated peak") != std::string::npos);
  CHECK(reason.find("g = ") == std::string::npos);
  // Without stated peaks the worker's own reason stands alone.
  doc["started_at"] = "2026-11-22T07:00:09.000Z";
  ingest::Ingester generic(f.store);
  const auto alone = generic.ingest_text(doc.dump(), "b", f.points[1].id, std::nullopt);
  CHECK(text_of(f.store, "SELECT ingest_reason FROM results WHERE id = ?1", alone.result_id) ==
        "(null)");
  const auto reasons = query::validity_reasons(f.store, alone.result_id);
  REQUIRE(!reasons.empty());
  CHECK(reasons[0] == "physically impossible: G (q = 1) = -0.15 ns/B is not positive");
}
