#pragma once
// MPI_Bcast of the library under test, on its own communicator.
#include "bcast/Broadcaster.hpp"
#include "bcast/DuplicateComm.hpp"

namespace pbench::bcast {

class MpiBroadcaster : public Broadcaster {
 public:
  /// Broadcasts over a duplicate of `comm` (collective).
  explicit MpiBroadcaster(MPI_Comm comm);

  /// MPI_Bcast of `bytes` bytes from `root`; throws std::runtime_error when MPI reports an error.
  void broadcast(void* buffer, std::int64_t bytes, int root) override;
  /// Unknown: the library chooses its algorithm.
  std::optional<BroadcastShape> shape() const override { return std::nullopt; }

 private:
  DuplicateComm comm_;
};

}  // namespace pbench::bcast
