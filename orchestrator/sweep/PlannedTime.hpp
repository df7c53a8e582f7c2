#pragma once
// How long a point is planned to run, where its worker says, and the batch time limit derived
// from it when the sweep gives none.
#include <nlohmann/json.hpp>

#include <optional>
#include <string>

#include "sweep/SweepSpec.hpp"

namespace pbench::sweep {

/// pbench-io's scheduled time T when a point sets none (its kOfficialScheduleTime, rev 2.1's
/// default -T). T is for all partitions of a run; a point runs one partition, so it is its T.
inline constexpr double kIoDefaultScheduleTime = 1800.0;
/// pbench-io's time guard factor k when a point sets none (its kDefaultGuardFactor).
inline constexpr double kIoDefaultGuardFactor = 3.0;
/// The most a run that keeps to its T may take and stay valid, as a multiple of T (pbench-io's
/// elapsed bound, 1.10 T; 1.15 T + 3 s below 60 s, which the margin covers).
inline constexpr double kIoElapsedAllowance = 1.15;
/// io's expected run time as a share of its scheduled time T where this machine has no run of io
/// to learn it from: since issue 52 the guarded worker spends its T, 1.00-1.04 T idle at T = 10,
/// 20 and 60 s (bench/README.md, "io spends its T"; it was 0.66-0.80 before). Its history's
/// elapsed/T replaces it.
inline constexpr double kIoExpectedShare = 1.0;
/// The derived limit: planned time + kTimeLimitMarginSeconds (start-up, the untimed checks,
/// removing the files, the batch system's own), rounded up to whole minutes (batch systems
/// count minutes).
inline constexpr int kTimeLimitMarginSeconds = 300;

/// io's run time at most: its scheduled time T times the time guard's factor k, at least
/// kIoElapsedAllowance T (the one rule for planned_seconds and the cost of an io point).
double guarded_io_seconds(double schedule_time, double guard_factor);

/// The run time a point takes at most where its worker keeps to one (its bound, from which its
/// time limit derives; its planned time is the expected one, MethodCost). io: its scheduled
/// time T (the point's schedule_time, an io.schedule_time setting, or pbench-io's default; a
/// point runs one partition, so T) times the time guard's factor k (an io.guard_factor setting,
/// or pbench-io's default 3), at least 1.15 T: the guard cuts a pattern row that has used k
/// times its share of T, so the whole run stays within about k T. Empty for workers whose run
/// time follows from the machine (logp, comm, bcast, and io's consortium suite).
std::optional<double> bound_seconds(const std::string& worker, const nlohmann::json& params);

/// An estimate (not a bound) is given this much room in its derived limit: runs of one point
/// vary, and a plan from the stated defaults may be off by more on another machine.
inline constexpr double kEstimateMargin = 1.5;
/// The granularity of a batch system's time limit: Slurm's --time and PBS's walltime are
/// written in whole minutes here (Slurm rounds seconds up to the minute itself).
inline constexpr int kTimeLimitGranularitySeconds = 60;

/// The batch time limit derived from a planned time: a bound (io's T x k) + the margin, an
/// estimate x kEstimateMargin + the margin, rounded up to kTimeLimitGranularitySeconds.
int derived_time_limit(double planned_seconds, bool bound);

/// The most a plan may hold for one point: a year. A plan past it (a --set value that makes a
/// worker loop for ages) is refused, naming the point, before its arithmetic could overflow.
inline constexpr double kMostPlannedSeconds = 366.0 * 24 * 3600;

/// A warning when the sweep's given --time-limit is shorter than the point's bound;
/// empty otherwise.
std::optional<std::string> time_limit_warning(const SweepSpec& spec, const std::string& worker,
                                              const nlohmann::json& params);

}  // namespace pbench::sweep
