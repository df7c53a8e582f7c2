#pragma once
// The reduction of a logp run to the LogP/LogGP figures (pure): per pair first, then the mean
// over pairs.
// - EEL: per pair the minimum (the paper's choice) and the median over runs of RTT/2.
// - Flood: per pair and point the minimum time per message over repetitions; the curve of a
//   queue depth is the mean over pairs. g(q) = the curve at the smallest size (8 B);
//   g_best = min over q, with the q that gave it.
// - G(q) from GapFit on the curve; bandwidth = 1/G; M = g/G (the large-message threshold).
// - o_s, o_r from OverlapAnalysis per pair (baselines = the step-0 rows).
// - L = EEL_min - o_s - o_r, reported even when negative (then a warning);
//   overlap potential = max(0, EEL_min - (o_s + o_r)): the time left for computation.
// - Not valid, listed first: a figure that cannot be (physical_limits). L < 0 is not one of them:
//   it is a derived model figure, reported with a warning (METHODS.md section 4).
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "common/PhysicalLimits.hpp"
#include "logp/GapFit.hpp"
#include "logp/LogpMeasurements.hpp"
#include "logp/OverlapAnalysis.hpp"

namespace pbench::logp {

struct PairOverlap {
  int pair = 0;
  OverlapAnalysis send;
  OverlapAnalysis recv;
};

struct QueueDepthSummary {
  int queue_depth = 1;
  std::vector<SizeTime> curve;  ///< mean over pairs of the minimum over repetitions
  double g = 0;                 ///< [s]
  std::size_t g_samples = 0;
  GapFit fit;
  std::optional<double> big_g;      ///< [s/B]
  std::optional<double> bandwidth;  ///< [B/s]
  std::optional<double> threshold;  ///< M = g / G [B]
  std::size_t fit_samples = 0;      ///< measurements behind the fitted points
  std::size_t big_g_samples = 0;    ///< measurements behind the last segment
};

struct LogpSummary {
  int pairs = 0;
  double eel_min = 0;
  double eel_median = 0;
  std::size_t eel_samples = 0;
  std::vector<PairOverlap> overlap;
  double o_s = 0;
  double o_r = 0;
  std::size_t o_s_samples = 0;
  std::size_t o_r_samples = 0;
  double latency_l = 0;
  double overlap_potential = 0;
  std::vector<QueueDepthSummary> queue_depths;  ///< in parameter order
  double g_best = 0;
  int best_queue_depth = 0;
  std::size_t g_best_samples = 0;
  std::vector<std::string> warnings;
  std::vector<std::string> invalid_reasons;
};

/// Reduces the measurements (nothing is computed without a pair).
LogpSummary summarise(const LogpMeasurements& measurements);

/// The quantities of a summary that cannot be <= 0 (EEL, the flood curves' times per message, a
/// fitted G) or < 0 (o_s, o_r), and, per pair and side of the overlap test, a time per message
/// that cannot fall short of the busy time inserted into each message.
worker::PhysicalLimits physical_limits(const LogpSummary& summary,
                                       const LogpMeasurements& measurements);

}  // namespace pbench::logp
