#include "run/PollBackoff.hpp"

#include <algorithm>

namespace pbench::run {

PollBackoff::PollBackoff(std::chrono::milliseconds min, std::chrono::milliseconds max)
    : min_(min),
      max_(std::max(min, max)),
      current_ms_(static_cast<double>(min.count())),
      random_(std::random_device{}()) {}

std::chrono::milliseconds PollBackoff::next(bool changed) {
  if (changed) {
    current_ms_ = static_cast<double>(min_.count());
  } else {
    current_ms_ = std::min(current_ms_ * 1.5, static_cast<double>(max_.count()));
  }
  std::uniform_real_distribution<double> jitter(0.8, 1.2);
  const double ms = std::clamp(current_ms_ * jitter(random_), static_cast<double>(min_.count()),
                               static_cast<double>(max_.count()));
  return std::chrono::milliseconds(static_cast<long>(ms));
}

}  // namespace pbench::run
