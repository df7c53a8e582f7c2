#pragma once
// A duplicate of a communicator for one object of the bcast worker (a broadcaster, the clock
// synchronisation, the timed loops, the windows): its messages travel in a context of their own,
// so that their tags cannot match another's; freed with the object.
#include <mpi.h>

namespace pbench::bcast {

class DuplicateComm {
 public:
  /// Duplicates `comm` (collective).
  explicit DuplicateComm(MPI_Comm comm) {
    MPI_Comm_dup(comm, &comm_);
    MPI_Comm_rank(comm_, &rank_);
    MPI_Comm_size(comm_, &size_);
  }
  ~DuplicateComm() {
    if (comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
  }
  DuplicateComm(const DuplicateComm&) = delete;
  DuplicateComm& operator=(const DuplicateComm&) = delete;

  MPI_Comm get() const { return comm_; }
  /// This process's rank in it.
  int rank() const { return rank_; }
  /// How many processes it holds.
  int size() const { return size_; }

 private:
  MPI_Comm comm_ = MPI_COMM_NULL;
  int rank_ = 0;
  int size_ = 1;
};

}  // namespace pbench::bcast
