// logp: reduction of measurements to the summary (derived values, flags) and the result document
// the orchestrator reads.
#include <doctest/doctest.h>

#include <algorithm>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "logp/LogpReport.hpp"

using namespace pbench::logp;
using nlohmann::json;

namespace {

constexpr std::size_t kN = 1000;

// One pair; EEL runs of eel + run * 10 ns; flood curves g_q + s * G at q = 1 and 4 (repetitions
// 1 and 2 are 10% and 20% slower); the overlap test of a sender with overhead o_s and a
// receiver with overhead o_r at t0 = g_1.
LogpMeasurements synthetic(double eel, double o_s, double o_r) {
  LogpMeasurements m;
  m.parameters.queue_depths = {1, 4};
  m.parameters.max_size = 1048576;
  m.nprocs = 2;
  m.pairs = 1;
  m.placement.push_back({0, 0, 1, "node1", "node2"});
  for (int run = 0; run < 10; ++run) {
    m.eel.push_back({0, run, 10000, (eel + run * 1e-8) * 2 * 10000});
  }
  const double big_g = 1e-10;
  for (int rep = 0; rep < 3; ++rep) {
    for (int q : {1, 4}) {
      const double g = q == 1 ? 0.3e-6 : 0.2e-6;
      for (std::size_t s = 8; s <= 1048576; s *= 2) {
        const double t = (g + static_cast<double>(s) * big_g) * (1.0 + 0.1 * rep);
        m.flood.push_back({0, q, s, kN, rep, t * kN});
      }
    }
  }
  const double t0 = 0.3e-6;
  for (auto [side, overhead] :
       {std::pair{OverlapSide::send, o_s}, std::pair{OverlapSide::recv, o_r}}) {
    for (int b = 0; b < 4; ++b) m.overlap.push_back({0, side, 0, b, 0, 0, kN, t0 * kN});
    for (int k = 1; k <= 32; ++k) {
      const double busy = k * t0 / 16;
      const double t = std::max(t0, overhead + busy);
      m.overlap.push_back({0, side, k, 0, busy, busy, kN, t * kN});
    }
  }
  return m;
}

// `pairs` pairs measuring the overlap test alone (the EEL and flood of synthetic()'s pair 0): on
// the send side of pair p the second-fastest baseline is (p + 1) * 10% above the fastest, so its
// tolerance is that spread; the receive side's baselines agree (the least tolerance, 5%).
LogpMeasurements noisy_baselines(int pairs) {
  LogpMeasurements m = synthetic(1e-6, 0.1e-6, 0.1e-6);
  m.pairs = pairs;
  m.nprocs = 2 * pairs;
  m.overlap.clear();
  const double t0 = 0.3e-6;
  for (int pair = 0; pair < pairs; ++pair) {
    if (pair > 0) m.placement.push_back({pair, 2 * pair, 2 * pair + 1, "node1", "node2"});
    for (OverlapSide side : {OverlapSide::send, OverlapSide::recv}) {
      const double spread = side == OverlapSide::send ? 0.1 * (pair + 1) : 0.0;
      for (int b = 0; b < 4; ++b) {
        m.overlap.push_back({pair, side, 0, b, 0, 0, kN, t0 * (1 + spread * b) * kN});
      }
      for (int k = 1; k <= 32; ++k) {
        const double busy = k * t0 / 16;
        m.overlap.push_back({pair, side, k, 0, busy, busy, kN, std::max(t0, 0.1e-6 + busy) * kN});
      }
    }
  }
  return m;
}

std::set<std::string> warnings_with(const LogpSummary& s, const std::string& text) {
  std::set<std::string> found;
  for (const auto& w : s.warnings) {
    if (w.find(text) != std::string::npos) found.insert(w);
  }
  return found;
}

const json* metric(const json& doc, const std::string& name, const json& labels) {
  for (const auto& m : doc["summary"]) {
    if (m["name"] == name && m["labels"] == labels) return &m;
  }
  return nullptr;
}

}  // namespace

TEST_CASE("logp summary: EEL minimum and median, g per q, g_best and G from the flood curves") {
  const LogpReport report(synthetic(1e-6, 0.1e-6, 0.1e-6));
  const LogpSummary& s = report.summary();
  CHECK(s.eel_min == doctest::Approx(1e-6));
  CHECK(s.eel_median == doctest::Approx(1.045e-6));
  CHECK(s.eel_samples == 10);
  REQUIRE(s.queue_depths.size() == 2);
  CHECK(s.queue_depths[0].g == doctest::Approx(0.3e-6 + 8e-10));
  CHECK(s.queue_depths[1].g == doctest::Approx(0.2e-6 + 8e-10));
  CHECK(s.g_best == doctest::Approx(0.2e-6 + 8e-10));
  CHECK(s.best_queue_depth == 4);
  CHECK(s.queue_depths[0].big_g.value() == doctest::Approx(1e-10).epsilon(1e-6));
  CHECK(s.queue_depths[0].bandwidth.value() == doctest::Approx(1e10).epsilon(1e-6));
  CHECK(s.queue_depths[1].threshold.value() == doctest::Approx((0.2e-6 + 8e-10) / 1e-10));
  CHECK(s.invalid_reasons.empty());
}

TEST_CASE("logp summary: overheads, L and overlap potential, and no flag when the model holds") {
  const LogpReport report(synthetic(1e-6, 0.1e-6, 0.15e-6));
  const LogpSummary& s = report.summary();
  // b_max for overhead o: the largest k * t0/16 with o + b <= 1.05 t0
  CHECK(s.o_s == doctest::Approx(0.3e-6 - 13 * 0.3e-6 / 16));
  CHECK(s.o_r == doctest::Approx(0.3e-6 - 11 * 0.3e-6 / 16));
  CHECK(s.latency_l == doctest::Approx(s.eel_min - s.o_s - s.o_r));
  CHECK(s.overlap_potential == doctest::Approx(s.latency_l));
  CHECK(warnings_with(s, "does not hold").empty());
  CHECK(warnings_with(s, "exceeds g_best").empty());
}

TEST_CASE(
    "logp summary: a negative L is reported and flagged, and overheads above g_best flagged") {
  const LogpReport report(synthetic(0.3e-6, 0.3e-6, 0.3e-6));
  const LogpSummary& s = report.summary();
  CHECK(s.o_s == doctest::Approx(0.3e-6));  // every step increased the time: o = t0
  CHECK(s.overlap[0].send.saturated);
  CHECK(s.latency_l == doctest::Approx(0.3e-6 - 0.6e-6));
  CHECK(s.overlap_potential == 0);
  CHECK(warnings_with(s, "LogP assumption").size() == 1);
  CHECK(warnings_with(s, "o_s = 0.300 us exceeds g_best").size() == 1);
  CHECK(warnings_with(s, "o_r = 0.300 us exceeds g_best").size() == 1);
}

TEST_CASE("logp report: the document carries exactly the metrics the orchestrator reads") {
  const LogpReport report(synthetic(1e-6, 0.1e-6, 0.1e-6));
  pbench::worker::ResultDocument doc("logp");
  report.write(doc);
  const json j = doc.to_json();
  const json none = json::object();
  for (const char* name :
       {"eel_min", "eel_median", "o_s", "o_r", "latency_l", "overlap_potential"}) {
    const json* m = metric(j, name, none);
    REQUIRE_MESSAGE(m != nullptr, name);
    CHECK((*m)["unit"] == "s");
    CHECK((*m)["value"].is_number());
    CHECK((*m)["samples"].get<int>() > 0);
  }
  const std::pair<const char*, const char*> per_q[] = {{"g", "s"},
                                                       {"big_g", "s/B"},
                                                       {"bandwidth", "B/s"},
                                                       {"large_message_threshold", "B"},
                                                       {"protocol_switches", "count"}};
  for (int q : {1, 4}) {
    for (const auto& entry : per_q) {
      // Not a structured binding: doctest captures name in a lambda, which clang 14 refuses.
      const char* name = entry.first;
      const char* unit = entry.second;
      const json* m = metric(j, name, {{"queue_depth", q}});
      REQUIRE_MESSAGE(m != nullptr, name);
      CHECK((*m)["unit"] == unit);
      CHECK((*m)["value"].is_number());
    }
  }
  const json* best = metric(j, "g_best", {{"queue_depth", 4}});
  REQUIRE(best != nullptr);
  CHECK((*best)["value"].get<double>() == doctest::Approx(0.2e-6 + 8e-10));
  CHECK(j["summary"].size() == 1 + 6 + 6 * 2 + 1);
  // The flood's own bandwidth at its largest size: size over the fastest time per message.
  const json* at_max = metric(j, "bandwidth_at_max_size", {{"queue_depth", 4}, {"size", 1048576}});
  REQUIRE(at_max != nullptr);
  CHECK((*at_max)["value"].get<double>() ==
        doctest::Approx(1048576.0 / (0.2e-6 + 1048576 * 1e-10)));
  CHECK((*at_max)["unit"] == "B/s");
  const json* internode = metric(j, "internode_pairs", json::object());
  REQUIRE(internode != nullptr);
  CHECK((*internode)["value"] == 1);
  CHECK(j["measurements"]["pairs"]["rows"][0] ==
        json::array({0, 0, 1, "node1", "node2", "internode"}));
  for (const char* table : {"pairs", "eel", "eel_timing", "flood", "flood_curve", "gap_fit",
                            "overlap", "overlap_analysis", "calibration"}) {
    CHECK_MESSAGE(j["measurements"].contains(table), table);
  }
  CHECK(j["measurements"]["flood"]["rows"].size() == 3 * 2 * 18);
  CHECK(j["validity"]["valid"] == true);
}

TEST_CASE("logp report: the result says how EEL was timed: calls, communicator, timer, check") {
  auto m = synthetic(1e-6, 0.1e-6, 0.1e-6);
  m.eel_communicator = "MPI_COMM_WORLD";
  const LogpReport report(m);
  pbench::worker::ResultDocument doc("logp");
  report.write(doc);
  const json j = doc.to_json();
  REQUIRE(j["measurements"].contains("eel_timing"));
  const json& table = j["measurements"]["eel_timing"];
  std::vector<std::string> columns;
  for (const auto& c : table["columns"]) columns.push_back(c["name"]);
  CHECK(columns ==
        std::vector<std::string>{"side", "calls", "communicator", "timer", "data_check"});
  REQUIRE(table["rows"].size() == 2);
  const json& initiator = table["rows"][0];
  const json& responder = table["rows"][1];
  CHECK(initiator[0] == "initiator");
  CHECK(responder[0] == "responder");
  // The method's nonblocking calls, in the order the loop makes them.
  CHECK(initiator[1] == "MPI_Irecv, MPI_Isend, MPI_Wait (the send), MPI_Wait (the reply)");
  CHECK(responder[1] == "MPI_Irecv, MPI_Wait, MPI_Isend, MPI_Wait");
  CHECK(initiator[2] == "MPI_COMM_WORLD");
  CHECK(responder[2] == "MPI_COMM_WORLD");
  const std::string timer = initiator[3];
  CHECK(timer.find("no timer call inside the loop") != std::string::npos);
  const std::string check = initiator[4];
  CHECK(check.find("while a message is in flight") != std::string::npos);
  CHECK(check.find("the last reply after the timer") != std::string::npos);
  std::ostringstream protocol;
  report.print(protocol);
  CHECK(protocol.str().find("EEL (8 B ping-pong of nonblocking calls on MPI_COMM_WORLD, 10 runs") !=
        std::string::npos);
}

TEST_CASE("logp report: one process is a result without measurements, not valid, with reason") {
  LogpMeasurements m;
  m.nprocs = 1;
  m.pairs = 0;
  m.idle_ranks = {0};
  const LogpReport report(m);
  pbench::worker::ResultDocument doc("logp");
  report.write(doc);
  const json j = doc.to_json();
  CHECK(j["validity"]["valid"] == false);
  REQUIRE(j["validity"]["reasons"].size() == 1);
  CHECK(j["validity"]["reasons"][0] == "no pair: 1 process (logp needs at least 2)");
  CHECK(j["measurements"].empty());
  CHECK(j["summary"].empty());
  std::ostringstream protocol;
  report.print(protocol);
  CHECK(protocol.str().find("no pair") != std::string::npos);
}

TEST_CASE("logp report: an idle rank and data errors are reported") {
  auto m = synthetic(1e-6, 0.1e-6, 0.1e-6);
  m.nprocs = 3;
  m.idle_ranks = {2};
  m.placement_notes = {"rank 2 idles: 3 ranks on 1 node make 1 intranode pair"};
  m.data_errors = 2;
  const LogpReport report(m);
  CHECK(warnings_with(report.summary(), "rank 2 idles").size() == 1);
  REQUIRE(report.summary().invalid_reasons.size() == 1);
  CHECK(report.summary().invalid_reasons[0] == "2 messages arrived with wrong first or last bytes");
}

TEST_CASE("logp summary: a flood curve that falls with size gives no G and an invalid result") {
  LogpMeasurements m = synthetic(1e-6, 0.1e-6, 0.1e-6);
  // q = 4: the time per message shrinks as messages grow (a disturbed small-message region),
  // so the fitted per-byte slope is negative: no G, no 1/G, no M, and the reason is stated.
  for (auto& row : m.flood) {
    if (row.queue_depth == 4) {
      row.total = (5e-6 - static_cast<double>(row.size) * 4e-12) * kN;
    }
  }
  const LogpReport report(std::move(m));
  const LogpSummary& s = report.summary();
  REQUIRE(s.queue_depths.size() == 2);
  CHECK(s.queue_depths[0].big_g.has_value());
  CHECK_FALSE(s.queue_depths[1].big_g.has_value());
  CHECK_FALSE(s.queue_depths[1].bandwidth.has_value());
  CHECK_FALSE(s.queue_depths[1].threshold.has_value());
  REQUIRE(s.invalid_reasons.size() == 1);
  CHECK(s.invalid_reasons[0].find("physically impossible: G (q = 4) = -0.004 ns/B is not positive: "
                                  "the flood curve's fitted per-byte slope") == 0);
  pbench::worker::ResultDocument doc("logp");
  report.write(doc);
  const json j = doc.to_json();
  CHECK_FALSE(j["validity"]["valid"].get<bool>());
  const json* big_g = metric(j, "big_g", {{"queue_depth", 4}});
  REQUIRE(big_g != nullptr);
  CHECK((*big_g)["value"].is_null());
}

TEST_CASE("logp summary: a negative o_s is physically impossible, named with value and unit") {
  LogpSummary s = summarise(synthetic(1e-6, 0.1e-6, 0.1e-6));
  CHECK(physical_limits(s, {}).reasons().empty());
  s.o_s = -0.2e-6;
  const auto reasons = physical_limits(s, {}).reasons();
  REQUIRE(reasons.size() == 1);
  CHECK(reasons[0] == "physically impossible: o_s = -0.2 us is negative");
}

TEST_CASE("logp report: an EEL of zero or less makes the result not valid, its reason first") {
  auto m = synthetic(1e-6, 0.1e-6, 0.1e-6);
  m.data_errors = 1;
  for (auto& row : m.eel) row.total = -row.total;  // a clock that ran backwards
  const LogpReport report(std::move(m));
  const auto& reasons = report.summary().invalid_reasons;
  REQUIRE(reasons.size() == 3);
  CHECK(reasons[0].find("physically impossible: EEL (minimum) = -") == 0);
  CHECK(reasons[1].find("physically impossible: EEL (median) = -") == 0);
  CHECK(reasons[2] == "1 messages arrived with wrong first or last bytes");
  pbench::worker::ResultDocument doc("logp");
  report.write(doc);
  CHECK_FALSE(doc.to_json()["validity"]["valid"].get<bool>());
}

TEST_CASE("logp summary: an overlap step faster than the busy work inserted into it cannot be") {
  auto m = synthetic(1e-6, 0.1e-6, 0.1e-6);
  // Pair 0's send side, step 32: 0.6 us of busy work per message, yet 0.3 us per message.
  for (auto& row : m.overlap) {
    if (row.side == OverlapSide::send && row.step == 32) row.total = 0.3e-6 * kN;
  }
  const auto reasons = summarise(m).invalid_reasons;
  REQUIRE(reasons.size() == 1);
  CHECK(reasons[0] ==
        "physically impossible: pair 0 o_s step 32: time per message = 0.3 us is less than the "
        "sum of its parts, 0.6 us (busy time 0.6 us): each message waits for the busy work "
        "inserted into it: the busy loop's calibration or the clock is off");
}

TEST_CASE("logp summary: noisy overlap baselines are named per pair where few, one line where many") {
  // Three noisy sides: each named, with its spread.
  const LogpSummary few = summarise(noisy_baselines(3));
  CHECK(warnings_with(few, "baselines spread").size() == 3);
  CHECK(warnings_with(few, "pair 2 o_s: baselines spread 30.0%").size() == 1);
  CHECK(warnings_with(few, "o_r").empty());
  // 64 pairs (128 ranks): one warning, however many pairs; the count and the worst three.
  const LogpSummary many = summarise(noisy_baselines(64));
  REQUIRE(many.overlap.size() == 64);
  const auto lines = warnings_with(many, "baselines spread");
  REQUIRE(lines.size() == 1);
  const std::string& line = *lines.begin();
  CHECK(line.find("in 64 of 128 pair sides") != std::string::npos);
  CHECK(line.find("worst pair 63 o_s 640.0%, pair 62 o_s 630.0%, pair 61 o_s 620.0%") !=
        std::string::npos);
  CHECK(line.find("overlap_analysis") != std::string::npos);
  CHECK(line.size() < 300);
}
