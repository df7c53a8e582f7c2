#pragma once
// The links worker's parameters: how long each link's latency and bandwidth are measured in each
// step of the shift schedule (LinkSchedule.hpp). Each is an option, an environment variable
// PBENCH_<NAME> and an entry of the result's parameter echo.
#include <cstdint>
#include <optional>
#include <string>

#include "common/Parameters.hpp"

namespace pbench::links {

inline constexpr std::int64_t kMiB = 1024 * 1024;
/// The largest message: an int count must address it.
inline constexpr std::int64_t kLargestMessage = 1024 * kMiB;

struct LinksParameters {
  std::int64_t latency_roundtrips = 1000;
  std::int64_t message_size = 4 * kMiB;
  std::int64_t messages = 8;
  std::int64_t repetitions = 3;

  /// Declares every parameter, bound to the members above (their values are the defaults).
  void declare(worker::Parameters& parameters);
  /// Throws worker::UsageError naming the option of the first problem with the values.
  void check() const;
};

}  // namespace pbench::links
