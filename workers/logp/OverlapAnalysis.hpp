#pragma once
// The CPU overlap test's reduction (Bell et al. §4.3), pure: from the time per message of a q = 1
// flood of 8-byte messages without and with busy work inserted between starting and completing
// each send (or receive), the overhead o = t0 - b_max, where b_max is the largest busy time that
// does not increase the time per message.
//
// - t0 is the minimum of the baselines (busy = 0); the tolerance is max(min_tolerance, the
//   spread of the two fastest baselines (second - first) / first): the noise seen between
//   repeated baselines, without the runs a descheduled process stretched by milliseconds.
// - A step "increases the time" when its time per message exceeds t0 * (1 + tolerance).
// - b_max is the largest busy time of a step that does not; the time per message cannot fall as
//   the busy time grows, so an increased step below b_max was noise. Without such a step (the
//   first nonzero step already increased it) b_max = 0 and the overhead is t0 (= g at q = 1).
// - The overhead is t0 - b_max, never below 0.
#include <cstddef>
#include <span>

namespace pbench::logp {

struct OverlapPoint {
  double busy = 0;  ///< busy time inserted per message [s]
  double time = 0;  ///< time per message [s]
};

struct OverlapAnalysis {
  double baseline = 0;    ///< t0, time per message without busy work [s]
  double tolerance = 0;   ///< relative increase still counted as "not increased"
  double b_max = 0;       ///< largest busy time that did not increase the time [s]
  double overhead = 0;    ///< t0 - b_max [s]
  bool saturated = false; ///< every step increased the time: the overhead equals t0
  std::size_t points = 0; ///< baselines plus steps the analysis used
};

inline constexpr double kOverlapMinTolerance = 0.05;

/// Whether a step's time per message counts as increased over the baseline.
bool increased(double time, double baseline, double tolerance);

/// The tolerance a set of baselines allows: max(min_tolerance, spread of the two fastest).
double overlap_tolerance(std::span<const double> baselines,
                         double min_tolerance = kOverlapMinTolerance);

/// The overhead from baselines (>= 1) and busy steps (busy > 0, any order).
OverlapAnalysis analyse_overlap(std::span<const double> baselines,
                                std::span<const OverlapPoint> steps,
                                double min_tolerance = kOverlapMinTolerance);

/// True once the last `run` steps (in measurement order) all increased the time: the curve has
/// clearly turned upward and further steps add nothing (one or two increased steps in a row can
/// be a descheduled process).
bool clearly_increased(std::span<const OverlapPoint> steps, double baseline, double tolerance,
                       std::size_t run = 3);

}  // namespace pbench::logp
