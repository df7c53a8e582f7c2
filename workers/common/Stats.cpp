#include "common/Stats.hpp"

#include <algorithm>
#include <cmath>

namespace pbench::worker {

Stats describe(std::span<const double> samples) {
  Stats s;
  s.count = samples.size();
  if (samples.empty()) return s;
  auto [lo, hi] = std::minmax_element(samples.begin(), samples.end());
  s.min = *lo;
  s.max = *hi;
  double sum = 0;
  for (double x : samples) sum += x;
  s.mean = sum / static_cast<double>(s.count);
  if (s.count > 1) {
    double squares = 0;
    for (double x : samples) squares += (x - s.mean) * (x - s.mean);
    s.stddev = std::sqrt(squares / static_cast<double>(s.count - 1));
  }
  return s;
}

double median(std::vector<double> samples) {
  if (samples.empty()) return 0;
  std::sort(samples.begin(), samples.end());
  const std::size_t n = samples.size();
  return n % 2 ? samples[n / 2] : 0.5 * (samples[n / 2 - 1] + samples[n / 2]);
}

Stats across_ranks(double local, MPI_Comm comm) {
  int size = 1;
  MPI_Comm_size(comm, &size);
  std::vector<double> all(static_cast<std::size_t>(size));
  MPI_Allgather(&local, 1, MPI_DOUBLE, all.data(), 1, MPI_DOUBLE, comm);
  return describe(all);
}

nlohmann::json to_json(const Stats& s) {
  return {{"min", s.min}, {"mean", s.mean}, {"max", s.max}, {"stddev", s.stddev},
          {"count", s.count}};
}

}  // namespace pbench::worker
