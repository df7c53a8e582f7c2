#pragma once
// The synthetic per-hop delay of the worker's own broadcast implementations: a wait of d
// seconds before each send, so a broadcast of known shape has a known latency (for linear on P
// ranks the last rank finishes after (P-1)·d plus message costs; binomial after ceil(log2 P)·d).
#include <cstdint>

namespace pbench::bcast {

class HopDelay {
 public:
  /// A delay of `seconds` (0: no delay at all, not even a clock read).
  explicit HopDelay(double seconds = 0);

  /// Waits until `seconds` after the call (wall clock, MPI_Wtime).
  void wait() const;

  double seconds() const { return seconds_; }
  /// How many waits have run (for tests and the protocol).
  std::uint64_t waits() const { return waits_; }

 private:
  double seconds_;
  mutable std::uint64_t waits_ = 0;
};

}  // namespace pbench::bcast
