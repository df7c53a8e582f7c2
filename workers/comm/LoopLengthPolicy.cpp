#include "comm/LoopLengthPolicy.hpp"

#include <algorithm>
#include <cmath>

namespace pbench::comm {

LoopLengthPolicy::LoopLengthPolicy(std::int64_t start, double window_min, double window_max)
    : start_(start), window_min_(window_min), window_max_(window_max) {}

std::int64_t LoopLengthPolicy::next(std::int64_t looplength, double seconds, std::int64_t size,
                                    std::int64_t next_size) const {
  if (!(seconds > 0) || !std::isfinite(seconds) || looplength < 1 || size < 1) {
    return std::clamp<std::int64_t>(looplength, 1, kMaxLooplength);
  }
  const double per_iteration = seconds / static_cast<double>(looplength);
  const double growth = std::max(1.0, static_cast<double>(next_size) / static_cast<double>(size));
  const double target = std::sqrt(window_min_ * window_max_);
  const double wanted = target / (per_iteration * std::sqrt(growth));
  if (!(wanted < static_cast<double>(kMaxLooplength))) return kMaxLooplength;
  return std::max<std::int64_t>(1, std::llround(wanted));
}

}  // namespace pbench::comm
