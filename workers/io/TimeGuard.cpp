#include "io/TimeGuard.hpp"

#include <algorithm>
#include <cmath>

namespace pbench::io {

TimeGuard::TimeGuard(double factor, double share, std::int64_t planned)
    : limit_(factor * share), planned_(planned) {}

std::int64_t TimeGuard::next_check(std::int64_t done, double elapsed) const {
  if (elapsed >= limit_) return 0;
  if (done < 1) return std::min<std::int64_t>(1, planned_);
  const double per_call = elapsed / static_cast<double>(done);
  // Calls predicted to fit in the limit; where they do not reach beyond `done`, check after the
  // next call, so the row ends at most one call past its limit.
  double fitting = 2.0 * static_cast<double>(done);
  if (per_call > 0) fitting = std::min(fitting, std::floor(limit_ / per_call));
  const std::int64_t next = std::max(done + 1, static_cast<std::int64_t>(fitting));
  return std::min(next, planned_);
}

double elapsed_limit(double schedule_time) {
  return schedule_time >= 60 ? 1.10 * schedule_time : 1.15 * schedule_time + 3.0;
}

}  // namespace pbench::io
