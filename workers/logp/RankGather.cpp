#include "logp/RankGather.hpp"

#include <stdexcept>

namespace pbench::logp {

std::vector<std::vector<double>> gather_to_root(const std::vector<double>& local, MPI_Comm comm) {
  int rank = 0;
  int size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  const int count = static_cast<int>(local.size());
  std::vector<double> all(rank == 0 ? local.size() * static_cast<std::size_t>(size) : 0);
  if (MPI_Gather(local.data(), count, MPI_DOUBLE, all.data(), count, MPI_DOUBLE, 0, comm) !=
      MPI_SUCCESS) {
    throw std::runtime_error("MPI_Gather of measurements failed");
  }
  std::vector<std::vector<double>> out;
  if (rank != 0) return out;
  for (int r = 0; r < size; ++r) {
    const auto begin = all.begin() + static_cast<std::ptrdiff_t>(r) * count;
    out.emplace_back(begin, begin + count);
  }
  return out;
}

std::vector<double> gather_to_all(double value, MPI_Comm comm) {
  int size = 1;
  MPI_Comm_size(comm, &size);
  std::vector<double> all(static_cast<std::size_t>(size));
  if (MPI_Allgather(&value, 1, MPI_DOUBLE, all.data(), 1, MPI_DOUBLE, comm) != MPI_SUCCESS) {
    throw std::runtime_error("MPI_Allgather failed");
  }
  return all;
}

}  // namespace pbench::logp
