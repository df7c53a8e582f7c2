// pbench-bcast's synchronized-clock method, the parts without MPI: the clock fit and its
// composition along the tree, the bounded samples of the classic methods, the reduction of a
// sync series (OL from the arrivals, missed windows, the cross-check against OL_i, the clock's
// bound), and the plan's bcast rule (exact arithmetic, not a timing).
#include <doctest/doctest.h>

#include <cmath>

#include "bcast/BcastParameters.hpp"
#include "bcast/BcastSummary.hpp"
#include "bcast/ClockModel.hpp"
#include "bcast/RankSample.hpp"
#include "sweep/MethodCost.hpp"

using namespace pbench;
using namespace pbench::bcast;

namespace {

/// Fit points of a partner clock that reads (1 + drift) * local + offset, exactly.
std::vector<FitPoint> points_of(double offset, double drift, double from, double span, int n) {
  std::vector<FitPoint> out;
  for (int k = 0; k < n; ++k) {
    const double local = from + span * k / (n - 1);
    out.push_back({local, offset + drift * local, 2e-6});
  }
  return out;
}

bool has_reason(const BcastSummary& s, const std::string& part) {
  for (const auto& r : s.invalid_reasons) {
    if (r.find(part) != std::string::npos) return true;
  }
  return false;
}

MeasurementSeries steady(double value, int count = 8) {
  MeasurementSeries s;
  for (int k = 0; k < count; ++k) s.add(value);
  return s;
}

/// A sync run on 4 ranks, root 0: task j arrives at arrival[j]; tasks 3 and 1 cross-checked
/// with OL_i values ol_i[j] (RTL 0, so E_i = OL_i).
BcastMeasurements sync_run(const std::vector<double>& arrival, const std::vector<double>& ol_i,
                           std::int64_t spoiled = 0) {
  BcastMeasurements m;
  m.nprocs = 4;
  m.method = "sync";
  m.rule = StopRule{8, 30, 0.03};
  m.clocks.assign(4, ClockRecord{0, 0, 1e-6, 1e-6, 1e-6});
  SizeMeasurements s;
  s.size = 8;
  s.delivery_roots = {0, 1, 2, 3};
  s.delivery_errors.assign(4, 0);
  for (int j = 0; j < 4; ++j) s.gaps.push_back(steady(1e-6));
  SyncMeasurements sy;
  sy.window = 1e-3;
  sy.windows = 800;
  sy.spoiled = spoiled;
  sy.missed = {0, 0, 0, spoiled};
  for (int j = 0; j < 4; ++j) sy.arrivals.push_back(steady(arrival[static_cast<std::size_t>(j)]));
  sy.ol = steady(arrival[3]);
  sy.checked = {3, 1};
  sy.random_task = 1;
  for (int task : sy.checked) {
    TaskMeasurements t;
    t.task = task;
    t.rtl = steady(0.5e-6);
    t.e = steady(ol_i[static_cast<std::size_t>(task)] + 0.25e-6);
    s.tasks.push_back(t);
  }
  s.sync = sy;
  s.rounds = steady(5e-6);
  s.barrier = steady(40e-6);
  s.ack = steady(50e-6);
  m.sizes.push_back(s);
  return m;
}

}  // namespace

TEST_CASE("bcast sync: a fit recovers a partner clock's offset and drift") {
  // 3.5 s ahead and 40 ppm fast, fitted over 0.1 s of local time near 1e5 s.
  const ClockModel fit = fit_clock(points_of(3.5, 40e-6, 1e5, 0.1, 16));
  CHECK(fit.slope == doctest::Approx(1 + 40e-6).epsilon(1e-12));
  CHECK(fit.global(1e5) == doctest::Approx(1e5 * (1 + 40e-6) + 3.5).epsilon(1e-14));
  // Exact points: no residual, the error is half the smallest round trip.
  CHECK(fit.base_error == doctest::Approx(1e-6));
  CHECK(fit.error_rate < 1e-9);
}

TEST_CASE("bcast sync: a point whose round trip a scheduler stretched does not tilt the fit") {
  // 40 ppm over 0.1 s; one point's round trip stretched to 100 us, its offset off by 40 us
  // (one way took the extra time): fitted, it would move the drift by tens of ppm.
  auto points = points_of(0.5, 40e-6, 10, 0.1, 16);
  points[15].round_trip = 100e-6;
  points[15].offset += 40e-6;
  CHECK(tight_points(points).size() == 15);
  const ClockModel fit = fit_clock(points);
  CHECK((fit.slope - 1) * 1e6 == doctest::Approx(40).epsilon(1e-6));
  CHECK(fit.base_error == doctest::Approx(1e-6));
  // Every point stretched but two: the noise is the run's; all are fitted, the stated drift
  // uncertainty (error_rate) widens and holds the truth.
  for (std::size_t k = 2; k < points.size(); ++k) {
    points[k].round_trip = 80e-6;
    points[k].offset += (k % 2 ? 1 : -1) * 20e-6;
  }
  CHECK(tight_points(points).size() == points.size());
  const ClockModel loose = fit_clock(points);
  CHECK(std::abs(loose.slope - 1 - 40e-6) <= loose.error_rate);
  CHECK(loose.error_rate > 1e-6);
}

TEST_CASE("bcast sync: models compose down the tree, their errors add") {
  // Rank 2's clock -> rank 0's, rank 3's -> rank 2's: rank 3's global is rank 0's clock.
  ClockModel to_parent = fit_clock(points_of(-1.0, 20e-6, 50, 1, 8));
  ClockModel parent = fit_clock(points_of(2.0, -30e-6, 50, 1, 8));
  const ClockModel whole = to_parent.then(parent);
  const double local = 60;
  CHECK(whole.global(local) == doctest::Approx(parent.global(to_parent.global(local))));
  CHECK(whole.base_error >= to_parent.base_error + parent.base_error);
  CHECK(whole.local(whole.global(local)) == doctest::Approx(local));
  // Offset and drift as the result states them: local - global, and ppm against rank 0.
  ClockModel ahead{1.0, -2.5};
  CHECK(ahead.offset_at(10) == doctest::Approx(2.5));
  ClockModel fast{1 / (1 + 50e-6), 0};
  CHECK(fast.drift_ppm() == doctest::Approx(50).epsilon(1e-9));
}

TEST_CASE("bcast sync: the classic methods' samples are bounded") {
  CHECK(round_roots(4, 1, 1, 8) == std::vector<int>{1, 2, 3, 0});
  CHECK(round_roots(4, 1, -1, 8) == std::vector<int>{1, 0, 3, 2});
  CHECK(round_roots(1000, 998, 1, 4) == std::vector<int>{998, 999, 0, 1});
  CHECK(spread_ranks(4, 0, 8) == std::vector<int>{1, 2, 3});
  CHECK(spread_ranks(4, -1, 8) == std::vector<int>{0, 1, 2, 3});
  CHECK(spread_ranks(9, 0, 4) == std::vector<int>{1, 3, 5, 7});
  CHECK(spread_ranks(8192, -1, 4).size() == 4);
}

TEST_CASE("bcast sync: OL is the largest mean arrival, the cross-check agrees or is a reason") {
  SUBCASE("agree") {
    const auto m = sync_run({5e-6, 40e-6, 50e-6, 60e-6}, {0, 41e-6, 0, 62e-6});
    const BcastSummary s = summarise(m);
    REQUIRE(s.sizes.size() == 1);
    CHECK(s.sizes[0].ol == doctest::Approx(60e-6));
    CHECK(s.sizes[0].ol_task == 3);
    REQUIRE(s.sizes[0].sync);
    REQUIRE(s.sizes[0].sync->checks.size() == 2);
    // Allowed: 10% of OL_i plus the clock's measured error (1 us).
    CHECK(s.sizes[0].sync->checks[0].allowed == doctest::Approx(0.1 * 62e-6 + 1e-6));
    CHECK(s.sizes[0].sync->checks[1].random);
    CHECK(s.invalid_reasons.empty());
  }
  SUBCASE("disagree") {
    const auto m = sync_run({5e-6, 40e-6, 50e-6, 60e-6}, {0, 41e-6, 0, 90e-6});
    const BcastSummary s = summarise(m);
    CHECK(has_reason(s, "the sync and OL_i methods disagree"));
    CHECK(has_reason(s, "task 3"));
  }
  SUBCASE("missed windows past the share") {
    const auto m = sync_run({5e-6, 40e-6, 50e-6, 60e-6}, {0, 41e-6, 0, 62e-6}, 100);
    const BcastSummary s = summarise(m);
    CHECK(has_reason(s, "100 of 800 synchronized windows"));
    CHECK(has_reason(s, "rank 3 100"));
  }
  SUBCASE("a clock past its bound") {
    auto m = sync_run({5e-6, 40e-6, 50e-6, 60e-6}, {0, 41e-6, 0, 62e-6});
    m.clocks[2].measured_error = 7e-6;  // the bound is 5 us
    const BcastSummary s = summarise(m);
    CHECK(s.clock_error == doctest::Approx(7e-6));
    CHECK(has_reason(s, "exceeds its bound 5.000 us"));
  }
}

TEST_CASE("bcast sync: the parameters") {
  BcastParameters p;
  CHECK(p.method_for(kSyncFromProcesses - 1) == "oli");
  CHECK(p.method_for(kSyncFromProcesses) == "sync");
  p.method = "oli";
  CHECK(p.method_for(4096) == "oli");
  p.method = "fast";
  CHECK_THROWS_WITH_AS(p.check(), doctest::Contains("--method"), worker::UsageError);
  p = {};
  p.clock_error_bound_us = 0;
  CHECK_THROWS_WITH_AS(p.check(), doctest::Contains("--clock-error-bound-us"), worker::UsageError);
  p = {};
  p.max_missed_share = 1.5;
  CHECK_THROWS_WITH_AS(p.check(), doctest::Contains("--max-missed-share"), worker::UsageError);
  p = {};
  p.classic_sample = 0;
  CHECK_THROWS_WITH_AS(p.check(), doctest::Contains("--classic-sample"), worker::UsageError);
}

TEST_CASE("plan: the bcast rule follows the method") {
  const auto cost = [](int processes, nlohmann::json settings = nlohmann::json::object()) {
    return sweep::method_cost("bcast", sweep::WorkerValues({}, {{"settings", settings}}),
                              {processes, processes}, {});
  };
  // auto switches where the worker does.
  CHECK(cost(kSyncFromProcesses - 1).rule.find("method oli") != std::string::npos);
  CHECK(cost(kSyncFromProcesses).rule.find("method sync") != std::string::npos);
  // Exact: 32 ranks (depth 5), sizes 8, M 10, 2 measurements, sync, sample 4, k 2, bound
  // 5 us, fit 0.1 s, latency 5 us, bandwidth 1 GB/s.
  const auto c = cost(32, {{"sizes", "8"}, {"repetitions", "10"}, {"max_measurements", "2"}});
  const double L = 5e-6, series = 20, levels = 5, depth = 5;
  const double ol = depth * (L + 8 / 1e9);
  const double window = 2 * ol + 2 * 5e-6;
  const double expected = 4 * 2 * ol + series * ol + levels * (0.1 + 16 * 8 * 2 * L + 8 * 2 * L) +
                          series * window + 2 * (5e-3 + window) + 3 * series * (3 * L + ol) +
                          series * 4 * ol + series * (ol + levels * L) + series * (ol + 4 * L);
  CHECK(c.seconds == doctest::Approx(expected).epsilon(1e-12));
  CHECK(c.rule.find("3 OL_i cross-check tasks") != std::string::npos);
  // The same point by OL_i: 31 task series instead of the windows and 3 checked tasks.
  const auto o = cost(
      32, {{"sizes", "8"}, {"repetitions", "10"}, {"max_measurements", "2"}, {"method", "oli"}});
  const double oli = 4 * 2 * ol + series * ol + 31 * series * (3 * L + ol) + series * 4 * ol +
                     series * (ol + levels * L) + series * (ol + 4 * L);
  CHECK(o.seconds == doctest::Approx(oli).epsilon(1e-12));
  // At defaults the 8,192- and 1,024-node points stay in their budgets (issue 49: < 500 and
  // < 50 node-hours with the job's start-up).
  for (auto [nodes, budget] : {std::pair{8192, 500.0}, std::pair{1024, 50.0}}) {
    const double seconds = cost(nodes).seconds + sweep::launch_seconds({}, nodes);
    CHECK(seconds * nodes / 3600 < budget);
  }
}
