#include "logp/LogpSummary.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <numeric>

#include "common/Stats.hpp"
#include "common/TextFormat.hpp"

namespace pbench::logp {

using worker::fixed;
using worker::pad_left;
using worker::pad_right;

namespace {

double mean_of(const std::vector<double>& values) {
  if (values.empty()) return 0;
  return std::accumulate(values.begin(), values.end(), 0.0) / static_cast<double>(values.size());
}

OverlapAnalysis analyse_side(const std::vector<OverlapRow>& rows, int pair, OverlapSide side) {
  std::vector<double> baselines;
  std::map<int, OverlapPoint> steps;  // step -> busy and minimum time over repetitions
  for (const auto& row : rows) {
    if (row.pair != pair || row.side != side) continue;
    if (row.step == 0) {
      baselines.push_back(row.per_message());
      continue;
    }
    auto [it, fresh] = steps.try_emplace(row.step, OverlapPoint{row.busy, row.per_message()});
    if (!fresh) it->second.time = std::min(it->second.time, row.per_message());
  }
  std::vector<OverlapPoint> points;
  for (const auto& [step, point] : steps) points.push_back(point);
  OverlapAnalysis a = analyse_overlap(baselines, points);
  // Every measurement behind the figure, repetitions included.
  a.points = 0;
  for (const auto& row : rows) a.points += (row.pair == pair && row.side == side) ? 1 : 0;
  return a;
}

}  // namespace

namespace {

/// A pair side whose baselines spread beyond the least tolerance.
struct NoisySide {
  int pair;
  const char* side;
  double tolerance;
};

/// EEL per pair (minimum and median over its runs), then the mean over pairs.
void summarise_eel(LogpSummary& s, const LogpMeasurements& m) {
  std::vector<double> mins;
  std::vector<double> medians;
  for (int pair = 0; pair < m.pairs; ++pair) {
    std::vector<double> eels;
    for (const auto& row : m.eel) {
      if (row.pair == pair) eels.push_back(row.eel());
    }
    if (eels.empty()) continue;
    mins.push_back(*std::min_element(eels.begin(), eels.end()));
    medians.push_back(worker::median(eels));
    s.eel_samples += eels.size();
  }
  s.eel_min = mean_of(mins);
  s.eel_median = mean_of(medians);
}

/// The flood curve, g and the fit of G per queue depth, and the best queue depth.
void summarise_floods(LogpSummary& s, const LogpMeasurements& m) {
  const LogpParameters& p = m.parameters;
  for (int q : p.queue_depths) {
    QueueDepthSummary qs;
    qs.queue_depth = q;
    // (pair, size) -> minimum over repetitions
    std::map<std::size_t, std::map<int, double>> best;
    std::size_t repetitions_seen = 0;
    for (const auto& row : m.flood) {
      if (row.queue_depth != q) continue;
      auto& slot = best[row.size];
      auto [it, fresh] = slot.try_emplace(row.pair, row.per_message());
      if (!fresh) it->second = std::min(it->second, row.per_message());
      repetitions_seen = std::max(repetitions_seen, static_cast<std::size_t>(row.repetition + 1));
    }
    if (best.empty()) continue;
    for (const auto& [size, by_pair] : best) {
      std::vector<double> values;
      for (const auto& [pair, value] : by_pair) values.push_back(value);
      qs.curve.push_back({static_cast<double>(size), mean_of(values)});
    }
    const std::size_t per_point = static_cast<std::size_t>(m.pairs) * repetitions_seen;
    qs.g = qs.curve.front().time;
    qs.g_samples = per_point;
    qs.fit = fit_gap(qs.curve, qs.g);
    qs.fit_samples = qs.fit.fitted_sizes.size() * per_point;
    if (!qs.fit.segments.empty()) {
      qs.big_g_samples = qs.fit.segments.back().points * per_point;
    }
    if (qs.fit.fallback) {
      s.warnings.push_back("q = " + std::to_string(q) + ": fewer than 3 sizes reach " +
                           "4 g, so G is fitted on the largest sizes; raise --max-size");
    }
    if (auto big_g = qs.fit.big_g(); big_g && *big_g > 0) {
      qs.big_g = *big_g;
      qs.bandwidth = 1.0 / *big_g;
      qs.threshold = qs.g / *big_g;
    }  // else: G <= 0 is no per-byte gap; physical_limits says so (the slope stays in gap_fit)
    s.queue_depths.push_back(std::move(qs));
  }
  for (const auto& qs : s.queue_depths) {
    if (s.best_queue_depth == 0 || qs.g < s.g_best) {
      s.g_best = qs.g;
      s.best_queue_depth = qs.queue_depth;
      s.g_best_samples = qs.g_samples;
    }
  }
}

/// The warning on sides whose baselines spread: named one by one where few, else summarised
/// (how many, the worst three), so that it stays one line at any P.
void warn_noisy(LogpSummary& s, std::vector<NoisySide> noisy) {
  constexpr std::size_t kNamedSides = 3;
  if (noisy.size() <= kNamedSides) {
    for (const NoisySide& n : noisy) {
      char text[200];
      std::snprintf(text, sizeof(text),
                    "pair %d %s: baselines spread %.1f%%, so only increases beyond that "
                    "count (noisy machine?)",
                    n.pair, n.side, n.tolerance * 100);
      s.warnings.push_back(text);
    }
  } else {
    std::stable_sort(noisy.begin(), noisy.end(), [](const NoisySide& a, const NoisySide& b) {
      return a.tolerance > b.tolerance;
    });
    std::string worst;
    for (std::size_t i = 0; i < kNamedSides; ++i) {
      char text[80];
      std::snprintf(text, sizeof(text), "%spair %d %s %.1f%%", i ? ", " : "", noisy[i].pair,
                    noisy[i].side, noisy[i].tolerance * 100);
      worst += text;
    }
    char text[120];
    std::snprintf(text, sizeof(text), "baselines spread beyond %.0f%% in %zu of %zu pair sides",
                  kOverlapMinTolerance * 100, noisy.size(), 2 * s.overlap.size());
    s.warnings.push_back(std::string(text) + " (worst " + worst +
                         "), so on each only increases beyond its spread count (noisy "
                         "machine?); every side's spread is in the overlap_analysis table");
  }
}

/// The overheads o_s and o_r per pair from the overlap test, then the mean over pairs.
void summarise_overheads(LogpSummary& s, const LogpMeasurements& m) {
  std::vector<double> sends;
  std::vector<double> recvs;
  // Sides whose baselines spread beyond the least tolerance: named one by one where few, else
  // summarised (how many, the worst three), so the warning stays one line at any P; each side's
  // tolerance is in the overlap_analysis table.
  std::vector<NoisySide> noisy;
  for (int pair = 0; pair < m.pairs; ++pair) {
    PairOverlap po{pair, analyse_side(m.overlap, pair, OverlapSide::send),
                   analyse_side(m.overlap, pair, OverlapSide::recv)};
    if (po.send.points == 0 && po.recv.points == 0) continue;
    sends.push_back(po.send.overhead);
    recvs.push_back(po.recv.overhead);
    s.o_s_samples += po.send.points;
    s.o_r_samples += po.recv.points;
    for (const auto* a : {&po.send, &po.recv}) {
      const char* name = a == &po.send ? "o_s" : "o_r";
      if (a->tolerance > kOverlapMinTolerance) noisy.push_back({pair, name, a->tolerance});
    }
    s.overlap.push_back(po);
  }
  warn_noisy(s, std::move(noisy));
  s.o_s = mean_of(sends);
  s.o_r = mean_of(recvs);
}

/// L and the overlap potential, and the warnings on what the LogP assumptions do not hold for.
void judge_derived(LogpSummary& s) {
  s.latency_l = s.eel_min - s.o_s - s.o_r;
  s.overlap_potential = std::max(0.0, s.eel_min - (s.o_s + s.o_r));
  if (s.latency_l < 0) {
    s.warnings.push_back("L = EEL - o_s - o_r = " + worker::microseconds(s.latency_l) +
                         " < 0: the LogP assumption that send overhead, transport latency and "
                         "receive overhead happen one after the other does not hold here "
                         "(Bell et al. section 3)");
  }
  if (!s.queue_depths.empty()) {
    for (const auto& [name, value] : {std::pair{"o_s", s.o_s}, std::pair{"o_r", s.o_r}}) {
      if (value > s.g_best) {
        s.warnings.push_back(std::string(name) + " = " + worker::microseconds(value) +
                             " exceeds g_best = " + worker::microseconds(s.g_best) +
                             " (q = " + std::to_string(s.best_queue_depth) +
                             "): the overheads are measured at q = 1, g at the best queue " +
                             "depth (Bell et al. section 5.4)");
      }
    }
  }
}

}  // namespace

LogpSummary summarise(const LogpMeasurements& m) {
  LogpSummary s;
  s.pairs = m.pairs;
  const LogpParameters& p = m.parameters;
  for (const auto& reason : p.method_deviations()) s.invalid_reasons.push_back(reason);
  if (m.pairs == 0) {
    s.invalid_reasons.insert(s.invalid_reasons.begin(), "no pair: " + std::to_string(m.nprocs) +
                                                            " process (logp needs at least 2)");
    return s;
  }
  for (const auto& note : m.placement_notes) s.warnings.push_back(note);
  if (m.data_errors > 0) {
    s.invalid_reasons.push_back(std::to_string(m.data_errors) +
                                " messages arrived with wrong first or last bytes");
  }
  if (p.eel_roundtrips < kPaperRoundtrips || p.flood_messages < kPaperRoundtrips) {
    s.warnings.push_back("fewer messages per test than the paper's 10,000 (eel_roundtrips " +
                         std::to_string(p.eel_roundtrips) + ", flood_messages " +
                         std::to_string(p.flood_messages) +
                         "): timer and start-up costs weigh more");
  }

  summarise_eel(s, m);
  summarise_floods(s, m);
  summarise_overheads(s, m);
  judge_derived(s);
  // The figures that cannot be, first among the reasons.
  const auto impossible = physical_limits(s, m).reasons();
  s.invalid_reasons.insert(s.invalid_reasons.begin(), impossible.begin(), impossible.end());
  return s;
}

worker::PhysicalLimits physical_limits(const LogpSummary& s, const LogpMeasurements& m) {
  worker::PhysicalLimits limits;
  if (s.pairs == 0) return limits;
  if (s.eel_samples > 0) {
    limits.positive("EEL (minimum)", s.eel_min, "s").positive("EEL (median)", s.eel_median, "s");
  }
  for (const auto& qs : s.queue_depths) {
    const std::string q = "(q = " + std::to_string(qs.queue_depth) + ")";
    std::vector<worker::LabelledValue> curve;
    for (const auto& point : qs.curve) {
      curve.push_back({std::to_string(static_cast<long long>(point.size)) + " B", point.time});
    }
    limits.positive_each("time per message " + q, curve, "s");
    if (auto big_g = qs.fit.big_g()) {
      limits.positive("G " + q, *big_g, "s/B",
                      "the flood curve's fitted per-byte slope: the curve was not bandwidth-bound "
                      "(or too noisy) over the fitted sizes, so G, 1/G and M are not reported; "
                      "raise --max-size or --flood-messages");
    }
  }
  if (s.o_s_samples > 0) limits.non_negative("o_s", s.o_s, "s");
  if (s.o_r_samples > 0) limits.non_negative("o_r", s.o_r, "s");
  // Each message of a step of the overlap test waits for the busy work inserted into it: per
  // pair and side, the step whose time per message comes closest to its busy time. Slack: a
  // quarter of the busy time (the loop may run faster than when it was timed: CPU frequency), and
  // one busy period (the receiver may start its first before the sender starts the timing).
  std::map<std::pair<int, OverlapSide>, const OverlapRow*> closest;
  for (const auto& row : m.overlap) {
    if (row.step == 0 || row.messages == 0) continue;
    auto [it, fresh] = closest.try_emplace({row.pair, row.side}, &row);
    if (!fresh && row.per_message() - row.busy < it->second->per_message() - it->second->busy) {
      it->second = &row;
    }
  }
  for (const auto& [key, row] : closest) {
    limits.at_least_sum_of_parts(
        "pair " + std::to_string(key.first) + " " +
            (key.second == OverlapSide::send ? "o_s" : "o_r") + " step " +
            std::to_string(row->step) + ": time per message",
        row->per_message(), "s", {{"busy time", row->busy}},
        row->busy * (0.25 + 1.0 / static_cast<double>(row->messages)),
        "each message waits for the busy work inserted into it: the busy loop's calibration or "
        "the clock is off");
  }
  return limits;
}

}  // namespace pbench::logp
