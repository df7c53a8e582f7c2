// logp: the CPU overlap test's reduction to o_s / o_r.
#include <doctest/doctest.h>

#include <algorithm>
#include <vector>

#include "logp/OverlapAnalysis.hpp"

using namespace pbench::logp;

namespace {

// A q = 1 flood where the CPU is busy for `overhead` per message and the gap is t0: the time per
// message stays t0 until overhead + busy exceeds it.
std::vector<OverlapPoint> curve(double t0, double overhead, int steps = 32) {
  std::vector<OverlapPoint> points;
  for (int k = 1; k <= steps; ++k) {
    const double busy = k * t0 / 16;
    points.push_back({busy, std::max(t0, overhead + busy)});
  }
  return points;
}

}  // namespace

TEST_CASE("logp overlap: the overhead is t0 minus the largest busy time that costs nothing") {
  const std::vector<double> baselines{1e-6, 1.01e-6, 1.02e-6};
  const auto a = analyse_overlap(baselines, curve(1e-6, 0.6e-6));
  CHECK(a.baseline == doctest::Approx(1e-6));
  CHECK(a.tolerance == doctest::Approx(0.05));
  // busy up to 0.4 us costs nothing; 0.45 us (step 7.2) would be 5% more: b_max = 7/16 us
  CHECK(a.b_max == doctest::Approx(7.0 / 16 * 1e-6));
  CHECK(a.overhead == doctest::Approx(1e-6 - 7.0 / 16 * 1e-6));
  CHECK_FALSE(a.saturated);
  CHECK(a.points == 3 + 32);
}

TEST_CASE("logp overlap: when the first step already costs, the overhead is t0 (= g at q = 1)") {
  const std::vector<double> baselines{2e-6, 2e-6};
  const auto a = analyse_overlap(baselines, curve(2e-6, 2e-6, 4));
  CHECK(a.saturated);
  CHECK(a.b_max == 0);
  CHECK(a.overhead == doctest::Approx(2e-6));
}

TEST_CASE("logp overlap: a disturbed step below b_max does not shorten it") {
  const std::vector<double> baselines{1e-6, 1e-6, 1e-6};
  auto points = curve(1e-6, 0.5e-6);
  points[2].time = 3e-6;  // a descheduled run at busy = 3/16 us
  const auto a = analyse_overlap(baselines, points);
  CHECK(a.b_max == doctest::Approx(8.0 / 16 * 1e-6));
  CHECK(a.overhead == doctest::Approx(0.5e-6));
}

TEST_CASE("logp overlap: the tolerance follows the two fastest baselines, not a stalled one") {
  const std::vector<double> baselines{1.0e-6, 5.0e-6, 1.1e-6};
  CHECK(overlap_tolerance(baselines) == doctest::Approx(0.10));
  const std::vector<double> quiet{1.0e-6, 1.01e-6};
  CHECK(overlap_tolerance(quiet) == doctest::Approx(kOverlapMinTolerance));
  CHECK(overlap_tolerance(std::vector<double>{1e-6}) == doctest::Approx(kOverlapMinTolerance));
}

TEST_CASE("logp overlap: a wider tolerance accepts larger busy times") {
  const std::vector<double> noisy{1.0e-6, 1.2e-6};
  const auto a = analyse_overlap(noisy, curve(1e-6, 0.6e-6));
  // 20% tolerance: busy up to 0.6 us stays within 1.2 us
  CHECK(a.tolerance == doctest::Approx(0.2));
  CHECK(a.b_max == doctest::Approx(0.5625e-6));
}

TEST_CASE("logp overlap: an overhead near zero leaves the whole gap for computation") {
  const std::vector<double> baselines{1e-6};
  const auto a = analyse_overlap(baselines, curve(1e-6, 0.0));
  CHECK(a.b_max == doctest::Approx(1e-6));  // 17/16 us would be 6% over t0
  CHECK(a.overhead == 0);
}

TEST_CASE("logp overlap: stop once three steps in a row increased the time") {
  std::vector<OverlapPoint> steps{{0.1, 1.0}, {0.2, 2.0}, {0.3, 2.0}};
  CHECK_FALSE(clearly_increased(steps, 1.0, 0.05));
  steps.push_back({0.4, 2.0});
  CHECK(clearly_increased(steps, 1.0, 0.05));
  steps.push_back({0.5, 1.0});
  CHECK_FALSE(clearly_increased(steps, 1.0, 0.05));
  CHECK(increased(1.06, 1.0, 0.05));
  CHECK_FALSE(increased(1.05, 1.0, 0.05));
}
