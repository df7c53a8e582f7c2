// pbench-comm: the options, their checks (bad input is a usage error before MPI starts), the
// record of departures from the reference configuration, and --describe.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "comm/CommOptions.hpp"
#include "comm/CommReport.hpp"
#include "comm/PatternSet.hpp"
#include "common/Parameters.hpp"
#include "common/WorkerMain.hpp"

using namespace pbench::comm;
using pbench::worker::UsageError;

namespace {

struct Args {
  std::vector<std::string> words;
  std::vector<char*> pointers;
  explicit Args(std::vector<std::string> w) : words(std::move(w)) {
    words.insert(words.begin(), "pbench-comm");
    for (auto& x : words) pointers.push_back(x.data());
  }
};

// Parses a command line into options; returns the checked configuration.
CommConfig configure(std::vector<std::string> words) {
  CommOptions options;
  pbench::worker::Parameters parameters("comm", "test");
  options.declare(parameters);
  Args args(std::move(words));
  const auto code = parameters.parse(static_cast<int>(args.pointers.size()), args.pointers.data());
  if (code) throw std::runtime_error("parse stopped with " + std::to_string(*code));
  return CommConfig::check(options);
}

}  // namespace

TEST_CASE("comm: the default configuration is the reference one") {
  const CommConfig c = configure({});
  CHECK(c.departures.empty());
  CHECK(c.positions.size() == 21);
  CHECK(c.methods.size() == 3);
  CHECK(c.random_patterns == 30);
  CHECK(c.repetitions == 3);
  CHECK(c.start_looplength == 300);
  CHECK(c.window_min == 2.5e-3);
  CHECK(c.window_max == 5e-3);
  CHECK_FALSE(c.seed.has_value());
  CHECK_FALSE(c.memory_per_process.has_value());
}

TEST_CASE("comm: options that shrink the work are recorded as departures from the reference") {
  const CommConfig c =
      configure({"--random-patterns", "1", "--repetitions", "1", "--sizes", "1,13-15,21",
                 "--methods", "sendrecv", "--seed", "42", "--memory-per-proc", "8MiB"});
  CHECK(c.positions == std::vector<int>{0, 12, 13, 14, 20});
  CHECK(c.methods == std::vector<Method>{Method::kSendrecv});
  CHECK(*c.seed == 42u);
  CHECK(*c.memory_per_process == 8u * 1024 * 1024);
  REQUIRE(c.departures.size() == 4);
  CHECK(c.departures[0] == "random_patterns = 1 (reference 30)");
  CHECK(c.departures[1] == "repetitions = 1 (reference 3)");
  CHECK(c.departures[2] == "sizes = 1,13-15,21 (5 of the 21 message sizes)");
  CHECK(c.departures[3] == "methods = sendrecv (reference: all three)");
}

TEST_CASE(
    "comm: the differences from the original b_eff 3.6 name the run's own window and "
    "repetitions") {
  const auto reference = CommReport::differences_from_b_eff_3_6(configure({}));
  std::vector<std::string> aspects;
  for (const auto& row : reference) aspects.push_back(row[0]);
  CHECK(aspects == std::vector<std::string>{"measurement window", "warm-up", "repetitions",
                                            "message buffers", "two largest sizes"});
  CHECK(reference[0][1].find("300 iterations") != std::string::npos);
  CHECK(reference[0][1].find("2.5-5 ms") != std::string::npos);
  CHECK(reference[0][2].find("0.5 s") != std::string::npos);
  CHECK(reference[2][1].rfind("3 ", 0) == 0);
  CHECK(reference[3][2].find("16 bytes past a page boundary") != std::string::npos);

  const auto matched = CommReport::differences_from_b_eff_3_6(configure(
      {"--target-window", "0.008,0.015", "--start-looplength", "10000", "--repetitions", "2"}));
  CHECK(matched[0][1].find("10000 iterations") != std::string::npos);
  CHECK(matched[0][1].find("8-15 ms") != std::string::npos);
  CHECK(matched[2][1].rfind("2 ", 0) == 0);
}

TEST_CASE("comm: seeds are whole numbers from 0 to 2^32-1") {
  CHECK(CommConfig::parse_seed("0") == 0u);
  CHECK(CommConfig::parse_seed("4294967295") == 4294967295u);
  for (const char* bad : {"", "abc", "-1", "12a", "4294967296", "1e5", " 7", "99999999999"}) {
    INFO("seed '", bad, "'");
    CHECK_THROWS_AS(CommConfig::parse_seed(bad), UsageError);
  }
  CHECK_THROWS_WITH_AS(configure({"--seed", "x1"}),
                       "malformed --seed 'x1': expected a whole number from 0 to 4294967295",
                       UsageError);
}

TEST_CASE("comm: size lists name positions 1 to 21, single or as ranges, each once") {
  CHECK(CommConfig::parse_positions({"21", "1"}) == std::vector<int>{0, 20});
  CHECK(CommConfig::parse_positions({"13-21"}).size() == 9);
  for (const std::vector<std::string>& bad : std::vector<std::vector<std::string>>{{"0"},
                                                                                   {"22"},
                                                                                   {"a"},
                                                                                   {"3-1"},
                                                                                   {"1", "1"},
                                                                                   {"1-"},
                                                                                   {"-3"},
                                                                                   {""},
                                                                                   {"1-3", "2"},
                                                                                   {"1.5"}}) {
    INFO("sizes ", bad.empty() ? "" : bad[0]);
    CHECK_THROWS_AS(CommConfig::parse_positions(bad), UsageError);
  }
}

TEST_CASE("comm: a target window with min >= max is a usage error") {
  CHECK_THROWS_WITH_AS(configure({"--target-window", "0.005,0.005"}),
                       "--target-window min (0.005 s) must be less than max (0.005 s)", UsageError);
  CHECK_THROWS_AS(configure({"--target-window", "0.01,0.001"}), UsageError);
  CHECK_THROWS_AS(configure({"--target-window", "0.01"}), UsageError);
  CHECK(configure({"--target-window", "0.001,0.002"}).departures.size() == 1);
}

TEST_CASE("comm: other bad input is a usage error too") {
  CHECK_THROWS_AS(configure({"--memory-per-proc", "100000"}), UsageError);
  CHECK_THROWS_AS(configure({"--methods", "sendrecv,bogus"}), UsageError);
  CHECK_THROWS_AS(configure({"--methods", "sendrecv,sendrecv"}), UsageError);
  CHECK_THROWS_AS(configure({"--describe"}), UsageError);
  CHECK_THROWS_AS(configure({"--describe", "--nprocs", "1"}), UsageError);
  CHECK_THROWS_AS(configure({"--nprocs", "4"}), UsageError);
  // Outside their ranges, refused already by the parse (exit 2, the range named):
  // worker_parameter_ranges_test.
  CHECK_THROWS_WITH(configure({"--random-patterns", "0"}), "parse stopped with 2");
  CHECK_THROWS_WITH(configure({"--repetitions", "0"}), "parse stopped with 2");
  CHECK_THROWS_WITH(configure({"--max-time", "-1"}), "parse stopped with 2");
}

TEST_CASE("comm: --describe lists the ring labels, the random count and the seed") {
  const CommConfig c = configure({"--describe", "--nprocs", "7", "--seed", "5"});
  const PatternSet set = PatternSet::build(7, c.random_patterns, *c.seed);
  const std::string text = CommReport::describe_text(c, set, std::nullopt);
  CHECK(text.find("ring1:3*2&+1") != std::string::npos);
  CHECK(text.find("ring sizes 2,2,3") != std::string::npos);
  CHECK(text.find("30 rings of all processes") != std::string::npos);
  CHECK(text.find("seed 5") != std::string::npos);
  const auto json = CommReport::describe_json(c, set, MessageSizes::for_memory(1 << 20));
  CHECK(json["nprocs"] == 7);
  CHECK(json["seed"] == 5);
  CHECK(json["patterns"].size() == set.patterns.size());
  CHECK(json["patterns"][0]["label"] == "ring1:3*2&+1");
  CHECK(json["patterns"][6]["order"].size() == 7);
  CHECK(json["message_sizes"].size() == 21);
}
