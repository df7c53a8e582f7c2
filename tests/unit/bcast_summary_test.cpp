// pbench-bcast: the reduction of controlled measurements: OL_i = E_i - RTL_i/2, OL = max_i OL_i
// with its task, the assumption check on i's path, validity, and the result document.
#include <doctest/doctest.h>

#include <map>
#include <sstream>

#include "bcast/BcastReport.hpp"
#include "bcast/BcastSummary.hpp"
#include "bcast/Broadcaster.hpp"

using namespace pbench::bcast;

namespace {

MeasurementSeries series_of(std::vector<double> values) {
  MeasurementSeries s;
  for (double v : values) s.add(v);
  return s;
}

/// `count` equal measurements of `value` (stable under the rule).
MeasurementSeries steady(double value, int count = 8) {
  return series_of(std::vector<double>(static_cast<std::size_t>(count), value));
}

/// Measurements of one size on `nprocs` ranks: every gap `gap`, task i with RTL_i = rtl[i] and
/// E_i = e[i] (8 equal measurements each), the classic methods steady.
SizeMeasurements size_of(int nprocs, int root, double gap, const std::vector<double>& rtl,
                         const std::vector<double>& e) {
  SizeMeasurements s;
  s.size = 256;
  s.delivery_errors.assign(static_cast<std::size_t>(nprocs), 0);
  for (int j = 0; j < nprocs; ++j) s.gaps.push_back(steady(gap));
  for (int i = 0; i < nprocs; ++i) {
    if (i == root) continue;
    TaskMeasurements t;
    t.task = i;
    t.rtl = steady(rtl[static_cast<std::size_t>(i)]);
    t.e = steady(e[static_cast<std::size_t>(i)]);
    s.tasks.push_back(t);
  }
  s.rounds = steady(5e-6);
  s.barrier = steady(40e-6);
  s.ack = steady(50e-6);
  return s;
}

BcastMeasurements run_of(int nprocs, int root, const std::string& impl = "mpi") {
  BcastMeasurements m;
  m.parameters.root = root;
  m.parameters.impl = impl;
  m.nprocs = nprocs;
  m.rule = StopRule{8, 30, 0.03};
  if (const Implementation* i = find_implementation(impl); i && i->algorithm) {
    m.shape = BroadcastShape(*i->algorithm, nprocs);
  }
  return m;
}

bool mentions(const std::vector<std::string>& lines, const std::string& part) {
  for (const auto& line : lines) {
    if (line.find(part) != std::string::npos) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("bcast: OL_i = E_i - RTL_i/2 per task, OL the largest, with its task") {
  BcastMeasurements m = run_of(4, 0);
  //                         rank:  0     1      2      3
  m.sizes.push_back(size_of(4, 0, 2e-6, {0, 10e-6, 30e-6, 20e-6}, {0, 20e-6, 35e-6, 32e-6}));
  const BcastSummary s = summarise(m);
  CHECK(s.invalid_reasons.empty());
  CHECK(s.warnings.empty());
  REQUIRE(s.sizes.size() == 1);
  const SizeSummary& z = s.sizes[0];
  REQUIRE(z.rows.size() == 3);
  CHECK(z.rows[0].task == 1);
  CHECK(z.rows[0].ol.mean == doctest::Approx(15e-6));
  CHECK(z.rows[1].ol.mean == doctest::Approx(20e-6));
  CHECK(z.rows[2].ol.mean == doctest::Approx(22e-6));
  CHECK(z.ol == doctest::Approx(22e-6));
  CHECK(z.ol_task == 3);
  CHECK(z.send.stats.mean == doctest::Approx(2e-6));  // the root's gap
  CHECK(z.max_gap == doctest::Approx(2e-6));
  CHECK(z.rounds.stats.mean == doctest::Approx(5e-6));
  CHECK(z.rows[2].rtl.stable);
  CHECK(z.rows[2].ol.count == 8);
}

TEST_CASE("bcast: OL_i is taken per measurement, so its mean is mean(E_i) - mean(RTL_i)/2") {
  BcastMeasurements m = run_of(2, 0);
  SizeMeasurements z = size_of(2, 0, 1e-6, {0, 0}, {0, 0});
  z.tasks[0].rtl = series_of({10e-6, 12e-6, 14e-6});
  z.tasks[0].e = series_of({20e-6, 20e-6, 26e-6});
  m.sizes.push_back(z);
  const auto summary = summarise(m);  // kept: a reference into the temporary dangled
  const OlRow& row = summary.sizes[0].rows[0];
  CHECK(row.ol.count == 3);
  CHECK(row.ol.min == doctest::Approx(14e-6));  // 20 - 12/2
  CHECK(row.ol.max == doctest::Approx(19e-6));  // 26 - 14/2
  CHECK(row.ol.mean == doctest::Approx(22e-6 - 6e-6));
  CHECK(ol_estimate(20e-6, 10e-6) == doctest::Approx(15e-6));
}

TEST_CASE("bcast: equal OL_i: the first task is the argmax, and another root is no task") {
  BcastMeasurements m = run_of(3, 1);
  m.parameters.root = 1;
  m.sizes.push_back(size_of(3, 1, 1e-6, {10e-6, 0, 10e-6}, {20e-6, 0, 20e-6}));
  const SizeSummary z = summarise(m).sizes[0];
  REQUIRE(z.rows.size() == 2);
  CHECK(z.rows[0].task == 0);
  CHECK(z.rows[1].task == 2);
  CHECK(z.ol_task == 0);
  CHECK(z.send.stats.mean == doctest::Approx(1e-6));
}

TEST_CASE("bcast: the gap on a path, or the largest of all when the path is unknown") {
  const std::vector<double> gaps = {1, 5, 3, 5};
  CHECK(gap_on_path(gaps, {0, 2}).gap == 3);
  CHECK(gap_on_path(gaps, {0, 2}).rank == 2);
  const PathGap all = gap_on_path(gaps, {});
  CHECK(all.gap == 5);
  CHECK(all.rank == 1);  // the first of equal ones
  CHECK(gap_on_path(gaps, {0}).gap == 1);
  CHECK(assumption_holds(2, 1));
  CHECK_FALSE(assumption_holds(1, 1));
}

TEST_CASE("bcast: the assumption check uses i's path with an own implementation") {
  // linear, root 0, 4 ranks: path to 1 is {0, 1}, to 3 is {0, 1, 2, 3}. Rank 2 has a gap of
  // 25 us: only tasks whose path passes 2 (2 and 3) are checked against it.
  BcastMeasurements m = run_of(4, 0, "linear");
  SizeMeasurements z = size_of(4, 0, 2e-6, {0, 10e-6, 10e-6, 10e-6}, {0, 20e-6, 40e-6, 24e-6});
  z.gaps[2] = steady(25e-6);
  m.sizes.push_back(z);
  const BcastSummary s = summarise(m);
  const SizeSummary& row = s.sizes[0];
  CHECK(row.rows[0].assumption_holds);  // E_1 = 20 us > g on {0, 1} = 2 us
  CHECK(row.rows[0].gap == doctest::Approx(2e-6));
  CHECK(row.rows[1].assumption_holds);        // E_2 = 40 us > 25 us
  CHECK_FALSE(row.rows[2].assumption_holds);  // E_3 = 24 us <= 25 us of rank 2
  CHECK(row.rows[2].gap_rank == 2);
  CHECK(row.ol_task == 2);  // 35 us
  // Task 3 is not the argmax: a warning, the result stays valid.
  CHECK(s.invalid_reasons.empty());
  CHECK(mentions(s.warnings, "size 256 B: the assumption check fails for task(s) 3"));
}

TEST_CASE("bcast: OL resting on a task whose E_i does not exceed the gap is not valid") {
  BcastMeasurements m = run_of(3, 0);  // MPI_Bcast: the largest gap of all ranks counts
  SizeMeasurements z = size_of(3, 0, 2e-6, {0, 10e-6, 10e-6}, {0, 20e-6, 30e-6});
  z.gaps[1] = steady(30e-6);
  m.sizes.push_back(z);
  const BcastSummary s = summarise(m);
  CHECK(s.sizes[0].ol_task == 2);
  CHECK_FALSE(s.sizes[0].rows[1].assumption_holds);
  CHECK(mentions(s.invalid_reasons,
                 "OL rests on task 2, whose E_i 30.000 us does not exceed "
                 "the broadcast gap 30.000 us of rank 1 (the largest"));
}

TEST_CASE("bcast: measurements that did not meet the 3% rule make the result not valid") {
  BcastMeasurements m = run_of(2, 0);
  SizeMeasurements z = size_of(2, 0, 1e-6, {0, 10e-6}, {0, 20e-6});
  z.barrier = series_of({40e-6, 60e-6, 40e-6, 60e-6, 40e-6, 60e-6, 40e-6, 60e-6});
  z.tasks[0].e = series_of({20e-6, 20e-6});  // stopped after 2 of 30: not stable
  m.sizes.push_back(z);
  const BcastSummary s = summarise(m);
  REQUIRE(s.invalid_reasons.size() == 1);
  CHECK(s.invalid_reasons[0].find("barrier_latency (21.4%)") != std::string::npos);
  CHECK(s.invalid_reasons[0].find("ol_i task 1 e_i") != std::string::npos);
  CHECK(s.invalid_reasons[0].find("rounds_latency") == std::string::npos);
  CHECK_FALSE(s.sizes[0].barrier.stable);
  CHECK_FALSE(s.sizes[0].rows[0].stable());
}

TEST_CASE("bcast: wrong bytes in the delivery check make the result not valid, by root") {
  BcastMeasurements m = run_of(3, 0, "binomial");
  SizeMeasurements z = size_of(3, 0, 1e-6, {0, 10e-6, 10e-6}, {0, 20e-6, 20e-6});
  z.delivery_errors = {0, 0, 2};
  m.sizes.push_back(z);
  const BcastSummary s = summarise(m);
  CHECK(s.sizes[0].delivery_errors == 2);
  CHECK(mentions(s.invalid_reasons,
                 "2 rank(s) did not receive the root's bytes in the delivery check (from root(s) "
                 "2)"));
}

TEST_CASE("bcast: an OL_i that is not positive makes the result not valid") {
  BcastMeasurements m = run_of(3, 0);
  // Task 2's round trips took 60 us against E_2 = 25 us: OL_2 = -5 us.
  m.sizes.push_back(size_of(3, 0, 1e-6, {0, 10e-6, 60e-6}, {0, 20e-6, 25e-6}));
  const BcastSummary s = summarise(m);
  CHECK(s.sizes[0].ol_task == 1);
  // The shared check (worker::PhysicalLimits) names the quantity, its value and unit.
  CHECK(mentions(s.invalid_reasons,
                 "size 256 B: physically impossible: OL_i is not positive for task 2 (-5 us): "
                 "RTL_i/2 exceeded E_i, the round trips were disturbed"));
  BcastMeasurements fine = run_of(3, 0);
  fine.sizes.push_back(size_of(3, 0, 1e-6, {0, 10e-6, 40e-6}, {0, 20e-6, 25e-6}));
  CHECK(summarise(fine).invalid_reasons.empty());
}

TEST_CASE("bcast: a negative OL is not valid, its reason first, and the document says so") {
  BcastMeasurements m = run_of(2, 0);
  // OL = E_1 - RTL_1/2 = 20 us - 49.34 us / 2 = -4.67 us: the round trips were disturbed.
  m.sizes.push_back(size_of(2, 0, 1e-6, {0, 49.34e-6}, {0, 20e-6}));
  const BcastSummary s = summarise(m);
  REQUIRE(s.sizes.size() == 1);
  CHECK(s.sizes[0].ol == doctest::Approx(-4.67e-6));
  REQUIRE_FALSE(s.invalid_reasons.empty());
  CHECK(s.invalid_reasons[0] ==
        "size 256 B: physically impossible: OL (task 1) = -4.67 us is not positive: RTL_i/2 "
        "exceeded E_i, the round trips were disturbed");
  pbench::worker::ResultDocument doc("bcast");
  BcastReport(m).write(doc);
  const auto j = doc.to_json();
  CHECK_FALSE(j["validity"]["valid"].get<bool>());
  CHECK(j["validity"]["reasons"][0] == s.invalid_reasons[0]);
}

TEST_CASE("bcast: a gap or a classic latency of zero or less is not valid either") {
  BcastMeasurements m = run_of(3, 0);
  SizeMeasurements z = size_of(3, 0, 1e-6, {0, 10e-6, 10e-6}, {0, 20e-6, 25e-6});
  z.gaps[2] = steady(0);
  z.barrier = steady(-1e-6);
  m.sizes.push_back(z);
  const BcastSummary s = summarise(m);
  CHECK(mentions(s.invalid_reasons,
                 "size 256 B: physically impossible: broadcast gap g_j is not positive for rank 2 "
                 "(0 us)"));
  CHECK(mentions(s.invalid_reasons,
                 "size 256 B: physically impossible: barrier_latency = -1 us is not positive"));
}

TEST_CASE("bcast: one process measures nothing and says why") {
  const BcastSummary s = summarise(run_of(1, 0));
  CHECK(s.sizes.empty());
  CHECK(mentions(s.invalid_reasons, "1 process: there is no task other than the root"));
}

TEST_CASE("bcast: with a synthetic hop delay every task has the model's OL_i beside it") {
  BcastMeasurements m = run_of(4, 1, "linear");
  m.parameters.hop_delay_us = 10000;
  // linear from root 1: 1 -> 2 -> 3 -> 0; task 0 is last, at 3d.
  m.sizes.push_back(size_of(4, 1, 10e-3, {1e-4, 0, 1e-4, 1e-4}, {30.1e-3, 0, 20.1e-3, 30.2e-3}));
  const BcastSummary s = summarise(m);
  const SizeSummary& z = s.sizes[0];
  REQUIRE(z.model_ol);
  CHECK(*z.model_ol == doctest::Approx(30e-3));
  CHECK(*z.rows[0].model == doctest::Approx(30e-3));  // task 0, relative 3
  CHECK(*z.rows[1].model == doctest::Approx(20e-3));  // task 2, relative 1
  CHECK(*z.rows[2].model == doctest::Approx(30e-3));  // task 3, relative 2: forwards to 0
  CHECK(mentions(s.warnings, "synthetic hop delay of 10000 us"));
}

TEST_CASE("bcast: the result document has the metrics per size and every OL_i") {
  BcastMeasurements m = run_of(3, 0, "linear");
  m.sizes.push_back(size_of(3, 0, 2e-6, {0, 10e-6, 10e-6}, {0, 20e-6, 30e-6}));
  SizeMeasurements big = size_of(3, 0, 4e-6, {0, 12e-6, 12e-6}, {0, 50e-6, 40e-6});
  big.size = 65536;
  m.sizes.push_back(big);
  m.rank_hosts = {"node1", "node1", "node2"};
  const BcastReport report(m);
  pbench::worker::ResultDocument result("bcast");
  report.write(result);
  const nlohmann::json doc = result.to_json();
  std::map<std::pair<std::string, std::int64_t>, double> metrics;
  for (const auto& metric : doc["summary"]) {
    metrics[{metric["name"].get<std::string>(), metric["labels"]["size"].get<std::int64_t>()}] =
        metric["value"].get<double>();
  }
  CHECK(metrics[{"ol", 256}] == doctest::Approx(25e-6));
  CHECK(metrics[{"ol_task", 256}] == 2);
  CHECK(metrics[{"ol", 65536}] == doctest::Approx(44e-6));
  CHECK(metrics[{"ol_task", 65536}] == 1);
  CHECK(metrics[{"send_latency", 256}] == doctest::Approx(2e-6));
  CHECK(metrics[{"rounds_latency", 256}] == doctest::Approx(5e-6));
  CHECK(metrics[{"barrier_latency", 256}] == doctest::Approx(40e-6));
  CHECK(metrics[{"ack_latency", 256}] == doctest::Approx(50e-6));
  CHECK(metrics[{"max_gap", 65536}] == doctest::Approx(4e-6));
  CHECK(doc["measurements"]["ol_i"]["rows"].size() == 4);  // 2 sizes x 2 tasks
  // Each OL_i with its task's host, in the last column.
  CHECK(doc["measurements"]["ol_i"]["columns"].back()["name"] == "host");
  for (const auto& row : doc["measurements"]["ol_i"]["rows"]) {
    CHECK(row.back() == (row[1] == 2 ? "node2" : "node1"));
  }
  CHECK(doc["measurements"]["delivery"]["rows"].size() == 6);  // 2 sizes x 3 roots
  CHECK_FALSE(doc["measurements"].contains("ol_model"));       // no hop delay
  std::ostringstream protocol;
  report.print(protocol);
  CHECK(protocol.str().find("OL = max_i OL_i (task 2 on node2)") != std::string::npos);
  CHECK(protocol.str().find("valid: yes") != std::string::npos);
}
