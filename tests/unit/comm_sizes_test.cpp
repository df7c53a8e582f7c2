// pbench-comm: the 21 message sizes from the memory per process, the L_max clamp, and the
// time-driven loop length.
#include <doctest/doctest.h>

#include <cmath>

#include "comm/LoopLengthPolicy.hpp"
#include "comm/MessageSizes.hpp"
#include "common/WorkerMain.hpp"

using namespace pbench::comm;

TEST_CASE("comm: 21 message sizes, powers of two to 4 KB, then geometric steps to L_max") {
  const MessageSizes m = MessageSizes::for_memory(std::uint64_t{1} << 30);  // 1 GiB
  REQUIRE(m.sizes.size() == 21);
  CHECK(m.l_max == 8 * 1024 * 1024);
  CHECK_FALSE(m.clamped);
  for (int i = 0; i <= 12; ++i) CHECK(m.sizes[static_cast<std::size_t>(i)] == (std::int64_t{1} << i));
  CHECK(m.sizes.back() == m.l_max);
  // a = (8 MiB / 4 KiB)^(1/8) = 2048^(1/8)
  const double a = std::pow(2048.0, 1.0 / 8);
  for (int k = 1; k <= 8; ++k) {
    CHECK(m.sizes[static_cast<std::size_t>(12 + k)] == std::llround(4096 * std::pow(a, k)));
  }
  CHECK(m.sizes[13] == 10624);  // 4096 * 2^(11/8) = 10623.7
}

TEST_CASE("comm: L_max is the memory per process / 128, clamped to 128 MiB and said so") {
  const MessageSizes m = MessageSizes::for_memory(std::uint64_t{32} << 30);  // 32 GiB
  CHECK(m.l_max_from_memory == std::int64_t{256} << 20);
  CHECK(m.l_max == std::int64_t{128} << 20);
  CHECK(m.clamped);
  CHECK(m.sizes.back() == std::int64_t{128} << 20);
  CHECK(MessageSizes::for_memory(std::uint64_t{16} << 30).l_max == std::int64_t{128} << 20);
  CHECK_FALSE(MessageSizes::for_memory(std::uint64_t{16} << 30).clamped);
}

TEST_CASE("comm: memory per process too small for L_max >= 4 KB is a usage error") {
  CHECK_THROWS_AS(MessageSizes::for_memory(524287), pbench::worker::UsageError);
  CHECK_THROWS_AS(MessageSizes::for_memory(0), pbench::worker::UsageError);
  const MessageSizes m = MessageSizes::for_memory(524288);
  CHECK(m.l_max == 4096);
  for (int k = 12; k < 21; ++k) CHECK(m.sizes[static_cast<std::size_t>(k)] == 4096);
}

TEST_CASE("comm: the loop length starts at 300 and lands the next size in the target window") {
  const LoopLengthPolicy policy(300, 2.5e-3, 5e-3);
  CHECK(policy.start() == 300);
  // one iteration took 10 us; the next size is twice as large: whether the iteration time stays
  // (latency-bound) or doubles (bandwidth-bound), the measurement lands in 2.5..5 ms
  const double per_iteration = 10e-6;
  const std::int64_t next = policy.next(300, 300 * per_iteration, 1024, 2048);
  const double latency_bound = static_cast<double>(next) * per_iteration;
  const double bandwidth_bound = static_cast<double>(next) * 2 * per_iteration;
  CHECK(latency_bound >= 2.5e-3 * 0.999);
  CHECK(bandwidth_bound <= 5e-3 * 1.001);
}

TEST_CASE("comm: the loop length shrinks as messages grow, never below 1") {
  const LoopLengthPolicy policy(300, 2.5e-3, 5e-3);
  CHECK(policy.next(300, 0.03, 4096, 8192) < 300);   // 10x over the window: far fewer
  CHECK(policy.next(4, 0.2, 1 << 20, 1 << 21) == 1); // one iteration is longer than the window
  CHECK(policy.next(7, 0.0, 1, 2) == 7);             // no usable time: keep the loop length
}
