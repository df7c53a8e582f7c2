#include "bcast/MessageWait.hpp"

#include <ctime>
#include <stdexcept>

namespace pbench::bcast {

void MessageWait::wait(MPI_Request& request) const {
  if (!polls()) {
    if (MPI_Wait(&request, MPI_STATUS_IGNORE) != MPI_SUCCESS) {
      throw std::runtime_error("MPI_Wait failed");
    }
    return;
  }
  const timespec pause{0, static_cast<long>(poll_seconds_ * 1e9)};
  for (;;) {
    int done = 0;
    if (MPI_Test(&request, &done, MPI_STATUS_IGNORE) != MPI_SUCCESS) {
      throw std::runtime_error("MPI_Test failed");
    }
    if (done) return;
    nanosleep(&pause, nullptr);
  }
}

void MessageWait::send(const void* data, int count, int destination, int tag, MPI_Comm comm) const {
  MPI_Request request = MPI_REQUEST_NULL;
  if (MPI_Isend(data, count, MPI_BYTE, destination, tag, comm, &request) != MPI_SUCCESS) {
    throw std::runtime_error("MPI_Isend failed");
  }
  wait(request);
}

void MessageWait::receive(void* data, int count, int source, int tag, MPI_Comm comm) const {
  MPI_Request request = MPI_REQUEST_NULL;
  if (MPI_Irecv(data, count, MPI_BYTE, source, tag, comm, &request) != MPI_SUCCESS) {
    throw std::runtime_error("MPI_Irecv failed");
  }
  wait(request);
}

}  // namespace pbench::bcast
