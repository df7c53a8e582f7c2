// pbench-bcast: the size list, the parameter checks (each bad input names its option), and the
// paper's stop rule for a series of measurements.
#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <sstream>

#include "bcast/BcastParameters.hpp"
#include "bcast/MeasurementSeries.hpp"
#include "bcast/SizeList.hpp"
#include "support/UsageRefusal.hpp"

namespace {
using pbench::testing::refusal_of;

/// What check_for(nprocs) says of `p`: "" when the values fit.
std::string refusal_for(const pbench::bcast::BcastParameters& p, int nprocs) {
  return pbench::testing::usage_refusal([&] { p.check_for(nprocs); });
}
}  // namespace

using namespace pbench::bcast;

namespace {

/// The problem of parameters changed by `change` from the defaults ("" when none).
template <typename Change>
std::string problem_with(Change change) {
  BcastParameters p;
  change(p);
  return refusal_of(p);
}

MeasurementSeries series_of(std::initializer_list<double> values) {
  MeasurementSeries s;
  for (double v : values) s.add(v);
  return s;
}

}  // namespace

TEST_CASE("bcast: a size list parses decimal bytes, comma-separated, spaces ignored") {
  const SizeList list = SizeList::parse("8, 256 ,65536,1048576");
  CHECK_FALSE(list.error());
  CHECK(list.sizes() == std::vector<std::int64_t>{8, 256, 65536, 1048576});
  CHECK(list.text() == "8,256,65536,1048576");
  CHECK(SizeList::parse("1").sizes() == std::vector<std::int64_t>{1});
  nlohmann::json j = list;
  CHECK(j == nlohmann::json::array({8, 256, 65536, 1048576}));
}

TEST_CASE("bcast: a malformed size list keeps no sizes and says what is wrong") {
  auto error_of = [](const std::string& text) {
    const SizeList list = SizeList::parse(text);
    CHECK(list.sizes().empty());
    return list.error().value_or("");
  };
  CHECK(error_of("").find("no size given") != std::string::npos);
  CHECK(error_of("  ").find("no size given") != std::string::npos);
  CHECK(error_of("8,,16").find("element 2 is empty") != std::string::npos);
  CHECK(error_of("8,").find("element 2 is empty") != std::string::npos);
  CHECK(error_of(",8").find("element 1 is empty") != std::string::npos);
  CHECK(error_of("8,1q").find("element 2 '1q' is not a size") != std::string::npos);
  CHECK(error_of("-8").find("element 1 '-8' is not a size") != std::string::npos);
  CHECK(error_of("2.5").find("is not a size") != std::string::npos);
  CHECK(error_of("99999999999999999999").find("is not a size") != std::string::npos);
  CHECK(error_of("8;16").find("'8;16'") != std::string::npos);  // the text is quoted back
}

TEST_CASE("bcast: sizes take the units every worker takes") {
  CHECK(SizeList::parse("8,64KiB,1MB").sizes() == std::vector<std::int64_t>{8, 65536, 1000000});
}

TEST_CASE("bcast: a size list read from a stream (CLI11) never fails the stream") {
  SizeList list;
  std::istringstream good("8,16");
  good >> list;
  CHECK_FALSE(good.fail());
  CHECK(list.sizes() == std::vector<std::int64_t>{8, 16});
  std::istringstream bad("8,x");
  bad >> list;
  CHECK_FALSE(bad.fail());
  CHECK(list.error());
  std::ostringstream out;
  out << SizeList{8, 256};
  CHECK(out.str() == "8,256");
}

TEST_CASE("bcast: the defaults are the paper's and usable") {
  const BcastParameters p;
  CHECK(refusal_of(p).empty());
  CHECK(p.sizes.sizes() == std::vector<std::int64_t>{8, 256, 65536, 1048576});
  CHECK(p.impl == "mpi");
  CHECK(p.root == 0);
  CHECK(p.repetitions == 100);
  CHECK(p.max_measurements == 30);
  CHECK(p.min_measurements() == 8);
  CHECK(p.deviations().empty());
}

TEST_CASE("bcast: each bad parameter is refused with a message naming its option") {
  CHECK(problem_with([](auto& p) { p.sizes = SizeList::parse("8,x"); }).rfind("--sizes: ", 0) == 0);
  CHECK(problem_with([](auto& p) { p.sizes = SizeList(); }) == "--sizes: no size given");
  CHECK(problem_with([](auto& p) {
          p.sizes = SizeList{8, 0};
        }) == "--sizes: 0 is not a message size (each must be >= 1 B)");
  CHECK(problem_with([](auto& p) { p.sizes = SizeList{kLargestSize + 1}; }).find("exceeds") !=
        std::string::npos);
  CHECK(refusal_of(BcastParameters{SizeList{kLargestSize}}).empty());
  CHECK(problem_with([](auto& p) { p.sizes = SizeList{8, 256, 8}; }) == "--sizes: 8 appears twice");
  CHECK(problem_with([](auto& p) { p.impl = "ring"; }) ==
        "--impl: unknown implementation 'ring' (known: mpi, linear, backward, binomial)");
  CHECK(problem_with([](auto& p) { p.root = -1; }) == "--root: -1 is not a rank (must be >= 0)");
  CHECK(problem_with([](auto& p) { p.root_order = "sideways"; }) ==
        "--root-order: 'sideways' is neither forward nor backward");
  CHECK(problem_with([](auto& p) { p.hop_delay_us = -1; }).rfind("--hop-delay-us: -1", 0) == 0);
  CHECK(problem_with([](auto& p) { p.hop_delay_us = std::nan(""); }).rfind("--hop-delay-us", 0) ==
        0);
  CHECK(problem_with([](auto& p) {
          p.hop_delay_us = std::numeric_limits<double>::infinity();
        }).rfind("--hop-delay-us", 0) == 0);
  CHECK(problem_with([](auto& p) {
          p.impl = "linear";
          p.hop_delay_us = 2e7;
        }) == "--hop-delay-us: 2e+07 exceeds 10 s per hop");
  CHECK(problem_with([](auto& p) { p.hop_delay_us = 100; }).find("not to --impl mpi") !=
        std::string::npos);
  CHECK(problem_with([](auto& p) { p.repetitions = 0; }) == "--repetitions: must be >= 1");
  CHECK(problem_with([](auto& p) { p.max_measurements = 1; }).rfind("--max-measurements", 0) == 0);
  for (const char* own : {"linear", "backward", "binomial"}) {
    CHECK(problem_with([&](auto& p) {
            p.impl = own;
            p.hop_delay_us = 5000;
          }) == "");
  }
}

TEST_CASE("bcast: the root must be a rank of the run") {
  BcastParameters p;
  p.root = 3;
  CHECK(refusal_of(p).empty());
  CHECK(refusal_for(p, 4).empty());
  CHECK(refusal_for(p, 3) == "--root: 3 is not a rank of 3 processes (must be < 3)");
  p.root = 1;
  CHECK(refusal_for(p, 1) == "--root: 1 is not a rank of 1 process (must be < 1)");
}

TEST_CASE("bcast: runs that leave the paper's method say so") {
  BcastParameters p;
  p.repetitions = 10;
  p.max_measurements = 3;
  p.impl = "linear";
  p.hop_delay_us = 5000;
  CHECK(p.min_measurements() == 3);
  const auto deviations = p.deviations();
  REQUIRE(deviations.size() == 3);
  CHECK(deviations[0].find("repetitions M = 10 < 100") != std::string::npos);
  CHECK(deviations[1].find("max_measurements 3 < 8") != std::string::npos);
  CHECK(deviations[2].find("synthetic hop delay of 5000 us") != std::string::npos);
}

TEST_CASE("bcast: stop rule: stable only after the minimum count with stddev < 3% of the mean") {
  const StopRule rule{8, 30, 0.03};
  MeasurementSeries same;
  for (int k = 0; k < 7; ++k) same.add(1e-5);
  CHECK_FALSE(same.stable(rule));  // 7 < 8 measurements
  same.add(1e-5);
  CHECK(same.stable(rule));
  CHECK(same.relative_stddev() == 0);

  // Alternating 1 ± x: sample stddev of 8 values = x * sqrt(8/7).
  auto alternating = [](double x) {
    MeasurementSeries s;
    for (int k = 0; k < 8; ++k) s.add(k % 2 ? 1 + x : 1 - x);
    return s;
  };
  const double at_limit = 0.03 / std::sqrt(8.0 / 7.0);
  CHECK(alternating(at_limit * 0.99).stable(rule));
  CHECK_FALSE(alternating(at_limit * 1.01).stable(rule));
  CHECK(alternating(at_limit * 1.01).relative_stddev() == doctest::Approx(0.0303).epsilon(1e-3));

  CHECK_FALSE(series_of({0, 0, 0, 0, 0, 0, 0, 0}).stable(rule));  // a mean of 0 never is
  CHECK_FALSE(series_of({-1, -1, -1, -1, -1, -1, -1, -1}).stable(rule));
  CHECK_FALSE(rule.exhausted(29));
  CHECK(rule.exhausted(30));
  CHECK(rule.exhausted(31));
}

TEST_CASE("bcast: stop rule with fewer allowed measurements than the paper's minimum") {
  BcastParameters p;
  p.max_measurements = 2;
  const StopRule rule{p.min_measurements(), p.max_measurements, kStableRelativeStddev};
  CHECK_FALSE(series_of({2.0}).stable(rule));  // one value has no standard deviation
  CHECK(series_of({2.0, 2.01}).stable(rule));
  CHECK_FALSE(series_of({2.0, 3.0}).stable(rule));
  CHECK(rule.exhausted(2));
}
