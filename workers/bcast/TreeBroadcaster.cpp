#include "bcast/TreeBroadcaster.hpp"

namespace pbench::bcast {

namespace {

constexpr int kBroadcastTag = 31;

}  // namespace

TreeBroadcaster::TreeBroadcaster(Algorithm algorithm, MPI_Comm comm, HopDelay delay,
                                 MessageWait wait)
    : comm_(comm), shape_(algorithm, comm_.size()), delay_(delay), wait_(wait) {}

void TreeBroadcaster::broadcast(void* buffer, std::int64_t bytes, int root) {
  const int nprocs = shape_.nprocs();
  const int count = static_cast<int>(bytes);
  const int relative = relative_rank(comm_.rank(), root, nprocs);
  if (const int parent = shape_.parent(relative); parent >= 0) {
    wait_.receive(buffer, count, absolute_rank(parent, root, nprocs), kBroadcastTag, comm_.get());
  }
  for (int child : shape_.children(relative)) {
    delay_.wait();
    wait_.send(buffer, count, absolute_rank(child, root, nprocs), kBroadcastTag, comm_.get());
  }
}

}  // namespace pbench::bcast
