#include "bcast/MeasurementSeries.hpp"

namespace pbench::bcast {

bool StopRule::stable(const worker::Stats& stats) const {
  if (static_cast<std::int64_t>(stats.count) < min_measurements || stats.count < 2) return false;
  return stats.mean > 0 && stats.stddev < max_relative_stddev * stats.mean;
}

double MeasurementSeries::relative_stddev() const {
  const worker::Stats s = stats();
  return s.mean != 0 ? s.stddev / s.mean : 0;
}

}  // namespace pbench::bcast
