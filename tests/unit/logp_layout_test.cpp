// logp: which ranks pair up, and N per flood measurement.
#include <doctest/doctest.h>

#include <stdexcept>

#include "logp/FloodPlan.hpp"
#include "logp/LogpParameters.hpp"
#include "logp/PairLayout.hpp"

using namespace pbench::logp;

TEST_CASE("logp pair layout: an even process count pairs every rank (2k sends to 2k+1)") {
  for (int rank = 0; rank < 4; ++rank) {
    const PairLayout l(rank, 4);
    CHECK(l.pair_count() == 2);
    CHECK_FALSE(l.idle_rank().has_value());
    CHECK(l.pair() == rank / 2);
    CHECK(l.role() == (rank % 2 == 0 ? PairRole::sender : PairRole::receiver));
    CHECK(l.partner() == (rank ^ 1));
  }
  CHECK(PairLayout::sender_of(1) == 2);
  CHECK(PairLayout::receiver_of(1) == 3);
}

TEST_CASE("logp pair layout: with an odd count the last rank idles") {
  const PairLayout idle(2, 3);
  CHECK(idle.role() == PairRole::idle);
  CHECK(idle.partner() == -1);
  CHECK(idle.pair() == -1);
  CHECK(idle.pair_count() == 1);
  CHECK(idle.idle_rank() == 2);
  const PairLayout sender(0, 3);
  CHECK(sender.role() == PairRole::sender);
  CHECK(sender.partner() == 1);
  CHECK(sender.idle_rank() == 2);
  CHECK(PairLayout(4, 5).role() == PairRole::idle);
  CHECK(PairLayout(3, 5).role() == PairRole::receiver);
}

TEST_CASE("logp pair layout: one process has no pair") {
  const PairLayout alone(0, 1);
  CHECK(alone.pair_count() == 0);
  CHECK(alone.role() == PairRole::idle);
  CHECK(alone.idle_rank() == 0);
  CHECK_THROWS_AS(PairLayout(1, 1), std::invalid_argument);
  CHECK(std::string(role_name(PairRole::receiver)) == "recv");
}

TEST_CASE("logp flood plan: sizes are the powers of two from min to max") {
  const FloodPlan plan(8, 4 * kMiB, 10000, 16 * kMiB);
  REQUIRE(plan.sizes().size() == 20);
  CHECK(plan.sizes().front() == 8);
  CHECK(plan.sizes()[1] == 16);
  CHECK(plan.sizes().back() == 4194304);
}

TEST_CASE("logp flood plan: N is flood_messages, capped by flood_bytes, floored at max(16, 2q)") {
  const FloodPlan plan(8, 4 * kMiB, 10000, 16 * kMiB);
  CHECK(plan.messages(8, 1) == 10000);          // the message count rules
  CHECK(plan.messages(4096, 1) == 4096);        // 16 MiB / 4 KiB
  CHECK(plan.messages(1 * kMiB, 1) == 16);      // the cap, 16 MiB / 1 MiB
  CHECK(plan.messages(4 * kMiB, 1) == 16);      // cap 4, floor 16
  CHECK(plan.messages(4 * kMiB, 64) == 128);    // floor 2q
  CHECK(plan.messages(8, 64) == 10000);
  CHECK(FloodPlan::minimum_messages(4) == 16);
  CHECK(FloodPlan::minimum_messages(32) == 64);
  const FloodPlan few(8, 64, 20, 1 * kMiB);
  CHECK(few.messages(8, 1) == 20);
  CHECK(few.messages(8, 16) == 32);
}

TEST_CASE("logp flood plan: one buffer per outstanding message") {
  const FloodPlan plan(8, 4 * kMiB, 10000, 16 * kMiB);
  CHECK(plan.slots(8, 16) == 16);
  CHECK(plan.slots(4 * kMiB, 64) == 64);
  CHECK(plan.pool_bytes({1, 8}) == 8 * 4 * kMiB);
  const FloodPlan tiny(8, 8, 4, 64);
  CHECK(tiny.slots(8, 64) == 64);  // N = 2q = 128 > q
}

TEST_CASE("logp parameters: unusable values name their option") {
  LogpParameters p;
  CHECK_FALSE(p.problem().has_value());
  p.queue_depths = {8, 0};
  REQUIRE(p.problem().has_value());
  CHECK(*p.problem() == "--queue-depths: 0 is not a queue depth (each must be an integer >= 1)");
  p.queue_depths = {4, 4};
  CHECK(*p.problem() == "--queue-depths: 4 appears twice");
  p.queue_depths = {};
  CHECK(*p.problem() == "--queue-depths: give at least one queue depth");
  p = LogpParameters{};
  p.max_size = 1000;
  CHECK(*p.problem() == "--max-size: 1000 is not a power of two");
  p = LogpParameters{};
  p.min_size = 1024;
  p.max_size = 512;
  CHECK(*p.problem() == "--min-size: 1024 exceeds --max-size 512");
  p = LogpParameters{};
  p.repetitions = 0;
  CHECK(*p.problem() == "--repetitions: must be >= 1");
}

TEST_CASE("logp parameters: fewer than 10 EEL runs or a max size below 128 KiB is not valid") {
  LogpParameters p;
  CHECK(p.method_deviations().empty());
  p.eel_runs = 9;
  p.max_size = 65536;
  const auto reasons = p.method_deviations();
  REQUIRE(reasons.size() == 2);
  CHECK(reasons[0].find("eel_runs 9 < 10") == 0);
  CHECK(reasons[1].find("max_size 65536 B < 131072 B") == 0);
}
