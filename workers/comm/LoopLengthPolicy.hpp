#pragma once
// The time-driven loop length of b_eff (METHODS.md section 1, "Loop length"): 300 iterations for
// the shortest message, then for each next message size of the same pattern and method a loop
// length chosen so that the measurement lands in the target window (2.5 to 5 ms), at least 1.
#include <cstdint>

namespace pbench::comm {

class LoopLengthPolicy {
 public:
  /// A policy starting at `start` iterations and aiming at [window_min, window_max] seconds.
  LoopLengthPolicy(std::int64_t start, double window_min, double window_max);

  /// The loop length of the first (shortest) message size of a repetition.
  std::int64_t start() const { return start_; }

  /// The loop length for `next_size` after `looplength` iterations of `size` took `seconds`
  /// (maximum over processes). The time of one iteration at the next size lies between the
  /// time at this size (latency-bound) and that time scaled by next_size/size (bandwidth-bound);
  /// the loop length puts the geometric middle of that range on the geometric middle of the
  /// window, so with sizes doubling and a 2:1 window both ends land inside it.
  std::int64_t next(std::int64_t looplength, double seconds, std::int64_t size,
                    std::int64_t next_size) const;

  double window_min() const { return window_min_; }
  double window_max() const { return window_max_; }

  /// A ceiling that keeps a timer glitch from asking for an absurd loop.
  static constexpr std::int64_t kMaxLooplength = 10'000'000;

 private:
  std::int64_t start_;
  double window_min_;
  double window_max_;
};

}  // namespace pbench::comm
