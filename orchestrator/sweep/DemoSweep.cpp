#include "sweep/DemoSweep.hpp"

#include <algorithm>

#include "sweep/ConsortiumSweep.hpp"

namespace pbench::sweep {

const std::vector<DemoSetting>& demo_settings() {
  static const std::vector<DemoSetting> settings = {
      // b_eff with L_max = 128 KiB, 2 random rings, one repetition, a 0.5-1 ms window.
      {"comm", "memory_per_proc", "16MiB"},
      {"comm", "random_patterns", "2"},
      {"comm", "repetitions", "1"},
      {"comm", "target_window", "0.0005,0.001"},
      // b_eff_io with the smallest chunks (M_PART = 2 MB) and a cache size that the demo's
      // few megabytes can be compared with.
      {"io", "memory_per_proc", "1"},
      {"io", "cache_bytes", "1000"},
      // OL_i at three sizes, short measurements.
      {"bcast", "sizes", "8,256,65536"},
      {"bcast", "repetitions", "20"},
      {"bcast", "max_measurements", "8"},
      // The link matrix with short measurements (on one machine: links between its ranks).
      {"links", "latency_roundtrips", "100"},
      {"links", "message_size", "64KiB"},
      {"links", "messages", "2"},
      {"links", "repetitions", "1"},
  };
  return settings;
}

const std::vector<std::string>& demo_workers() {
  static const std::vector<std::string> workers = {"logp", "comm", "io", "bcast", "links"};
  return workers;
}

void apply_demo_defaults(SweepSpec& spec, const GivenOptions& given) {
  if (!given.workers) spec.workers = demo_workers();
  const auto runs = [&](const std::string& worker) {
    return std::find(spec.workers.begin(), spec.workers.end(), worker) != spec.workers.end();
  };
  if (!given.schedule_times && runs("io") && io_suite(spec) != "consortium") {
    // The consortium suite has no T.
    spec.set_values("schedule_time", nlohmann::json::array({kDemoScheduleTime}));
  }
  for (const auto& s : demo_settings()) {
    if (runs(s.worker)) spec.settings[s.worker].try_emplace(s.parameter, s.value);
  }
}

}  // namespace pbench::sweep
