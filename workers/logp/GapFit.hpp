#pragma once
// G, the per-byte gap: least squares of time per message against message size over the
// bandwidth-bound sizes, with outlier removal and with changes of slope (protocol switches, such
// as eager -> rendezvous) found and reported as separate segments, never averaged over. Pure.
//
// The rules, all in GapFitOptions:
// - Bandwidth-bound sizes: the largest sizes, down to the last one whose time per message
//   reaches bandwidth_bound_factor * g (a smaller size that a disturbance made slow does not
//   pull its neighbours in). When fewer than min_segment_points sizes qualify, the largest
//   min_segment_points sizes are fitted instead (`fallback`).
// - Fit: weighted least squares with weights 1/t^2, i.e. squared relative residuals
//   (t - fit) / t are minimised; timing noise is proportional to the time, and this keeps the
//   largest size from dominating a power-of-two series.
// - Outliers: in each segment, the point with the largest relative residual (distance from the
//   residuals' median) is removed when it exceeds max(outlier_sigmas * robust sigma,
//   outlier_floor), robust sigma = 1.4826 * MAD; refit and repeat, at most a quarter of the
//   segment's points, never below min_segment_points.
// - Segments: a segment's cost is the sum over all its points of min(r^2, cost_cap^2), so noise
//   counts in full and a gross outlier only up to the cap. A split into two segments with >= min_segment_points
//   each (the best over all split positions) is accepted when its cost is at most split_gain
//   times the unsplit cost and the two slopes differ by at least the factor slope_ratio. Accepted
//   segments are split again the same way, up to max_segments segments.
// - G is the slope of the segment of the largest sizes; the bandwidth is 1/G.
#include <cstddef>
#include <optional>
#include <span>
#include <vector>

namespace pbench::logp {

struct SizeTime {
  double size = 0;  ///< message size [B]
  double time = 0;  ///< time per message [s]
};

struct LineFit {
  double slope = 0;      ///< [s/B]
  double intercept = 0;  ///< [s]
  double r2 = 0;         ///< weighted coefficient of determination (1 for a perfect fit)
};

struct GapSegment {
  double from_size = 0;  ///< smallest size of the segment, removed points included [B]
  double to_size = 0;    ///< largest size of the segment, removed points included [B]
  LineFit fit;
  std::size_t points = 0;        ///< points the final fit used
  std::vector<double> outliers;  ///< sizes removed as outliers [B]
  double cost = 0;               ///< the segment's capped squared relative residuals
};

struct GapFitOptions {
  double bandwidth_bound_factor = 4.0;
  double outlier_sigmas = 3.0;
  double outlier_floor = 0.05;
  double cost_cap = 0.5;
  double split_gain = 0.5;
  double slope_ratio = 1.25;
  std::size_t min_segment_points = 3;
  std::size_t max_segments = 4;
};

struct GapFit {
  std::vector<GapSegment> segments;  ///< by increasing size; empty when nothing could be fitted
  std::vector<double> fitted_sizes;  ///< the sizes that entered the fit [B]
  bool fallback = false;             ///< too few bandwidth-bound sizes: the largest were used

  /// G, the slope of the largest-size segment [s/B], or nothing without a fit.
  std::optional<double> big_g() const;
  /// Changes of slope found: segments - 1 (0 without a fit).
  std::size_t protocol_switches() const;
};

/// Weighted (1/t^2) least squares line through the points; needs >= 2 distinct sizes.
LineFit fit_line(std::span<const SizeTime> points);

/// One segment over `points` (sorted by size) with outlier removal.
GapSegment fit_segment(std::span<const SizeTime> points, const GapFitOptions& options = {});

/// The full fit of a time-per-message curve (any order) given g, the time per message at the
/// smallest size.
GapFit fit_gap(std::vector<SizeTime> curve, double g, const GapFitOptions& options = {});

}  // namespace pbench::logp
