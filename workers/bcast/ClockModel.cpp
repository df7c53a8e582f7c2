#include "bcast/ClockModel.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace pbench::bcast {

double ClockModel::predicted_error(double global) const {
  return base_error + error_rate * std::abs(global - reference);
}

ClockModel ClockModel::then(const ClockModel& partner) const {
  ClockModel out;
  out.slope = partner.slope * slope;
  out.intercept = partner.slope * intercept + partner.intercept;
  // This model's reference is on the partner's clock; on the global clock it is where the
  // partner puts it. The partner's error at that time joins this fit's own.
  out.reference = partner.global(reference);
  out.base_error = base_error + partner.predicted_error(out.reference);
  out.error_rate = error_rate + partner.error_rate;
  return out;
}

std::vector<FitPoint> tight_points(const std::vector<FitPoint>& points) {
  double least = std::numeric_limits<double>::infinity();
  for (const auto& p : points) least = std::min(least, p.round_trip);
  std::vector<FitPoint> tight;
  for (const auto& p : points) {
    if (p.round_trip <= kTightRoundTrips * least) tight.push_back(p);
  }
  // Fewer than half the points tight: the noise is the run's, not a few points' (a loaded node);
  // all of them are fitted and the fit's residuals state the uncertainty.
  return 2 * tight.size() >= points.size() ? tight : points;
}

ClockModel fit_clock(const std::vector<FitPoint>& all_points) {
  ClockModel out;
  if (all_points.empty()) return out;
  const std::vector<FitPoint> points = tight_points(all_points);
  const double n = static_cast<double>(points.size());
  double mean_x = 0, mean_y = 0, least_trip = points.front().round_trip;
  for (const auto& p : points) {
    mean_x += p.local / n;
    mean_y += p.offset / n;
    least_trip = std::min(least_trip, p.round_trip);
  }
  double sxx = 0, sxy = 0;
  for (const auto& p : points) {
    sxx += (p.local - mean_x) * (p.local - mean_x);
    sxy += (p.local - mean_x) * (p.offset - mean_y);
  }
  // offset(x) = mean_y + b (x - mean_x); partner = x + offset(x) = (1 + b) x + mean_y - b mean_x.
  const double b = sxx > 0 ? sxy / sxx : 0;
  double largest = 0, squares = 0;
  for (const auto& p : points) {
    const double residual = p.offset - (mean_y + b * (p.local - mean_x));
    largest = std::max(largest, std::abs(residual));
    squares += residual * residual;
  }
  out.slope = 1 + b;
  out.intercept = mean_y - b * mean_x;
  // The reference is a time on the partner's clock (ClockModel::then maps it on).
  out.reference = mean_x + mean_y;
  out.base_error = 2 * largest + least_trip / 2;
  if (sxx > 0 && points.size() > 2) {
    out.error_rate = 3 * std::sqrt(squares / (n - 2) / sxx);
  } else {
    // No drift could be learned: a drift of 100 ppm (a poor quartz) is what it may be.
    out.error_rate = 100e-6;
  }
  return out;
}

}  // namespace pbench::bcast
