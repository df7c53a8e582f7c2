#include "drive/PollBackoff.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>

#include "util/Error.hpp"

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

std::chrono::milliseconds poll_ceiling(std::chrono::milliseconds scheduler_default,
                                       const std::optional<std::string>& variable) {
  if (!variable || variable->empty()) return scheduler_default;
  const std::string& text = *variable;
  char* end = nullptr;
  const double seconds = std::strtod(text.c_str(), &end);
  const bool starts_as_number = std::isdigit(static_cast<unsigned char>(text[0])) || text[0] == '.';
  if (!starts_as_number || end == text.c_str() || *end != '\0' || !std::isfinite(seconds) ||
      seconds < 0.2 || seconds > 3600) {
    throw UsageError("PBENCH_POLL_MAX '" + text +
                     "' is not a number of seconds from 0.2 to 3600 (the longest wait between "
                     "two polls of the scheduler)");
  }
  return std::chrono::milliseconds(std::lround(seconds * 1000));
}

std::chrono::milliseconds poll_ceiling(std::chrono::milliseconds scheduler_default) {
  const char* value = std::getenv("PBENCH_POLL_MAX");
  return poll_ceiling(scheduler_default, value ? std::optional<std::string>(value) : std::nullopt);
}

}  // namespace pbench::run
