#pragma once
// T as a bound (issues 14 and 41). b_eff_io's segmented types (3 and 4) are size-driven: their
// counts come from the write counts of types 0-2, and a collective write of small chunks can be
// a hundred times slower than the independent one it was sized from, so one row can take many
// times its share of T; rewrite and read replay the counts written and slow down as the page
// cache writes back. The guard stops any row with a planned count at a repetition boundary once
// it has used `factor` times its share (what the run's plan gives it, at most twice T_pattern:
// TimePlan.hpp); the run is then not valid and says why. The
// checks follow the batched termination rule's shape (after 1, 2, 4, ... calls, each step
// capped by the prediction of where the limit falls), so a row that keeps to its share pays a
// few collective checks and nothing else. These are rank 0's decisions; IoRun makes them
// collective as it does the termination rule's.
//
// Independently of the guard, the whole run's elapsed time is held against T: above
// 1.10 T (T >= 60 s) or 1.15 T + 3 s (shorter T, where start-up and file handling weigh more)
// the result is not valid.
#include <cstdint>

namespace pbench::io {

/// The default k: a row may use 3 times its share before it is cut.
inline constexpr double kDefaultGuardFactor = 3.0;

class TimeGuard {
 public:
  /// The guard of a row with scheduled share `share` [s] and `planned` calls per process;
  /// it cuts at `factor` * `share`.
  TimeGuard(double factor, double share, std::int64_t planned);

  /// factor * share [s].
  double limit() const { return limit_; }
  std::int64_t planned() const { return planned_; }

  /// After `done` calls (1 <= done < planned) taking `elapsed` seconds: 0 when the row has used
  /// its limit (stop now, `done` calls written), otherwise the call count at which to check
  /// next: min(2 * done, the calls predicted to fit in the limit), at least done + 1, at most
  /// planned.
  std::int64_t next_check(std::int64_t done, double elapsed) const;

 private:
  double limit_;
  std::int64_t planned_;
};

/// The longest a run with scheduled time `schedule_time` T may take and stay valid:
/// 1.10 T for T >= 60 s, else 1.15 T + 3 s.
double elapsed_limit(double schedule_time);

}  // namespace pbench::io
