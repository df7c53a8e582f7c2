#include "logp/OverlapAnalysis.hpp"

#include <algorithm>
#include <vector>

namespace pbench::logp {

bool increased(double time, double baseline, double tolerance) {
  return time > baseline * (1.0 + tolerance);
}

double overlap_tolerance(std::span<const double> baselines, double min_tolerance) {
  if (baselines.size() < 2) return min_tolerance;
  std::vector<double> sorted(baselines.begin(), baselines.end());
  std::partial_sort(sorted.begin(), sorted.begin() + 2, sorted.end());
  const double spread = sorted[0] > 0 ? (sorted[1] - sorted[0]) / sorted[0] : 0.0;
  return std::max(min_tolerance, spread);
}

OverlapAnalysis analyse_overlap(std::span<const double> baselines,
                                std::span<const OverlapPoint> steps, double min_tolerance) {
  OverlapAnalysis a;
  if (baselines.empty()) return a;
  a.baseline = *std::min_element(baselines.begin(), baselines.end());
  a.tolerance = overlap_tolerance(baselines, min_tolerance);
  a.points = baselines.size() + steps.size();
  bool any_kept = false;
  for (const auto& step : steps) {
    if (step.busy <= 0) continue;
    if (!increased(step.time, a.baseline, a.tolerance)) {
      a.b_max = std::max(a.b_max, step.busy);
      any_kept = true;
    }
  }
  a.saturated = !any_kept;
  a.overhead = std::max(0.0, a.baseline - a.b_max);
  return a;
}

bool clearly_increased(std::span<const OverlapPoint> steps, double baseline, double tolerance,
                       std::size_t run) {
  if (run == 0 || steps.size() < run) return false;
  return std::all_of(steps.end() - static_cast<std::ptrdiff_t>(run), steps.end(),
                     [&](const OverlapPoint& p) { return increased(p.time, baseline, tolerance); });
}

}  // namespace pbench::logp
