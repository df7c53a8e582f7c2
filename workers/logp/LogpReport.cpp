#include "logp/LogpReport.hpp"

#include <cstdio>
#include <map>
#include <set>
#include <string>

#include "common/TextFormat.hpp"
#include "logp/PingPong.hpp"

namespace pbench::logp {

using worker::fixed;
using worker::pad_left;
using worker::pad_right;

namespace {

using nlohmann::json;

std::string join_sizes(const std::vector<double>& sizes) {
  std::string out;
  for (double s : sizes) {
    if (!out.empty()) out += ",";
    out += std::to_string(static_cast<long long>(s));
  }
  return out;
}

}  // namespace

const char* side_name(OverlapSide side) {
  return side == OverlapSide::send ? "send" : "recv";
}

LogpReport::LogpReport(LogpMeasurements measurements)
    : measurements_(std::move(measurements)), summary_(summarise(measurements_)) {}

void LogpReport::write(worker::ResultDocument& result) const {
  const LogpMeasurements& m = measurements_;
  const LogpSummary& s = summary_;
  for (const auto& reason : s.invalid_reasons) result.invalidate(reason);
  for (const auto& warning : s.warnings) result.add_warning(warning);
  if (m.pairs == 0) return;
  const std::size_t internode = write_pairs(result);
  write_eel(result);
  write_flood(result);
  write_overlap(result);
  write_metrics(result, internode);
}

std::size_t LogpReport::write_pairs(worker::ResultDocument& result) const {
  const LogpMeasurements& m = measurements_;
  // Where each pair ran: the hosts of both partners.
  auto& pairs = result.add_table("pairs", {{"pair", ""},
                                           {"sender", ""},
                                           {"receiver", ""},
                                           {"sender_host", ""},
                                           {"receiver_host", ""},
                                           {"placement", ""}});
  std::size_t internode = 0;
  for (const auto& p : m.placement) {
    pairs.add_row({p.pair, p.sender, p.receiver, p.sender_host, p.receiver_host, p.placement()});
    internode += std::string(p.placement()) == "internode" ? 1 : 0;
  }
  return internode;
}

void LogpReport::write_eel(worker::ResultDocument& result) const {
  const LogpMeasurements& m = measurements_;

  auto& eel = result.add_table(
      "eel",
      {{"pair", ""}, {"run", ""}, {"roundtrips", "count"}, {"total_time", "s"}, {"eel", "s"}});
  for (const auto& r : m.eel) eel.add_row({r.pair, r.run, r.roundtrips, r.total, r.eel()});
  // How the ping-pong was made and timed: the calls, the communicator, the timer and the data
  // check, per side of a pair (a run's figure is read against a plain ping-pong of these calls).
  auto& eel_timing = result.add_table(
      "eel_timing",
      {{"side", ""}, {"calls", ""}, {"communicator", ""}, {"timer", ""}, {"data_check", ""}});
  eel_timing.add_row({"initiator", PingPong::kInitiatorCalls, m.eel_communicator, PingPong::kTimer,
                      PingPong::kInitiatorCheck});
  eel_timing.add_row(
      {"responder", PingPong::kResponderCalls, m.eel_communicator, "-", PingPong::kResponderCheck});
}

void LogpReport::write_flood(worker::ResultDocument& result) const {
  const LogpMeasurements& m = measurements_;
  const LogpSummary& s = summary_;

  auto& flood = result.add_table("flood", {{"pair", ""},
                                           {"queue_depth", "messages"},
                                           {"size", "B"},
                                           {"messages", "count"},
                                           {"repetition", ""},
                                           {"total_time", "s"},
                                           {"time_per_message", "s"}});
  for (const auto& r : m.flood) {
    flood.add_row(
        {r.pair, r.queue_depth, r.size, r.messages, r.repetition, r.total, r.per_message()});
  }

  auto& curve = result.add_table("flood_curve", {{"queue_depth", "messages"},
                                                 {"size", "B"},
                                                 {"time_per_message", "s"},
                                                 {"bandwidth", "B/s"},
                                                 {"pairs", "count"},
                                                 {"fitted", ""},
                                                 {"outlier", ""}});
  auto& fit = result.add_table("gap_fit", {{"queue_depth", "messages"},
                                           {"segment", ""},
                                           {"from_size", "B"},
                                           {"to_size", "B"},
                                           {"slope", "s/B"},
                                           {"intercept", "s"},
                                           {"r2", ""},
                                           {"points", "count"},
                                           {"outliers", "count"},
                                           {"outlier_sizes", "B"}});
  for (const auto& qs : s.queue_depths) {
    std::set<double> fitted(qs.fit.fitted_sizes.begin(), qs.fit.fitted_sizes.end());
    std::set<double> outliers;
    for (const auto& seg : qs.fit.segments)
      outliers.insert(seg.outliers.begin(), seg.outliers.end());
    for (const auto& p : qs.curve) {
      curve.add_row({qs.queue_depth, p.size, p.time, p.size / p.time, s.pairs,
                     fitted.count(p.size) > 0, outliers.count(p.size) > 0});
    }
    int index = 0;
    for (const auto& seg : qs.fit.segments) {
      fit.add_row({qs.queue_depth, index++, seg.from_size, seg.to_size, seg.fit.slope,
                   seg.fit.intercept, seg.fit.r2, seg.points, seg.outliers.size(),
                   join_sizes(seg.outliers)});
    }
  }
}

void LogpReport::write_overlap(worker::ResultDocument& result) const {
  const LogpMeasurements& m = measurements_;
  const LogpSummary& s = summary_;
  auto& overlap = result.add_table("overlap", {{"pair", ""},
                                               {"side", ""},
                                               {"step", ""},
                                               {"repetition", ""},
                                               {"busy_target", "s"},
                                               {"busy", "s"},
                                               {"messages", "count"},
                                               {"total_time", "s"},
                                               {"time_per_message", "s"}});
  for (const auto& r : m.overlap) {
    overlap.add_row({r.pair, side_name(r.side), r.step, r.repetition, r.busy_target, r.busy,
                     r.messages, r.total, r.per_message()});
  }
  auto& analysis = result.add_table("overlap_analysis", {{"pair", ""},
                                                         {"side", ""},
                                                         {"baseline", "s"},
                                                         {"tolerance", "ratio"},
                                                         {"b_max", "s"},
                                                         {"overhead", "s"},
                                                         {"saturated", ""},
                                                         {"samples", "count"}});
  for (const auto& po : s.overlap) {
    for (const auto& [side, a] : {std::pair{"send", po.send}, std::pair{"recv", po.recv}}) {
      analysis.add_row(
          {po.pair, side, a.baseline, a.tolerance, a.b_max, a.overhead, a.saturated, a.points});
    }
  }

  auto& calibration = result.add_table("calibration", {{"rank", ""},
                                                       {"role", ""},
                                                       {"trial", ""},
                                                       {"iterations", "count"},
                                                       {"seconds", "s"},
                                                       {"iterations_per_second", "1/s"}});
  for (const auto& c : m.calibration) {
    calibration.add_row({c.rank, c.role, c.trial, c.iterations, c.seconds, c.rate});
  }
}

void LogpReport::write_metrics(worker::ResultDocument& result, std::size_t internode) const {
  const LogpMeasurements& m = measurements_;
  const LogpSummary& s = summary_;
  const json none = json::object();
  if (!m.placement.empty()) {
    result.add_metric("internode_pairs", static_cast<double>(internode), "count",
                      m.placement.size(), none);
  }
  result.add_metric("eel_min", s.eel_min, "s", s.eel_samples, none);
  result.add_metric("eel_median", s.eel_median, "s", s.eel_samples, none);
  result.add_metric("o_s", s.o_s, "s", s.o_s_samples, none);
  result.add_metric("o_r", s.o_r, "s", s.o_r_samples, none);
  const std::size_t derived = s.eel_samples + s.o_s_samples + s.o_r_samples;
  result.add_metric("latency_l", s.latency_l, "s", derived, none);
  result.add_metric("overlap_potential", s.overlap_potential, "s", derived, none);
  for (const auto& qs : s.queue_depths) {
    const json label = {{"queue_depth", qs.queue_depth}};
    result.add_metric("g", qs.g, "s", qs.g_samples, label);
    result.add_metric("big_g", qs.big_g, "s/B", qs.big_g_samples, label);
    result.add_metric("bandwidth", qs.bandwidth, "B/s", qs.big_g_samples, label);
    result.add_metric("large_message_threshold", qs.threshold, "B", qs.big_g_samples + qs.g_samples,
                      label);
    if (!qs.curve.empty() && qs.curve.back().time > 0) {
      // The flood's own bandwidth at its largest message size (the figure a bandwidth
      // benchmark quotes), beside the fitted asymptote 1/G.
      const auto& last = qs.curve.back();
      result.add_metric(
          "bandwidth_at_max_size", last.size / last.time, "B/s", qs.g_samples,
          {{"queue_depth", qs.queue_depth}, {"size", static_cast<long long>(last.size)}});
    }
    result.add_metric("protocol_switches", static_cast<double>(qs.fit.protocol_switches()), "count",
                      qs.fit_samples, label);
  }
  if (!s.queue_depths.empty()) {
    result.add_metric("g_best", s.g_best, "s", s.g_best_samples,
                      {{"queue_depth", s.best_queue_depth}});
  }
}

void LogpReport::print(std::ostream& out) const {
  const LogpMeasurements& m = measurements_;
  const LogpSummary& s = summary_;
  const LogpParameters& p = m.parameters;
  out << "pbench-logp: LogP/LogGP parameters after Bell et al., " << m.nprocs << " processes, "
      << m.pairs << " pair(s) measuring at once";
  if (!m.idle_ranks.empty()) {
    out << (m.idle_ranks.size() == 1 ? ", rank" : ", ranks");
    for (std::size_t i = 0; i < m.idle_ranks.size(); ++i) {
      out << (i == 0 ? " " : ", ") << m.idle_ranks[i];
    }
    out << " idle";
  }
  out << "\n";
  for (const auto& p : m.placement) {
    out << "pair " << p.pair << ": rank " << p.sender << " on " << p.sender_host
        << " sends to rank " << p.receiver << " on " << p.receiver_host << " (" << p.placement()
        << ")\n";
  }
  if (m.pairs == 0) {
    out << "no pair: nothing measured\n";
  } else {
    out << "measured in " << fixed(m.seconds, 2) << " s; figures are means over pairs\n\n";
    out << "EEL (8 B ping-pong of nonblocking calls on " << m.eel_communicator << ", " << p.eel_runs
        << " runs x " << p.eel_roundtrips << " round trips, RTT/2): min "
        << worker::microseconds(s.eel_min) << ", median " << worker::microseconds(s.eel_median)
        << "\n\n";

    out << "Flood test, time per message [us] (minimum over " << p.repetitions
        << " repetitions) and bandwidth [MB/s, 1 MB = 10^6 B]\n";
    out << pad_left("size [B]", 10);
    for (const auto& qs : s.queue_depths)
      out << pad_left("q=" + std::to_string(qs.queue_depth), 18);
    out << "\n";
    const std::size_t rows = s.queue_depths.empty() ? 0 : s.queue_depths.front().curve.size();
    for (std::size_t i = 0; i < rows; ++i) {
      out << pad_left(std::to_string(static_cast<long long>(s.queue_depths.front().curve[i].size)),
                      10);
      for (const auto& qs : s.queue_depths) {
        const auto& point = qs.curve[i];
        out << pad_left(fixed(point.time * 1e6, 3), 9)
            << pad_left(fixed(point.size / point.time / 1e6, 1), 9);
      }
      out << "\n";
    }

    out << "\nGap per queue depth: g at 8 B; G fitted on the bandwidth-bound sizes (time >= 4 g)\n";
    out << pad_left("q", 4) << pad_left("g [us]", 10) << pad_left("G [ps/B]", 11)
        << pad_left("1/G [MB/s]", 12) << pad_left("M=g/G [B]", 11) << pad_left("switches", 10)
        << "\n";
    for (const auto& qs : s.queue_depths) {
      out << pad_left(std::to_string(qs.queue_depth), 4) << pad_left(fixed(qs.g * 1e6, 3), 10)
          << pad_left(qs.big_g ? fixed(*qs.big_g * 1e12, 2) : "-", 11)
          << pad_left(qs.bandwidth ? fixed(*qs.bandwidth / 1e6, 1) : "-", 12)
          << pad_left(qs.threshold ? fixed(*qs.threshold, 0) : "-", 11)
          << pad_left(std::to_string(qs.fit.protocol_switches()), 10) << "\n";
    }
    out << "g_best = " << worker::microseconds(s.g_best) << " at q = " << s.best_queue_depth
        << "\n";

    out << "\nSegments of the G fit (weighted least squares; outliers removed)\n";
    out << pad_left("q", 4) << pad_left("seg", 4) << pad_left("from [B]", 10)
        << pad_left("to [B]", 10) << pad_left("G [ps/B]", 10) << pad_left("1/G [MB/s]", 12)
        << pad_left("icpt [us]", 11) << pad_left("r2", 8) << pad_left("points", 8)
        << "  outliers [B]\n";
    for (const auto& qs : s.queue_depths) {
      int index = 0;
      for (const auto& seg : qs.fit.segments) {
        out << pad_left(std::to_string(qs.queue_depth), 4) << pad_left(std::to_string(index++), 4)
            << pad_left(fixed(seg.from_size, 0), 10) << pad_left(fixed(seg.to_size, 0), 10)
            << pad_left(fixed(seg.fit.slope * 1e12, 2), 10)
            << pad_left(seg.fit.slope > 0 ? fixed(1e-6 / seg.fit.slope, 1) : "-", 12)
            << pad_left(fixed(seg.fit.intercept * 1e6, 3), 11) << pad_left(fixed(seg.fit.r2, 4), 8)
            << pad_left(std::to_string(seg.points), 8) << "  "
            << (seg.outliers.empty() ? "-" : join_sizes(seg.outliers)) << "\n";
      }
    }

    out << "\nCPU overlap test (8 B, q = 1; busy work between start and completion)\n";
    for (const auto& po : s.overlap) {
      for (const auto& [name, a] : {std::pair{"o_s", po.send}, std::pair{"o_r", po.recv}}) {
        out << "  pair " << po.pair << " " << name << " = " << worker::microseconds(a.overhead)
            << "  (t0 " << worker::microseconds(a.baseline) << ", b_max "
            << worker::microseconds(a.b_max) << ", tolerance " << fixed(a.tolerance * 100, 1) << "%"
            << (a.saturated ? ", every step increased" : "") << ")\n";
      }
    }
    out << "o_s = " << worker::microseconds(s.o_s) << ", o_r = " << worker::microseconds(s.o_r)
        << "\n";
    out << "\nDerived: L = EEL_min - o_s - o_r = " << worker::microseconds(s.latency_l)
        << "; overlap potential max(0, EEL_min - (o_s + o_r)) = "
        << worker::microseconds(s.overlap_potential) << "\n";
  }
  for (const auto& w : s.warnings) out << "warning: " << w << "\n";
  if (s.invalid_reasons.empty()) {
    out << "valid\n";
  } else {
    for (const auto& r : s.invalid_reasons) out << "not valid: " << r << "\n";
  }
  out.flush();
}

}  // namespace pbench::logp
