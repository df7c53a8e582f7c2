// Every worker parameter that is a number states its range (issue 51, item 3): --help and
// --describe-parameters name it, and a value outside it (an overflowing one too) is refused with
// the range named, before MPI starts. One case per worker, and the parameters they all share.
#include <doctest/doctest.h>

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

#include "bcast/BcastParameters.hpp"
#include "comm/CommOptions.hpp"
#include "common/Parameters.hpp"
#include "common/RunParameters.hpp"
#include "io/ConsortiumParameters.hpp"
#include "io/IoParameters.hpp"
#include "links/LinksParameters.hpp"
#include "logp/LogpParameters.hpp"

using pbench::worker::Parameters;

namespace {

/// What parsing `words` with the parameters `declare` makes says: "" when accepted, else CLI11's
/// message (the option, then the problem).
std::string refusal(const std::function<void(Parameters&)>& declare,
                    std::vector<std::string> words) {
  Parameters parameters("test", "test");
  declare(parameters);
  words.insert(words.begin(), "pbench-test");
  std::vector<const char*> argv;
  for (const auto& word : words) argv.push_back(word.c_str());
  try {
    parameters.app().parse(static_cast<int>(argv.size()), argv.data());
  } catch (const CLI::ParseError& e) {
    return e.what();
  }
  return "";
}

/// Every parameter `declare` makes with a range has both ends in --describe-parameters and its
/// --help line states them; `numbers` (the parameters that are numbers) each have one.
void check_every_number_states_its_range(const std::function<void(Parameters&)>& declare,
                                         const std::vector<std::string>& numbers) {
  Parameters parameters("test", "test");
  declare(parameters);
  const auto described = parameters.describe_parameters();
  std::vector<std::string> ranged;
  for (const auto& entry : described["parameters"]) {
    if (!entry.contains("min")) continue;
    INFO(entry["name"].get<std::string>());
    ranged.push_back(entry["name"].get<std::string>());
    CHECK(entry.contains("max"));
    CHECK(entry["help"].get<std::string>().find(" to ") != std::string::npos);
  }
  for (const auto& name : numbers) {
    INFO(name);
    CHECK(std::find(ranged.begin(), ranged.end(), name) != ranged.end());
  }
}

bool says(const std::string& message, const std::string& part) {
  INFO(message);
  return message.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("worker ranges: logp refuses an overflowing --eel-runs with its range") {
  pbench::logp::LogpParameters logp;
  const auto declare = [&](Parameters& p) { logp.declare(p); };
  // Read as an int64 by CLI11 alone, this saturated to 2^63 - 1 and ran until killed.
  const auto huge = refusal(declare, {"--eel-runs", "99999999999999999999"});
  CHECK(says(huge, "--eel-runs"));
  CHECK(says(huge, "'99999999999999999999' is outside the range 1 to 1000000"));
  CHECK(says(refusal(declare, {"--eel-runs", "0"}), "outside the range 1 to 1000000"));
  CHECK(refusal(declare, {"--eel-runs", "1000000"}).empty());
  CHECK(says(refusal(declare, {"--queue-depths", "1,70000"}), "outside the range 1 to 65536"));
  CHECK(says(refusal(declare, {"--max-size", "2GiB"}), "outside the range 1 to 1073741824"));
  CHECK(says(refusal(declare, {"--flood-messages", "-1"}), "outside the range 1 to 1000000000"));
  CHECK(says(refusal(declare, {"--repetitions", "0x10"}), "is not a whole number"));
  CHECK(refusal(declare, {"--max-size", "1GiB", "--queue-depths", "1,65536"}).empty());
  check_every_number_states_its_range(declare, {"eel_roundtrips", "eel_runs", "queue_depths", "min_size", "max_size", "flood_messages", "flood_bytes", "repetitions"});
}

TEST_CASE("worker ranges: comm refuses counts, memory and times outside their ranges") {
  pbench::comm::CommOptions comm;
  const auto declare = [&](Parameters& p) { comm.declare(p); };
  CHECK(says(refusal(declare, {"--repetitions", "99999999999"}), "outside the range 1 to 10000"));
  CHECK(says(refusal(declare, {"--random-patterns", "0"}), "outside the range 1 to 10000"));
  CHECK(says(refusal(declare, {"--memory-per-proc", "2PiB"}), "is not a size"));
  CHECK(says(refusal(declare, {"--memory-per-proc", "2000TiB"}),
             "outside the range 0 to 1125899906842624"));
  CHECK(says(refusal(declare, {"--target-window", "0.001,7200"}),
             "outside the range 0.000001 to 3600"));
  CHECK(says(refusal(declare, {"--max-time", "-1"}), "outside the range 0 to 10000000"));
  CHECK(says(refusal(declare, {"--nprocs", "99999999999999999999"}), "outside the range 0 to"));
  CHECK(refusal(declare, {"--repetitions", "10000", "--target-window", "1ms,2s"}).empty());
  check_every_number_states_its_range(declare, {"memory_per_proc", "random_patterns", "repetitions", "target_window", "start_looplength", "max_time", "rmax", "nprocs"});
}

TEST_CASE("worker ranges: io refuses T, partitions, the guard and switches outside their ranges") {
  pbench::io::IoOptions io;
  pbench::io::ConsortiumOptions consortium;
  const auto declare = [&](Parameters& p) {
    io.declare(p);
    consortium.declare(p);
  };
  CHECK(says(refusal(declare, {"-T", "99999999999"}), "outside the range 0 to 10000000"));
  CHECK(
      says(refusal(declare, {"--partitions", "1,99999999999"}), "outside the range 1 to 10000000"));
  CHECK(says(refusal(declare, {"--guard-factor", "-3"}), "outside the range 0 to 1000"));
  CHECK(says(refusal(declare, {"--buffer-offset", "4096"}), "outside the range 0 to 4095"));
  CHECK(says(refusal(declare, {"--collective", "2"}), "outside the range 0 to 1"));
  CHECK(says(refusal(declare, {"--iterations", "0"}), "outside the range 1 to 1000000"));
  CHECK(says(refusal(declare, {"--segment-count", "99999999999999999999"}), "outside the range"));
  // The seed takes every 64-bit value and nothing beyond.
  CHECK(refusal(declare, {"--random-seed", "18446744073709551615"}).empty());
  CHECK(says(refusal(declare, {"--random-seed", "18446744073709551616"}),
             "outside the range 0 to 18446744073709551615"));
  CHECK(refusal(declare, {"-T", "10", "--partitions", "1,2", "--buffer-offset", "4095"}).empty());
  check_every_number_states_its_range(declare, {"schedule_time", "partitions", "memory_per_proc", "cache_bytes", "guard_factor", "buffer_offset", "segment_count", "random_seed", "iterations", "collective"});
}

TEST_CASE(
    "worker ranges: bcast refuses repetitions, measurements and delays outside their ranges") {
  pbench::bcast::BcastParameters bcast;
  const auto declare = [&](Parameters& p) { bcast.declare(p); };
  CHECK(says(refusal(declare, {"--repetitions", "99999999999999999999"}),
             "outside the range 1 to 10000000"));
  CHECK(says(refusal(declare, {"--max-measurements", "1"}), "outside the range 2 to 1000000"));
  CHECK(says(refusal(declare, {"--root", "-1"}), "outside the range 0 to 10000000"));
  CHECK(says(refusal(declare, {"--hop-delay-us", "11s"}), "outside the range 0 to 10000000"));
  CHECK(refusal(declare, {"--repetitions", "1", "--hop-delay-us", "10s"}).empty());
  check_every_number_states_its_range(declare, {"root", "hop_delay_us", "repetitions", "max_measurements"});
}

TEST_CASE("worker ranges: links refuses counts and message sizes outside their ranges") {
  pbench::links::LinksParameters links;
  const auto declare = [&](Parameters& p) { links.declare(p); };
  CHECK(says(refusal(declare, {"--latency-roundtrips", "99999999999999999999"}),
             "outside the range 1 to 1000000000"));
  CHECK(says(refusal(declare, {"--messages", "0"}), "outside the range 1 to 1000000"));
  CHECK(says(refusal(declare, {"--message-size", "2GiB"}), "outside the range 1 to 1073741824"));
  CHECK(says(refusal(declare, {"--repetitions", "1e3"}), "is not a whole number"));
  CHECK(refusal(declare, {"--message-size", "1GiB", "--messages", "1"}).empty());
  check_every_number_states_its_range(declare, {"latency_roundtrips", "message_size", "messages", "repetitions"});
}

TEST_CASE("worker ranges: every worker's --time-left, --deadline and --deadline-margin") {
  pbench::worker::RunParameters run;
  const auto declare = [&](Parameters& p) { run.declare(p); };
  CHECK(says(refusal(declare, {"--time-left", "-5"}), "outside the range 0 to 1000000000"));
  CHECK(says(refusal(declare, {"--deadline", "1e11"}), "outside the range 0 to 10000000000"));
  CHECK(
      says(refusal(declare, {"--deadline", "99999999999"}), "outside the range 0 to 10000000000"));
  CHECK(says(refusal(declare, {"--deadline-margin", "2d"}), "is not a time"));
  CHECK(says(refusal(declare, {"--deadline-margin", "25h"}), "outside the range -1 to 86400"));
  CHECK(refusal(declare, {"--time-left", "1h", "--deadline-margin", "-1"}).empty());
  check_every_number_states_its_range(declare, {"deadline", "time_left", "deadline_margin"});
}

TEST_CASE("worker ranges: the range is read through the environment as well") {
  pbench::logp::LogpParameters logp;
  ::setenv("PBENCH_EEL_RUNS", "99999999999999999999", 1);
  const auto message = refusal([&](Parameters& p) { logp.declare(p); }, {});
  ::unsetenv("PBENCH_EEL_RUNS");
  CHECK(says(message, "outside the range 1 to 1000000"));
}
