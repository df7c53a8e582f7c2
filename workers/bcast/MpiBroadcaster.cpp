#include "bcast/MpiBroadcaster.hpp"

#include <stdexcept>

namespace pbench::bcast {

MpiBroadcaster::MpiBroadcaster(MPI_Comm comm) : comm_(comm) {}

void MpiBroadcaster::broadcast(void* buffer, std::int64_t bytes, int root) {
  if (MPI_Bcast(buffer, static_cast<int>(bytes), MPI_BYTE, root, comm_.get()) != MPI_SUCCESS) {
    throw std::runtime_error("MPI_Bcast failed");
  }
}

}  // namespace pbench::bcast
