#pragma once
// Collecting per-rank records on rank 0 after a measurement phase, so no collective runs inside
// the timed loops.
#include <mpi.h>

#include <vector>

namespace pbench::logp {

/// Gathers `local` (the same length on every rank of `comm`) to rank 0: there one vector per
/// rank, in rank order; elsewhere empty (collective).
std::vector<std::vector<double>> gather_to_root(const std::vector<double>& local, MPI_Comm comm);

/// Every rank's `value`, on every rank (collective).
std::vector<double> gather_to_all(double value, MPI_Comm comm);

}  // namespace pbench::logp
