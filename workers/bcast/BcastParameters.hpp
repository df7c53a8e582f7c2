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
/// --method auto picks the synchronized-clock method from this many processes, OL_i below:
/// OL_i costs P - 1 series, sync about 5 (windows of twice a broadcast, k + 1 = 3 OL_i series
/// for the cross-check) and a clock learning; at 16 OL_i costs three times as much and grows
/// with P, below it the paper's exact method for every task is cheap (docs/methods.md).
inline constexpr int kSyncFromProcesses = 16;
/// The clock learning: fit points per pair, each the best of this many ping-pongs.
inline constexpr int kClockFitPoints = 16;
inline constexpr int kClockPingPongs = 8;
/// A window is this many times the longest pilot broadcast (plus twice the clock's bound).
inline constexpr double kWindowFactor = 2;
/// The learnings allowed per message size beyond the first of the run (re-learned when the
/// predicted error exceeds the bound).
inline constexpr int kRelearningsPerSize = 2;

struct BcastParameters {
  SizeList sizes{8, 256, 64 * kKiB, kMiB};
  std::string impl = "mpi";
  int root = 0;
  std::string root_order = "forward";
  double hop_delay_us = 0;
  std::int64_t repetitions = kPaperRepetitions;
  std::int64_t max_measurements = kPaperMaxMeasurements;
  std::string method = "auto";
  std::int64_t check_tasks = 2;
  double agreement_band = 0.10;
  std::int64_t classic_sample = 4;
  double clock_error_bound_us = 5;
  double clock_fit_seconds = 0.1;
  double max_missed_share = 0.10;

  /// Declares every parameter, bound to the members above (their values are the defaults).
  void declare(worker::Parameters& parameters);
  /// Throws worker::UsageError naming the option of the first problem with the values (checks
  /// everything that does not depend on the number of processes).
  void check() const;
  /// Throws worker::UsageError when the values do not fit `nprocs` processes (the root must be
  /// one of them).
  void check_for(int nprocs) const;
  /// The method that runs on `nprocs` processes: "sync" or "oli" (--method auto: sync from
  /// kSyncFromProcesses).
  std::string method_for(int nprocs) const;
  /// The fewest measurements before the 3% rule may stop a series: the paper's 8, or all of
  /// them when --max-measurements is smaller.
  std::int64_t min_measurements() const;
  /// Why results of this run differ from the paper's method, as warnings (empty when they don't).
  std::vector<std::string> deviations() const;
};

}  // namespace pbench::bcast
