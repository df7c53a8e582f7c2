#pragma once
// The b_eff reduction (METHODS.md section 1, "Reduction"; seed 000, section 4):
//   b(pat, L)  = max over methods and repetitions of the measured bandwidth
//   b_pat      = (1/21) sum over L of b(pat, L)      (over the measured sizes)
//   b_ring     = logavg over the six ring patterns of b_pat, b_random likewise,
//   b_eff      = logavg(b_ring, b_random), logavg(x) = exp(mean(ln x));
// the same with L = L_max alone instead of the average over sizes; and the latencies of the
// original b_eff protocol, from the 1-byte measurements:
//   latency (rings and random) = n * 1 B / logavg(b_ring(1 B), b_random(1 B))
//   latency (rings only)       = n * 1 B / b_ring(1 B)
// where b_ring(1 B) = logavg over the rings of b(pat, 1 B): the inverse of the rate of messages
// per process, that is the time of one message step of one process; and the ping-pong latency
// 1 B / b(pingpong, 1 B), half the round trip, and its bandwidth b(pingpong, L_max).
// A figure whose inputs are not all measured is absent. A measurement whose bandwidth cannot be
// (zero or less, not finite) is left out of the reduction, and physical_limits names it, so the
// result that holds it is not valid.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "comm/Measurement.hpp"
#include "comm/Pattern.hpp"
#include "common/PhysicalLimits.hpp"

namespace pbench::comm {

struct Figure {
  std::optional<double> value;
  std::size_t samples = 0;  ///< measurements the value rests on
};

struct BeffInput {
  std::vector<PatternKind> kinds;   ///< per pattern
  int pingpong = -1;                ///< index of the ping-pong pattern, -1 if none
  std::vector<int> positions;       ///< measured size positions, ascending
  std::vector<std::int64_t> sizes;  ///< the 21 sizes by position, B
  int nprocs = 0;
};

struct BeffFigures {
  /// b(pat, L): best[pattern][k] for the k-th measured position.
  std::vector<std::vector<std::optional<double>>> best;
  std::vector<Figure> b_pattern;
  Figure b_ring, b_random, b_eff;
  Figure b_ring_at_lmax, b_random_at_lmax, b_eff_at_lmax;
  Figure latency_rings_random, latency_rings, latency_pingpong, pingpong_bandwidth;

  /// Reduces the measurements of a run.
  static BeffFigures reduce(const BeffInput& input, const std::vector<Measurement>& rows);
  /// The quantities that cannot be <= 0: each measurement's loop time (the maximum over
  /// processes, where timed) and bandwidth, b_pat of each pattern and every figure present.
  worker::PhysicalLimits physical_limits(const std::vector<Measurement>& rows) const;
  /// exp(mean(ln x)); absent when any value is absent or not positive, or there are none.
  static std::optional<double> logavg(const std::vector<std::optional<double>>& values);
};

}  // namespace pbench::comm
