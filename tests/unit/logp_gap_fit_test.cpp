// logp: the G fit (least squares over bandwidth-bound sizes, outliers, protocol switches).
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "logp/GapFit.hpp"

using namespace pbench::logp;

namespace {

// Sizes 1 KiB .. 4 MiB (13 powers of two) on t = a + b * s, times a deterministic wobble of
// +-amplitude (relative).
std::vector<SizeTime> line(double a, double b, double amplitude = 0.0) {
  std::vector<SizeTime> curve;
  int i = 0;
  for (double s = 1024; s <= 4194304; s *= 2, ++i) {
    const double wobble = amplitude * std::sin(1.7 * i + 0.3);
    curve.push_back({s, (a + b * s) * (1.0 + wobble)});
  }
  return curve;
}

constexpr double kG = 0.2e-6;  // small-message gap: every point of these curves is > 4 g

}  // namespace

TEST_CASE("logp gap fit: a straight line gives its slope and intercept in one segment") {
  const auto fit = fit_gap(line(1e-6, 1e-10), kG);
  REQUIRE(fit.segments.size() == 1);
  CHECK(fit.protocol_switches() == 0);
  CHECK(fit.big_g().value() == doctest::Approx(1e-10).epsilon(1e-9));
  CHECK(fit.segments[0].fit.intercept == doctest::Approx(1e-6).epsilon(1e-6));
  CHECK(fit.segments[0].fit.r2 == doctest::Approx(1.0));
  CHECK(fit.segments[0].points == 13);
  CHECK(fit.segments[0].outliers.empty());
  CHECK(fit.segments[0].from_size == 1024);
  CHECK(fit.segments[0].to_size == 4194304);
  CHECK_FALSE(fit.fallback);
}

TEST_CASE("logp gap fit: 2% noise neither splits the line nor moves the slope by more than 3%") {
  const auto fit = fit_gap(line(1e-6, 1e-10, 0.02), kG);
  REQUIRE(fit.segments.size() == 1);
  CHECK(fit.big_g().value() == doctest::Approx(1e-10).epsilon(0.03));
  CHECK(fit.segments[0].outliers.empty());
}

TEST_CASE("logp gap fit: a change of slope is reported as two segments, G from the largest") {
  // Eager up to 64 KiB at 5 ns/B... then rendezvous at 0.1 ns/B after a jump of 10 us.
  std::vector<SizeTime> curve;
  for (double s = 1024; s <= 4194304; s *= 2) {
    const double t = s <= 65536 ? 1e-6 + 5e-10 * s : 12e-6 + 1e-10 * s;
    curve.push_back({s, t});
  }
  const auto fit = fit_gap(curve, kG);
  REQUIRE(fit.segments.size() == 2);
  CHECK(fit.protocol_switches() == 1);
  CHECK(fit.segments[0].from_size == 1024);
  CHECK(fit.segments[0].to_size == 65536);
  CHECK(fit.segments[1].from_size == 131072);
  CHECK(fit.segments[1].to_size == 4194304);
  CHECK(fit.segments[0].fit.slope == doctest::Approx(5e-10).epsilon(1e-6));
  CHECK(fit.segments[1].fit.slope == doctest::Approx(1e-10).epsilon(1e-6));
  CHECK(fit.big_g().value() == doctest::Approx(1e-10).epsilon(1e-6));
}

TEST_CASE("logp gap fit: a continuous bend in the slope is found too") {
  // Slope halves at 256 KiB without a jump.
  std::vector<SizeTime> curve;
  const double knee = 262144;
  for (double s = 1024; s <= 4194304; s *= 2) {
    const double t = s <= knee ? 2e-6 + 2e-10 * s : 2e-6 + 2e-10 * knee + 1e-10 * (s - knee);
    curve.push_back({s, t});
  }
  const auto fit = fit_gap(curve, kG);
  REQUIRE(fit.segments.size() == 2);
  CHECK(fit.big_g().value() == doctest::Approx(1e-10).epsilon(0.02));
  CHECK(fit.segments[0].fit.slope == doctest::Approx(2e-10).epsilon(0.05));
}

TEST_CASE("logp gap fit: an outlier is removed, listed, and does not bend the slope") {
  auto curve = line(1e-6, 1e-10, 0.005);
  curve[11].time *= 3;  // 2 MiB, three times too slow
  const auto fit = fit_gap(curve, kG);
  REQUIRE(fit.segments.size() == 1);
  REQUIRE(fit.segments[0].outliers.size() == 1);
  CHECK(fit.segments[0].outliers[0] == 2097152);
  CHECK(fit.segments[0].points == 12);
  CHECK(fit.big_g().value() == doctest::Approx(1e-10).epsilon(0.02));
}

TEST_CASE("logp gap fit: without outlier removal the same outlier would bend the slope") {
  // Guards the previous test: the outlier matters, so removing it is what recovers G.
  auto curve = line(1e-6, 1e-10, 0.005);
  curve[11].time *= 3;
  GapFitOptions keep_all;
  keep_all.outlier_floor = 1e9;
  const auto fit = fit_gap(curve, kG, keep_all);
  REQUIRE_FALSE(fit.segments.empty());
  CHECK(fit.segments.back().outliers.empty());
  CHECK(std::abs(fit.big_g().value() - 1e-10) > 0.02e-10);  // beyond the 2% above
}

TEST_CASE("logp gap fit: only the bandwidth-bound sizes enter the fit") {
  // Flat at g up to 512 B, then linear: the flat part is not fitted.
  std::vector<SizeTime> curve;
  for (double s = 8; s <= 1048576; s *= 2) curve.push_back({s, std::max(kG, 1e-11 * s * 100)});
  const auto fit = fit_gap(curve, kG);
  REQUIRE_FALSE(fit.fitted_sizes.empty());
  for (double s : fit.fitted_sizes) {
    CHECK(1e-9 * s >= 4 * kG);
  }
  CHECK(fit.fitted_sizes.back() == 1048576);
  CHECK(fit.big_g().value() == doctest::Approx(1e-9).epsilon(1e-6));
}

TEST_CASE("logp gap fit: a slow small size does not drag its neighbours into the fit") {
  std::vector<SizeTime> curve;
  for (double s = 8; s <= 1048576; s *= 2) curve.push_back({s, kG + 1e-9 * s});
  curve[3].time = 10 * kG;  // 64 B disturbed
  const auto fit = fit_gap(curve, kG);
  REQUIRE_FALSE(fit.fitted_sizes.empty());
  CHECK(fit.fitted_sizes.front() > 64);
}

TEST_CASE("logp gap fit: too few bandwidth-bound sizes fall back to the largest three") {
  std::vector<SizeTime> curve;
  for (double s = 8; s <= 1024; s *= 2) curve.push_back({s, kG + 1e-12 * s});
  const auto fit = fit_gap(curve, kG);
  CHECK(fit.fallback);
  CHECK(fit.fitted_sizes == std::vector<double>{256, 512, 1024});
  CHECK(fit.segments.size() == 1);
}

TEST_CASE("logp gap fit: one point cannot be fitted") {
  const auto fit = fit_gap({{8, kG}}, kG);
  CHECK(fit.segments.empty());
  CHECK_FALSE(fit.big_g().has_value());
  CHECK(fit.protocol_switches() == 0);
}

TEST_CASE("logp gap fit: weighted least squares through two points is exact") {
  const std::vector<SizeTime> two{{1000, 2e-6}, {3000, 4e-6}};
  const LineFit f = fit_line(two);
  CHECK(f.slope == doctest::Approx(1e-9));
  CHECK(f.intercept == doctest::Approx(1e-6));
}
