#pragma once
// The communicator of a periodic Cartesian grid (MPI_Cart_create with reordering allowed, as the
// original) and how its ranks map to MPI_COMM_WORLD. Collective over the world communicator.
#include <mpi.h>

#include <vector>

namespace pbench::comm {

class GridCommunicator {
 public:
  /// Creates the grid on the first product(dims) processes MPI chooses (collective).
  GridCommunicator(MPI_Comm world, const std::vector<int>& dims);
  ~GridCommunicator();
  GridCommunicator(const GridCommunicator&) = delete;
  GridCommunicator& operator=(const GridCommunicator&) = delete;

  /// The grid communicator, MPI_COMM_NULL on processes outside the grid.
  MPI_Comm comm() const { return comm_; }
  /// Grid rank -> world rank (the same on every process).
  const std::vector<int>& world_rank() const { return world_rank_; }
  /// World rank -> grid rank, -1 outside the grid.
  int grid_rank_of(int world_rank) const { return grid_rank_of_[static_cast<std::size_t>(world_rank)]; }

 private:
  MPI_Comm comm_ = MPI_COMM_NULL;
  std::vector<int> world_rank_;
  std::vector<int> grid_rank_of_;
};

}  // namespace pbench::comm
