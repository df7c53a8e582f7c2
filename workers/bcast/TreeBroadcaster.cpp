#include "bcast/TreeBroadcaster.hpp"

namespace pbench::bcast {

namespace {

constexpr int kBroadcastTag = 31;

int comm_size(MPI_Comm comm) {
  int size = 1;
  MPI_Comm_size(comm, &size);
  return size;
}

}  // namespace

TreeBroadcaster::TreeBroadcaster(Algorithm algorithm, MPI_Comm comm, HopDelay delay,
                                 MessageWait wait)
    : shape_(algorithm, comm_size(comm)), delay_(delay), wait_(wait) {
  MPI_Comm_dup(comm, &comm_);
  MPI_Comm_rank(comm_, &rank_);
}

TreeBroadcaster::~TreeBroadcaster() {
  if (comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
}

void TreeBroadcaster::broadcast(void* buffer, std::int64_t bytes, int root) {
  const int nprocs = shape_.nprocs();
  const int count = static_cast<int>(bytes);
  const int relative = relative_rank(rank_, root, nprocs);
  if (const int parent = shape_.parent(relative); parent >= 0) {
    wait_.receive(buffer, count, absolute_rank(parent, root, nprocs), kBroadcastTag, comm_);
  }
  for (int child : shape_.children(relative)) {
    delay_.wait();
    wait_.send(buffer, count, absolute_rank(child, root, nprocs), kBroadcastTag, comm_);
  }
}

}  // namespace pbench::bcast
