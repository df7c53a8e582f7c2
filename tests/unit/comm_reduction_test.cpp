// pbench-comm: the b_eff reduction on a synthetic table whose figures are computed by hand.
#include <doctest/doctest.h>

#include <cmath>

#include "comm/BeffFigures.hpp"
#include "comm/MessageSizes.hpp"

using namespace pbench::comm;

namespace {

Measurement row(int pattern, int position, Method method, int repetition, double bandwidth) {
  Measurement m;
  m.pattern = pattern;
  m.position = position;
  m.size = position == 0 ? 1 : 4096;
  m.method = method;
  m.repetition = repetition;
  m.bandwidth = bandwidth;
  return m;
}

// Patterns: 0, 1 rings; 2, 3 random; 4 an extra pattern far faster than the rest; 5 ping-pong.
// Measured sizes: position 0 (1 B) and 20 (L_max). Best bandwidths, by hand:
//   ring 0:   1 B -> 2, L_max -> 198   b_pat = 100
//   ring 1:   1 B -> 8, L_max -> 792   b_pat = 400     b_ring   = sqrt(100*400) = 200
//   random 2: 1 B -> 1, L_max -> 99    b_pat = 50
//   random 3: 1 B -> 4, L_max -> 396   b_pat = 200     b_random = sqrt(50*200)  = 100
//   b_eff = sqrt(200*100) = 141.42...
//   at L_max: rings sqrt(198*792) = 396, random sqrt(99*396) = 198, b_eff sqrt(396*198) = 280.01...
//   at 1 B:   rings sqrt(2*8) = 4, random sqrt(1*4) = 2, both sqrt(8)
//   latency (4 processes): rings 4*1/4 = 1 s, rings and random 4/sqrt(8) = sqrt(2) s
//   ping-pong: 1 B -> 0.5 (latency 1/0.5 = 2 s), L_max -> 1000
struct Synthetic {
  BeffInput input;
  std::vector<Measurement> rows;
  Synthetic() {
    input.kinds = {PatternKind::kRing, PatternKind::kRing, PatternKind::kRandom,
                   PatternKind::kRandom, PatternKind::kExtra, PatternKind::kExtra};
    input.pingpong = 5;
    input.positions = {0, 20};
    input.sizes = MessageSizes::for_memory(524288).sizes;
    input.nprocs = 4;
    const auto both = [&](int pattern, int position, double best) {
      // the best in one method and one repetition, lower values elsewhere
      rows.push_back(row(pattern, position, Method::kSendrecv, 0, best / 2));
      rows.push_back(row(pattern, position, Method::kSendrecv, 1, best));
      rows.push_back(row(pattern, position, Method::kAlltoallv, 0, best * 0.9));
      rows.push_back(row(pattern, position, Method::kNonblocking, 1, best / 3));
    };
    both(0, 0, 2);
    both(0, 20, 198);
    both(1, 0, 8);
    both(1, 20, 792);
    both(2, 0, 1);
    both(2, 20, 99);
    both(3, 0, 4);
    both(3, 20, 396);
    both(4, 0, 1e6);
    both(4, 20, 1e9);
    rows.push_back(row(5, 0, Method::kSendrecv, 0, 0.5));
    rows.push_back(row(5, 0, Method::kSendrecv, 1, 0.25));
    rows.push_back(row(5, 20, Method::kSendrecv, 0, 1000));
  }
};

}  // namespace

TEST_CASE("comm: a synthetic table gives the hand-computed b_eff and Table 1 figures") {
  const Synthetic s;
  const BeffFigures f = BeffFigures::reduce(s.input, s.rows);
  CHECK(*f.b_pattern[0].value == doctest::Approx(100));
  CHECK(*f.b_pattern[1].value == doctest::Approx(400));
  CHECK(*f.b_pattern[2].value == doctest::Approx(50));
  CHECK(*f.b_pattern[3].value == doctest::Approx(200));
  CHECK(*f.b_ring.value == doctest::Approx(200));
  CHECK(*f.b_random.value == doctest::Approx(100));
  CHECK(*f.b_eff.value == doctest::Approx(141.4213562373095));
  CHECK(*f.b_ring_at_lmax.value == doctest::Approx(396));
  CHECK(*f.b_random_at_lmax.value == doctest::Approx(198));
  CHECK(*f.b_eff_at_lmax.value == doctest::Approx(280.0142853498728));
  CHECK(*f.latency_rings.value == doctest::Approx(1.0));
  CHECK(*f.latency_rings_random.value == doctest::Approx(1.4142135623730951));
  CHECK(*f.latency_pingpong.value == doctest::Approx(2.0));
  CHECK(*f.pingpong_bandwidth.value == doctest::Approx(1000));
  // samples: the measurements behind each figure
  CHECK(f.b_pattern[0].samples == 8);
  CHECK(f.b_ring.samples == 16);
  CHECK(f.b_eff.samples == 32);
  CHECK(f.b_eff_at_lmax.samples == 16);
  CHECK(f.latency_pingpong.samples == 2);
  CHECK(f.pingpong_bandwidth.samples == 1);
}

TEST_CASE("comm: b_pat averages the best bandwidth over all measured sizes") {
  BeffInput input;
  input.kinds = {PatternKind::kRing, PatternKind::kRandom};
  for (int p = 0; p < 21; ++p) input.positions.push_back(p);
  input.sizes = MessageSizes::for_memory(std::uint64_t{1} << 30).sizes;
  input.nprocs = 2;
  std::vector<Measurement> rows;
  double sum = 0;
  for (int p = 0; p < 21; ++p) {
    rows.push_back(row(0, p, Method::kSendrecv, 0, 10.0 * (p + 1)));
    rows.push_back(row(1, p, Method::kSendrecv, 0, 5.0));
    sum += 10.0 * (p + 1);
  }
  const BeffFigures f = BeffFigures::reduce(input, rows);
  CHECK(*f.b_pattern[0].value == doctest::Approx(sum / 21));
  CHECK(*f.b_eff.value == doctest::Approx(std::sqrt(sum / 21 * 5.0)));
}

TEST_CASE("comm: a figure with a missing measurement is absent, the others stay") {
  Synthetic s;
  s.rows.erase(std::remove_if(s.rows.begin(), s.rows.end(),
                              [](const Measurement& m) { return m.pattern == 3 && m.position == 20; }),
               s.rows.end());
  const BeffFigures f = BeffFigures::reduce(s.input, s.rows);
  CHECK_FALSE(f.b_pattern[3].value.has_value());
  CHECK_FALSE(f.b_random.value.has_value());
  CHECK_FALSE(f.b_eff.value.has_value());
  CHECK_FALSE(f.b_eff_at_lmax.value.has_value());
  CHECK(*f.b_ring.value == doctest::Approx(200));
  CHECK(*f.latency_rings_random.value == doctest::Approx(1.4142135623730951));
}

TEST_CASE("comm: without the 1-byte or the L_max size the figures resting on them are absent") {
  Synthetic s;
  s.input.positions = {20};
  const BeffFigures f = BeffFigures::reduce(s.input, s.rows);
  CHECK_FALSE(f.latency_rings.value.has_value());
  CHECK_FALSE(f.latency_pingpong.value.has_value());
  CHECK(*f.b_ring.value == doctest::Approx(396));  // the average over the one measured size
  CHECK(*f.b_eff_at_lmax.value == doctest::Approx(280.0142853498728));
}

TEST_CASE("comm: logavg is exp(mean(ln x)) and refuses zeros and gaps") {
  CHECK(*BeffFigures::logavg({2.0, 8.0}) == doctest::Approx(4.0));
  CHECK(*BeffFigures::logavg({1.0, 10.0, 100.0}) == doctest::Approx(10.0));
  CHECK_FALSE(BeffFigures::logavg({2.0, 0.0}).has_value());
  CHECK_FALSE(BeffFigures::logavg({2.0, std::nullopt}).has_value());
  CHECK_FALSE(BeffFigures::logavg({}).has_value());
}

TEST_CASE("comm: a measured bandwidth of zero is left out and makes the result not valid") {
  const Synthetic fine;
  CHECK(BeffFigures::reduce(fine.input, fine.rows).physical_limits(fine.rows).reasons().empty());
  Synthetic s;
  s.rows[0].bandwidth = 0;  // pattern 0, 1 B, sendrecv, repetition 0
  s.rows[0].time.count = 4;
  s.rows[0].time.max = 0;
  const BeffFigures f = BeffFigures::reduce(s.input, s.rows);
  CHECK(*f.b_eff.value == doctest::Approx(141.4213562373095));  // from the other rows
  const auto reasons = f.physical_limits(s.rows).reasons();
  REQUIRE(reasons.size() == 2);
  CHECK(reasons[0] ==
        "physically impossible: loop time is not positive for pattern 0, 1 B, sendrecv, "
        "repetition 0 (0 us)");
  CHECK(reasons[1] ==
        "physically impossible: measured bandwidth is not positive for pattern 0, 1 B, "
        "sendrecv, repetition 0 (0 B/s): left out of b_eff and the figures of its pattern and "
        "size");
}

TEST_CASE("comm: a figure of zero or less (a negative latency) cannot be") {
  Synthetic s;
  BeffFigures f = BeffFigures::reduce(s.input, s.rows);
  f.latency_pingpong.value = -2e-6;
  f.b_eff.value = 0;
  const auto reasons = f.physical_limits(s.rows).reasons();
  REQUIRE(reasons.size() == 2);
  CHECK(reasons[0] == "physically impossible: b_eff = 0 B/s is not positive");
  CHECK(reasons[1] == "physically impossible: ping-pong latency = -2 us is not positive");
}
