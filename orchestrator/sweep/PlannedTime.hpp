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
/// The derived limit: planned time x kTimeLimitFactor + kTimeLimitMarginSeconds, rounded up to
/// whole minutes (batch systems count minutes).
inline constexpr double kTimeLimitFactor = 1.5;
inline constexpr int kTimeLimitMarginSeconds = 300;

/// The run time a point is planned to take where its worker fixes it: io runs for its scheduled
/// time T per partition, and a point runs one partition, so T (the point's schedule_time, an
/// io.schedule_time setting, or pbench-io's default). Empty for workers whose run time follows
/// from the machine (logp, comm, bcast, and io's consortium suite).
std::optional<double> planned_seconds(const std::string& worker, const nlohmann::json& params);

/// A point's batch time limit: the sweep's --time-limit when given; otherwise derived from the
/// planned time (see kTimeLimitFactor), or kDefaultTimeLimitSeconds when none is knowable.
int point_time_limit(const SweepSpec& spec, const std::string& worker,
                     const nlohmann::json& params);

/// A warning when the sweep's given --time-limit is shorter than the point's planned time;
/// empty otherwise.
std::optional<std::string> time_limit_warning(const SweepSpec& spec, const std::string& worker,
                                              const nlohmann::json& params);

}  // namespace pbench::sweep
