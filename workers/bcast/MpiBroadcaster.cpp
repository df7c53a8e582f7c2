#include "bcast/MpiBroadcaster.hpp"

#include <stdexcept>

namespace pbench::bcast {

MpiBroadcaster::MpiBroadcaster(MPI_Comm comm) {
  MPI_Comm_dup(comm, &comm_);
}

MpiBroadcaster::~MpiBroadcaster() {
  if (comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
}

void MpiBroadcaster::broadcast(void* buffer, std::int64_t bytes, int root) {
  if (MPI_Bcast(buffer, static_cast<int>(bytes), MPI_BYTE, root, comm_) != MPI_SUCCESS) {
    throw std::runtime_error("MPI_Bcast failed");
  }
}

}  // namespace pbench::bcast
