#include "comm/GridCommunicator.hpp"

#include <functional>
#include <numeric>
#include <stdexcept>

namespace pbench::comm {

GridCommunicator::GridCommunicator(MPI_Comm world, const std::vector<int>& dims) {
  std::vector<int> periods(dims.size(), 1);
  if (MPI_Cart_create(world, static_cast<int>(dims.size()), dims.data(), periods.data(),
                      /*reorder=*/1, &comm_) != MPI_SUCCESS) {
    throw std::runtime_error("MPI_Cart_create failed");
  }
  int size = 0;
  MPI_Comm_size(world, &size);
  int mine = -1;
  if (comm_ != MPI_COMM_NULL) MPI_Comm_rank(comm_, &mine);
  grid_rank_of_.assign(static_cast<std::size_t>(size), -1);
  MPI_Allgather(&mine, 1, MPI_INT, grid_rank_of_.data(), 1, MPI_INT, world);
  const int members = std::accumulate(dims.begin(), dims.end(), 1, std::multiplies<>());
  world_rank_.assign(static_cast<std::size_t>(members), -1);
  for (int w = 0; w < size; ++w) {
    const int g = grid_rank_of_[static_cast<std::size_t>(w)];
    if (g >= 0) world_rank_[static_cast<std::size_t>(g)] = w;
  }
}

GridCommunicator::~GridCommunicator() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (comm_ != MPI_COMM_NULL && !finalized) MPI_Comm_free(&comm_);
}

}  // namespace pbench::comm
