#include "sweep/PlannedTime.hpp"

#include <cmath>
#include <cstdlib>

namespace pbench::sweep {

std::optional<double> planned_seconds(const std::string& worker, const nlohmann::json& params) {
  if (worker != "io") return std::nullopt;
  // The consortium suite's run time follows from the machine, not from a scheduled time T.
  if (params.contains("settings") && params["settings"].value("suite", "") == "consortium") {
    return std::nullopt;
  }
  if (params.contains("schedule_time") && params["schedule_time"].is_number()) {
    return params["schedule_time"].get<double>();
  }
  if (params.contains("settings") && params["settings"].contains("schedule_time")) {
    const auto& value = params["settings"]["schedule_time"];
    if (value.is_string()) {
      const std::string text = value.get<std::string>();  // end points into it below
      char* end = nullptr;
      const double t = std::strtod(text.c_str(), &end);
      if (end && *end == '\0' && t > 0) return t;
    }
  }
  return kIoDefaultScheduleTime;
}

int point_time_limit(const SweepSpec& spec, const std::string& worker,
                     const nlohmann::json& params) {
  if (spec.time_limit_seconds > 0) return spec.time_limit_seconds;
  const auto planned = planned_seconds(worker, params);
  if (!planned) return kDefaultTimeLimitSeconds;
  const double seconds = *planned * kTimeLimitFactor + kTimeLimitMarginSeconds;
  return static_cast<int>(std::ceil(seconds / 60.0)) * 60;
}

std::optional<std::string> time_limit_warning(const SweepSpec& spec, const std::string& worker,
                                              const nlohmann::json& params) {
  if (spec.time_limit_seconds <= 0) return std::nullopt;
  const auto planned = planned_seconds(worker, params);
  if (!planned || *planned <= spec.time_limit_seconds) return std::nullopt;
  return "--time-limit " + std::to_string(spec.time_limit_seconds) + " s is shorter than the " +
         std::to_string(static_cast<long>(std::lround(*planned))) + " s " + worker +
         " is planned to run (its scheduled time T); the batch system will likely kill it";
}

}  // namespace pbench::sweep
