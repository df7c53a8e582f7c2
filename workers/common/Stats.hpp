#pragma once
// Timing helpers: MPI_Wtime, barrier-synchronised starts, and the statistics every worker
// reports (min / mean / max / standard deviation, with the sample count).
#include <mpi.h>

#include <cstddef>
#include <span>
#include <vector>

#include <nlohmann/json.hpp>

namespace pbench::worker {

struct Stats {
  double min = 0;
  double mean = 0;
  double max = 0;
  double stddev = 0;  ///< sample standard deviation (n - 1); 0 for a single sample
  std::size_t count = 0;
};

/// Statistics of a set of samples; all zero with count 0 when empty.
Stats describe(std::span<const double> samples);
/// Median of a set of samples (mean of the middle two for an even count); 0 when empty.
double median(std::vector<double> samples);
/// Statistics over the ranks of `comm` of one value per rank (collective).
Stats across_ranks(double local, MPI_Comm comm);
/// JSON form {"min","mean","max","stddev","count"}.
nlohmann::json to_json(const Stats& stats);

/// Seconds since an arbitrary origin (MPI_Wtime); only differences on one rank are meaningful.
inline double now() { return MPI_Wtime(); }
/// A barrier, so the ranks of `comm` start the next timed region together.
inline void synchronized_start(MPI_Comm comm) { MPI_Barrier(comm); }

}  // namespace pbench::worker
