#pragma once
// How long to wait between poll cycles: from `min`, growing by half each quiet cycle up to
// `max`, back to `min` when something changed; with ±20 % jitter so many drivers do not poll
// the scheduler in step.
#include <chrono>
#include <optional>
#include <random>
#include <string>

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

/// The longest wait between two polls while nothing changes: PBENCH_POLL_MAX (seconds, from
/// 0.2 to 3600) when it is set, else `scheduler_default` (15 s for Slurm and PBS, where every
/// poll asks the controller; 1 s for local runs). A centre whose controller is busy raises it; a
/// small cluster or the project's own lab, where jobs last seconds, lowers it. Throws UsageError
/// naming the variable and its value when that is not such a number.
std::chrono::milliseconds poll_ceiling(std::chrono::milliseconds scheduler_default);
/// The same for a given value of the variable (none: unset).
std::chrono::milliseconds poll_ceiling(std::chrono::milliseconds scheduler_default,
                                       const std::optional<std::string>& variable);

}  // namespace pbench::run
