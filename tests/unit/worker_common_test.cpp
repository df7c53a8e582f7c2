// The worker common library: statistics, parameters (command line, environment, echo) and the
// result document's shape.
#include <doctest/doctest.h>

#include <cstdlib>
#include <vector>

#include "common/Parameters.hpp"
#include "common/ResultDocument.hpp"
#include "common/Stats.hpp"

using namespace pbench::worker;

TEST_CASE("describe gives min, mean, max, sample standard deviation and count") {
  const std::vector<double> xs{2, 4, 4, 4, 5, 5, 7, 9};
  const Stats s = describe(xs);
  CHECK(s.min == 2);
  CHECK(s.max == 9);
  CHECK(s.mean == doctest::Approx(5.0));
  CHECK(s.stddev == doctest::Approx(2.138089935));
  CHECK(s.count == 8);
  CHECK(describe(std::vector<double>{}).count == 0);
  CHECK(describe(std::vector<double>{3.0}).stddev == 0);
}

TEST_CASE("median of odd and even counts") {
  CHECK(median({3, 1, 2}) == 2);
  CHECK(median({4, 1, 3, 2}) == doctest::Approx(2.5));
  CHECK(median({}) == 0);
}

namespace {
struct Argv {
  std::vector<std::string> words;
  std::vector<char*> pointers;
  explicit Argv(std::vector<std::string> w) : words(std::move(w)) {
    for (auto& x : words) pointers.push_back(x.data());
  }
  int argc() { return static_cast<int>(pointers.size()); }
  char** argv() { return pointers.data(); }
};
/// A range no value of these tests leaves.
constexpr pbench::worker::Range kAnyValue{-1e18, 1e18};
}  // namespace

TEST_CASE("parameters come from the command line, then the environment, then the default") {
  std::vector<int> depths{1, 2};
  int runs = 10;
  double window = 2.5;
  Parameters p("logp", "test");
  p.add("queue_depths", depths, "messages", kAnyValue, "queue depths");
  p.add("eel_runs", runs, "count", kAnyValue, "runs");
  p.add("window_ms", window, "ms", kAnyValue, "window");
  ::setenv("PBENCH_EEL_RUNS", "12", 1);
  ::setenv("PBENCH_QUEUE_DEPTHS", "4,8", 1);
  Argv args({"pbench-logp", "--queue-depths", "16,32,64"});
  CHECK_FALSE(p.parse(args.argc(), args.argv()).has_value());
  ::unsetenv("PBENCH_EEL_RUNS");
  ::unsetenv("PBENCH_QUEUE_DEPTHS");
  CHECK(depths == std::vector<int>{16, 32, 64});
  CHECK(runs == 12);
  const auto echo = p.echo();
  CHECK(echo["queue_depths"]["source"] == "command_line");
  CHECK(echo["queue_depths"]["unit"] == "messages");
  CHECK(echo["eel_runs"]["source"] == "environment");
  CHECK(echo["eel_runs"]["value"] == 12);
  CHECK(echo["window_ms"]["source"] == "default");
}

TEST_CASE("the orchestrator's --name=value words set flags and values that start with '-'") {
  // pbench passes --set WORKER.NAME=VALUE as one word --name=VALUE (sweep::worker_arguments).
  bool unguarded = false, keep = true;
  double offset = 0;
  Parameters p("io", "test");
  p.add_flag("unguarded", unguarded, "flag");
  p.add_flag("keep", keep, "flag");
  p.add("offset", offset, "s", kAnyValue, "a value below zero");
  Argv args({"pbench-io", "--unguarded=true", "--keep=false", "--offset=-1.5"});
  CHECK_FALSE(p.parse(args.argc(), args.argv()).has_value());
  CHECK(unguarded);
  CHECK_FALSE(keep);
  CHECK(offset == -1.5);
  CHECK(p.echo()["unguarded"]["source"] == "command_line");
}

TEST_CASE("a malformed parameter is a usage error with exit code 2") {
  int runs = 10;
  Parameters p("logp", "test");
  p.add("eel_runs", runs, "count", kAnyValue, "runs");
  Argv args({"pbench-logp", "--eel-runs", "ten"});
  CHECK(p.parse(args.argc(), args.argv()) == 2);
}

TEST_CASE("every size [B] and time [s, us] parameter reads the same units") {
  std::int64_t memory = 0;
  std::uint64_t cache = 0;
  std::vector<std::int64_t> sizes;
  double seconds = 0, delay_us = 0;
  std::vector<double> window;
  int runs = 1;
  Parameters p("io", "test");
  p.add("memory_per_proc", memory, "B", kAnyValue, "memory");
  p.add("cache_bytes", cache, "B", kAnyValue, "cache");
  p.add("sizes", sizes, "B", kAnyValue, "sizes");
  p.add("schedule_time", seconds, "s", kAnyValue, "T");
  p.add("hop_delay_us", delay_us, "us", kAnyValue, "delay");
  p.add("target_window", window, "s", kAnyValue, "window");
  p.add("runs", runs, "count", kAnyValue, "runs");
  ::setenv("PBENCH_CACHE_BYTES", "1GB", 1);
  Argv args({"pbench-io", "--memory-per-proc", "256MiB", "--sizes", "8,64KiB", "--schedule-time",
             "1.5min", "--hop-delay-us=2ms", "--target-window", "500ms,2s"});
  CHECK_FALSE(p.parse(args.argc(), args.argv()).has_value());
  ::unsetenv("PBENCH_CACHE_BYTES");
  CHECK(memory == 268435456);
  CHECK(cache == 1000000000);
  CHECK(sizes == std::vector<std::int64_t>{8, 65536});
  CHECK(seconds == doctest::Approx(90));
  CHECK(delay_us == doctest::Approx(2000));
  Parameters plain("bcast", "test");
  plain.add("hop_delay_us", delay_us, "us", kAnyValue, "delay");
  Argv hundred({"pbench-bcast", "--hop-delay-us", "100"});
  CHECK_FALSE(plain.parse(hundred.argc(), hundred.argv()).has_value());
  CHECK(delay_us == doctest::Approx(100));  // a plain number in the parameter's own unit
  CHECK(window == std::vector<double>{0.5, 2});
  Parameters q("io", "test");
  q.add("memory_per_proc", memory, "B", kAnyValue, "memory");
  Argv bad({"pbench-io", "--memory-per-proc", "256 parsecs"});
  CHECK(q.parse(bad.argc(), bad.argv()) == 2);
}

TEST_CASE("--describe-parameters lists every parameter with its option, unit and default") {
  int runs = 10;
  bool keep = false;
  Parameters p("logp", "test");
  p.add("eel_runs", runs, "count", kAnyValue, "runs");
  p.add_flag("keep", keep, "keep");
  const auto d = p.describe_parameters();
  CHECK(d["worker"] == "logp");
  REQUIRE(d["parameters"].size() == 2);
  CHECK(d["parameters"][0]["name"] == "eel_runs");
  CHECK(d["parameters"][0]["option"] == "--eel-runs");
  CHECK(d["parameters"][0]["unit"] == "count");
  CHECK(d["parameters"][0]["default"] == "10");
  CHECK(d["parameters"][1]["flag"] == true);
  Argv args({"pbench-logp", "--describe-parameters"});
  CHECK(p.parse(args.argc(), args.argv()) == 0);
}

TEST_CASE("parameter names map to PBENCH_ variables and dashed options") {
  CHECK(Parameters::env_of("queue_depths") == "PBENCH_QUEUE_DEPTHS");
  CHECK(Parameters::flag_of("queue_depths") == "--queue-depths");
}

TEST_CASE("a table refuses a row with the wrong number of values") {
  Table t({{"size", "B"}, {"time", "s"}});
  t.add_row({8, 1e-6});
  CHECK_THROWS_AS(t.add_row({8}), std::logic_error);
  CHECK(t.rows().size() == 1);
}

TEST_CASE("the result document has every field of the contract, non-finite values as null") {
  ResultDocument doc("logp");
  doc.add_table("eel", {{"run", ""}, {"eel", "s"}}).add_row({0, std::nan("")});
  doc.add_metric("eel_min", 1.5e-6, "s", 10, {{"pair", 0}});
  doc.add_metric("g", std::nullopt, "s", 0);
  doc.invalidate("too short");
  doc.finish();
  const auto j = doc.to_json();
  for (const char* key : {"schema_version", "worker", "worker_version", "started_at", "ended_at",
                          "hosts", "mpi_library_version", "nprocs", "procs_per_node", "parameters",
                          "seeds", "measurements", "summary", "validity", "warnings"}) {
    CHECK_MESSAGE(j.contains(key), key);
  }
  CHECK(j["measurements"]["eel"]["rows"][0][1].is_null());
  CHECK(j["summary"][0]["labels"]["pair"] == 0);
  CHECK(j["summary"][1]["value"].is_null());
  CHECK(j["validity"]["valid"] == false);
  CHECK(j["validity"]["reasons"][0] == "too short");
}

TEST_CASE("a worker writes only the metrics of the catalogue, in their unit") {
  ResultDocument doc("logp");
  CHECK_THROWS_WITH_AS(doc.add_metric("eel", 1e-6, "s", 1),
                       "pbench-logp: metric 'eel' [s] is not in the metric catalogue "
                       "(workers/common/MetricCatalogue.cpp)",
                       std::logic_error);
  CHECK_THROWS_AS(doc.add_metric("g", 1e-6, "us", 1), std::logic_error);
  CHECK_THROWS_AS(doc.add_metric("ol", 1e-6, "s", 1), std::logic_error);  // bcast's
  CHECK_NOTHROW(doc.add_metric("g", 1e-6, "s", 1));
  CHECK(doc.to_json()["summary"].size() == 1);
}

TEST_CASE("a table keeps the rows given through its reference while later tables are added") {
  // The io report fills its accesses table after adding the partitions table: the accesses
  // rows once went to a moved table and the document had an empty one.
  ResultDocument doc("io");
  auto& first = doc.add_table("first", {{"n", ""}});
  for (int i = 0; i < 20; ++i) doc.add_table("later_" + std::to_string(i), {{"n", ""}});
  for (int i = 0; i < 3; ++i) first.add_row({i});
  const auto j = doc.to_json();
  REQUIRE(j["measurements"]["first"]["rows"].size() == 3);
  CHECK(j["measurements"]["first"]["rows"][2][0] == 2);
}

TEST_CASE("an empty value for a number or a list of numbers is a usage error, not 0") {
  int root = 3;
  std::vector<int> sizes{8};
  std::string label = "x";
  Parameters p("bcast", "test");
  p.add("root", root, "rank", kAnyValue, "root");
  p.add("sizes", sizes, "B", kAnyValue, "sizes");
  p.add("label", label, "", "free text");
  Argv empty_number({"pbench-bcast", "--root", ""});
  CHECK(p.parse(empty_number.argc(), empty_number.argv()) == 2);
  Parameters q("bcast", "test");
  q.add("sizes", sizes, "B", kAnyValue, "sizes");
  Argv empty_list({"pbench-bcast", "--sizes", ""});
  CHECK(q.parse(empty_list.argc(), empty_list.argv()) == 2);
  Parameters r("bcast", "test");
  r.add("label", label, "", "free text");
  Argv empty_text({"pbench-bcast", "--label", ""});
  CHECK_FALSE(r.parse(empty_text.argc(), empty_text.argv()).has_value());
  CHECK(label.empty());
}
