#include "sweep/PlannedTime.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace pbench::sweep {

namespace {

/// A positive number given as a setting's text ("30", "2.5"); nothing otherwise.
std::optional<double> positive_setting(const nlohmann::json& params, const char* name) {
  if (!params.contains("settings") || !params["settings"].contains(name)) return std::nullopt;
  const auto& value = params["settings"][name];
  if (!value.is_string()) return std::nullopt;
  const std::string text = value.get<std::string>();  // end points into it below
  char* end = nullptr;
  const double number = std::strtod(text.c_str(), &end);
  if (end && end != text.c_str() && *end == '\0' && number > 0) return number;
  return std::nullopt;
}

}  // namespace

double guarded_io_seconds(double schedule_time, double guard_factor) {
  return std::max(guard_factor, kIoElapsedAllowance) * schedule_time;
}

int derived_time_limit(double planned_seconds, bool bound) {
  double seconds = planned_seconds * (bound ? 1.0 : kEstimateMargin) + kTimeLimitMarginSeconds;
  // Never past what an int holds nor below the margin: a plan past kMostPlannedSeconds is
  // refused before it gets here, this keeps a limit a limit whatever it is given.
  if (!(seconds >= kTimeLimitMarginSeconds)) seconds = kTimeLimitMarginSeconds;
  seconds = std::min(seconds, kMostPlannedSeconds * kEstimateMargin + kTimeLimitMarginSeconds);
  return static_cast<int>(std::ceil(seconds / kTimeLimitGranularitySeconds)) *
         kTimeLimitGranularitySeconds;
}

std::optional<double> bound_seconds(const std::string& worker, const nlohmann::json& params) {
  if (worker != "io") return std::nullopt;
  // The consortium suite's run time follows from the machine, not from a scheduled time T.
  if (params.contains("settings") && params["settings"].value("suite", "") == "consortium") {
    return std::nullopt;
  }
  double schedule_time = kIoDefaultScheduleTime;
  if (params.contains("schedule_time") && params["schedule_time"].is_number()) {
    schedule_time = params["schedule_time"].get<double>();
  } else if (auto t = positive_setting(params, "schedule_time")) {
    schedule_time = *t;
  }
  const double factor = positive_setting(params, "guard_factor").value_or(kIoDefaultGuardFactor);
  return guarded_io_seconds(schedule_time, factor);
}

std::optional<std::string> time_limit_warning(const SweepSpec& spec, const std::string& worker,
                                              const nlohmann::json& params) {
  if (spec.time_limit_seconds <= 0) return std::nullopt;
  const auto planned = bound_seconds(worker, params);
  if (!planned || *planned <= spec.time_limit_seconds) return std::nullopt;
  return "--time-limit " + std::to_string(spec.time_limit_seconds) + " s is shorter than the " +
         std::to_string(static_cast<long>(std::lround(*planned))) + " s " + worker +
         " may run (its scheduled time T times the time guard's factor); the batch system may "
         "kill it";
}

}  // namespace pbench::sweep
