#pragma once
// How long to wait between poll cycles: from `min`, growing by half each quiet cycle up to
// `max`, back to `min` when something changed; with ±20 % jitter so many drivers do not poll
// the scheduler in step.
#include <chrono>
#include <random>

namespace pbench::run {

class PollBackoff {
 public:
  PollBackoff(std::chrono::milliseconds min, std::chrono::milliseconds max);
  /// The wait before the next cycle; `changed` says whether the last cycle changed anything.
  std::chrono::milliseconds next(bool changed);

 private:
  std::chrono::milliseconds min_;
  std::chrono::milliseconds max_;
  double current_ms_;
  std::minstd_rand random_;
};

}  // namespace pbench::run
