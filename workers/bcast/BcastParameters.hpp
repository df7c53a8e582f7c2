#pragma once
// The bcast worker's parameters (METHODS.md §5): the defaults reproduce de Supinski & Karonis
// (M = 100, the 3% rule, 256 B and 64 KiB among the sizes); each is an option, an environment
// variable and an entry of the result's parameter echo.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "bcast/SizeList.hpp"
#include "common/Parameters.hpp"

namespace pbench::bcast {

inline constexpr std::int64_t kKiB = 1024;
inline constexpr std::int64_t kMiB = 1024 * kKiB;
/// The largest message: an int count must address it, and every rank holds one buffer of it.
inline constexpr std::int64_t kLargestSize = 1024 * kMiB;
/// The paper's M.
inline constexpr std::int64_t kPaperRepetitions = 100;
/// The paper: each point is the mean of between 8 and 30 measurements.
inline constexpr std::int64_t kPaperMinMeasurements = 8;
inline constexpr std::int64_t kPaperMaxMeasurements = 30;
/// The paper's stop rule: standard deviation below 3% of the mean.
inline constexpr double kStableRelativeStddev = 0.03;
/// The largest synthetic hop delay accepted [us] (10 s: anything longer is a typo).
inline constexpr double kLargestHopDelayUs = 10e6;

struct BcastParameters {
  SizeList sizes{8, 256, 64 * kKiB, kMiB};
  std::string impl = "mpi";
  int root = 0;
  std::string root_order = "forward";
  double hop_delay_us = 0;
  std::int64_t repetitions = kPaperRepetitions;
  std::int64_t max_measurements = kPaperMaxMeasurements;

  /// Declares every parameter, bound to the members above (their values are the defaults).
  void declare(worker::Parameters& parameters);
  /// Throws worker::UsageError naming the option of the first problem with the values (checks
  /// everything that does not depend on the number of processes).
  void check() const;
  /// Throws worker::UsageError when the values do not fit `nprocs` processes (the root must be
  /// one of them).
  void check_for(int nprocs) const;
  /// The fewest measurements before the 3% rule may stop a series: the paper's 8, or all of
  /// them when --max-measurements is smaller.
  std::int64_t min_measurements() const;
  /// Why results of this run differ from the paper's method, as warnings (empty when they don't).
  std::vector<std::string> deviations() const;
};

}  // namespace pbench::bcast
