#include "logp/GapFit.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "common/Stats.hpp"

namespace pbench::logp {

namespace {

double weight_of(double time) {
  const double t = std::max(std::abs(time), std::numeric_limits<double>::min());
  return 1.0 / (t * t);
}

double relative_residual(const SizeTime& p, const LineFit& fit) {
  const double t = std::max(std::abs(p.time), std::numeric_limits<double>::min());
  return (p.time - (fit.intercept + fit.slope * p.size)) / t;
}

double capped_cost(std::span<const SizeTime> points, const LineFit& fit, double cap) {
  double cost = 0;
  for (const auto& p : points) {
    const double r = relative_residual(p, fit);
    cost += std::min(r * r, cap * cap);
  }
  return cost;
}

bool slopes_differ(double a, double b, double ratio) {
  if (a <= 0 || b <= 0) return (a > 0) != (b > 0) || a != b;
  return std::max(a, b) / std::min(a, b) >= ratio;
}

// Splits points[begin, end) recursively; appends the resulting segments in size order.
void segment_range(std::span<const SizeTime> points, const GapFitOptions& options,
                   std::size_t budget, std::vector<GapSegment>& out) {
  GapSegment whole = fit_segment(points, options);
  const std::size_t m = std::max<std::size_t>(options.min_segment_points, 2);
  if (budget < 2 || points.size() < 2 * m) {
    out.push_back(std::move(whole));
    return;
  }
  std::size_t best_split = 0;
  double best_cost = std::numeric_limits<double>::infinity();
  GapSegment best_left;
  GapSegment best_right;
  for (std::size_t k = m; k + m <= points.size(); ++k) {
    GapSegment left = fit_segment(points.first(k), options);
    GapSegment right = fit_segment(points.subspan(k), options);
    const double cost = left.cost + right.cost;
    if (cost < best_cost) {
      best_cost = cost;
      best_split = k;
      best_left = std::move(left);
      best_right = std::move(right);
    }
  }
  const bool accepted = best_split > 0 && best_cost <= options.split_gain * whole.cost &&
                        slopes_differ(best_left.fit.slope, best_right.fit.slope,
                                      options.slope_ratio);
  if (!accepted) {
    out.push_back(std::move(whole));
    return;
  }
  // The left part may be split again with what the right part leaves of the budget (>= 1).
  std::vector<GapSegment> left_parts;
  std::vector<GapSegment> right_parts;
  segment_range(points.first(best_split), options, budget - 1, left_parts);
  segment_range(points.subspan(best_split), options, budget - left_parts.size(), right_parts);
  out.insert(out.end(), left_parts.begin(), left_parts.end());
  out.insert(out.end(), right_parts.begin(), right_parts.end());
}

}  // namespace

std::optional<double> GapFit::big_g() const {
  if (segments.empty()) return std::nullopt;
  return segments.back().fit.slope;
}

std::size_t GapFit::protocol_switches() const {
  return segments.empty() ? 0 : segments.size() - 1;
}

LineFit fit_line(std::span<const SizeTime> points) {
  LineFit fit;
  if (points.empty()) return fit;
  double sw = 0;
  double sx = 0;
  double sy = 0;
  for (const auto& p : points) {
    const double w = weight_of(p.time);
    sw += w;
    sx += w * p.size;
    sy += w * p.time;
  }
  const double mx = sx / sw;
  const double my = sy / sw;
  double sxx = 0;
  double sxy = 0;
  double syy = 0;
  for (const auto& p : points) {
    const double w = weight_of(p.time);
    sxx += w * (p.size - mx) * (p.size - mx);
    sxy += w * (p.size - mx) * (p.time - my);
    syy += w * (p.time - my) * (p.time - my);
  }
  fit.slope = sxx > 0 ? sxy / sxx : 0;
  fit.intercept = my - fit.slope * mx;
  double sse = 0;
  for (const auto& p : points) {
    const double e = p.time - (fit.intercept + fit.slope * p.size);
    sse += weight_of(p.time) * e * e;
  }
  fit.r2 = syy > 0 ? 1.0 - sse / syy : 1.0;
  return fit;
}

GapSegment fit_segment(std::span<const SizeTime> points, const GapFitOptions& options) {
  GapSegment segment;
  if (points.empty()) return segment;
  segment.from_size = points.front().size;
  segment.to_size = points.back().size;
  std::vector<SizeTime> kept(points.begin(), points.end());
  const std::size_t most_removed = points.size() / 4;
  const std::size_t fewest_kept = std::max<std::size_t>(options.min_segment_points, 2);
  for (;;) {
    segment.fit = fit_line(kept);
    if (segment.outliers.size() >= most_removed || kept.size() <= fewest_kept) break;
    std::vector<double> residuals;
    for (const auto& p : kept) residuals.push_back(relative_residual(p, segment.fit));
    const double center = worker::median(residuals);
    std::vector<double> deviations;
    for (double r : residuals) deviations.push_back(std::abs(r - center));
    const double sigma = 1.4826 * worker::median(deviations);
    const double threshold = std::max(options.outlier_sigmas * sigma, options.outlier_floor);
    const auto worst = std::max_element(deviations.begin(), deviations.end());
    if (*worst <= threshold) break;
    const auto index = static_cast<std::size_t>(worst - deviations.begin());
    segment.outliers.push_back(kept[index].size);
    kept.erase(kept.begin() + static_cast<std::ptrdiff_t>(index));
  }
  std::sort(segment.outliers.begin(), segment.outliers.end());
  segment.points = kept.size();
  segment.cost = capped_cost(points, segment.fit, options.cost_cap);
  return segment;
}

GapFit fit_gap(std::vector<SizeTime> curve, double g, const GapFitOptions& options) {
  GapFit result;
  std::sort(curve.begin(), curve.end(),
            [](const SizeTime& a, const SizeTime& b) { return a.size < b.size; });
  std::erase_if(curve, [](const SizeTime& p) { return !std::isfinite(p.time) || p.time <= 0; });
  const std::size_t m = std::max<std::size_t>(options.min_segment_points, 2);
  auto first = curve.end();
  while (first != curve.begin() && (first - 1)->time >= options.bandwidth_bound_factor * g) {
    --first;
  }
  std::vector<SizeTime> fitted(first, curve.end());
  if (fitted.size() < m) {
    result.fallback = true;
    fitted.assign(curve.end() - static_cast<std::ptrdiff_t>(std::min(m, curve.size())),
                  curve.end());
  }
  for (const auto& p : fitted) result.fitted_sizes.push_back(p.size);
  if (fitted.size() < 2) return result;
  segment_range(fitted, options, std::max<std::size_t>(options.max_segments, 1),
                result.segments);
  return result;
}

}  // namespace pbench::logp
