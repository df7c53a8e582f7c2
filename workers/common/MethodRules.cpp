#include "common/MethodRules.hpp"

#include <cstdio>

#include "common/Units.hpp"

namespace pbench::worker {

std::vector<std::string> MethodRules::logp(std::int64_t eel_runs, std::int64_t max_size,
                                           std::int64_t min_size) {
  std::vector<std::string> reasons;
  if (eel_runs < kLogpRuns) {
    reasons.push_back("eel_runs " + std::to_string(eel_runs) + " < " + std::to_string(kLogpRuns) +
                      ": the method takes the minimum over at least 10 runs");
  }
  if (max_size < kLogpMaxSize) {
    reasons.push_back("max_size " + std::to_string(max_size) + " B < " +
                      std::to_string(kLogpMaxSize) + " B: the flood test goes to at least 128 KiB");
  }
  if (min_size != kLogpMinSize) {
    reasons.push_back("min_size " + std::to_string(min_size) +
                      " B: g is defined at 8-byte messages");
  }
  return reasons;
}

std::vector<std::string> MethodRules::comm(std::int64_t random_patterns, std::int64_t repetitions,
                                           double window_min, double window_max,
                                           std::int64_t start_looplength) {
  std::vector<std::string> out;
  if (random_patterns != kCommRandomPatterns) {
    out.push_back("random_patterns = " + std::to_string(random_patterns) + " (reference " +
                  std::to_string(kCommRandomPatterns) + ")");
  }
  if (repetitions != kCommRepetitions) {
    out.push_back("repetitions = " + std::to_string(repetitions) + " (reference " +
                  std::to_string(kCommRepetitions) + ")");
  }
  if (window_min != kCommWindowMin || window_max != kCommWindowMax) {
    out.push_back("target_window = " + units::short_number(window_min) + "," +
                  units::short_number(window_max) + " s (reference 0.0025,0.005 s)");
  }
  if (start_looplength != kCommStartLooplength) {
    out.push_back("start_looplength = " + std::to_string(start_looplength) + " (reference " +
                  std::to_string(kCommStartLooplength) + ")");
  }
  return out;
}

std::string MethodRules::comm_reason(const std::vector<std::string>& departures) {
  std::string text;
  for (const auto& d : departures) text += (text.empty() ? "" : "; ") + d;
  return "not the reference configuration: " + text;
}

std::optional<std::string> MethodRules::io(double partition_time, int partitions) {
  if (!(partition_time < kIoPartitionTime)) return std::nullopt;
  char seconds[64];
  std::snprintf(seconds, sizeof seconds, "%.1f", partition_time);
  return "scheduled time per partition Tn = T / " + std::to_string(partitions) + " = " + seconds +
         " s < 1800 s: an official b_eff_io needs Tn >= 1800 s (b_eff_io rev 2.1; the paper "
         "says 15 minutes)";
}

}  // namespace pbench::worker
