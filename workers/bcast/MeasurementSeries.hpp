#pragma once
// The paper's statistics: each figure is the mean of several measurements of M repetitions;
// measuring stops once the standard deviation of the measurements is below 3% of their mean
// (after a minimum count), or when a maximum count is reached, and the result says which.
#include <cstdint>
#include <vector>

#include "common/Stats.hpp"

namespace pbench::bcast {

struct StopRule {
  std::int64_t min_measurements = 8;
  std::int64_t max_measurements = 30;
  double max_relative_stddev = 0.03;

  /// True when measurements with these statistics may stop as stable: at least the minimum
  /// count and a standard deviation below the fraction of the mean (a mean <= 0 never is).
  bool stable(const worker::Stats& stats) const;
  /// True when `count` measurements are all that may be taken.
  bool exhausted(std::int64_t count) const { return count >= max_measurements; }
};

/// The measurements of one quantity: one value per measurement, each a mean over M repetitions.
class MeasurementSeries {
 public:
  /// Appends a measurement [s per repetition].
  void add(double value) { values_.push_back(value); }
  const std::vector<double>& values() const { return values_; }
  std::size_t count() const { return values_.size(); }
  /// Mean, standard deviation, min, max and count of the measurements.
  worker::Stats stats() const { return worker::describe(values_); }
  /// The rule's verdict on the measurements so far.
  bool stable(const StopRule& rule) const { return rule.stable(stats()); }
  /// Standard deviation over mean (0 when the mean is 0).
  double relative_stddev() const;

 private:
  std::vector<double> values_;
};

}  // namespace pbench::bcast
