#pragma once
// The embedded default: what `pbench run` plans when it is given no sweep name. Every worker on
// the sweep's partitions, each with settings that keep a point to seconds on a laptop; the
// workers mark such results as not the reference configuration themselves.
#include <string>
#include <vector>

#include "sweep/SweepSpec.hpp"

namespace pbench::sweep {

struct DemoSetting {
  std::string worker;
  std::string parameter;
  std::string value;
};

/// The demo's worker settings (each applies only where the user did not --set it).
const std::vector<DemoSetting>& demo_settings();
/// The demo's workers, in table order.
const std::vector<std::string>& demo_workers();
/// The demo's scheduled time T for io [s].
inline constexpr double kDemoScheduleTime = 3.0;

/// Which sweep options the user gave, so the demo fills in only the others.
struct GivenOptions {
  bool workers = false;
  bool schedule_times = false;
};

/// Turns `spec` (as parsed from the command line) into the demo sweep: the demo's workers
/// unless --workers was given, T = kDemoScheduleTime for io unless -T was given, and the demo
/// settings of the sweep's workers unless --set gave them.
void apply_demo_defaults(SweepSpec& spec, const GivenOptions& given);

}  // namespace pbench::sweep
