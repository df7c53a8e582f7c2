#pragma once
// The worker's own broadcast: blocking point-to-point messages along a BroadcastShape, with the
// synthetic hop delay before each send (so a hop costs d plus the message), on its own
// communicator so its messages never meet the methods' acknowledgements.
#include "bcast/Broadcaster.hpp"
#include "bcast/DuplicateComm.hpp"
#include "bcast/HopDelay.hpp"
#include "bcast/MessageWait.hpp"

namespace pbench::bcast {

class TreeBroadcaster : public Broadcaster {
 public:
  /// Broadcasts with `algorithm` over a duplicate of `comm` (collective), waiting for its
  /// messages with `wait`.
  TreeBroadcaster(Algorithm algorithm, MPI_Comm comm, HopDelay delay, MessageWait wait);

  /// Receives from the parent (unless root), then for each child: waits the hop delay, sends.
  void broadcast(void* buffer, std::int64_t bytes, int root) override;
  /// The algorithm's shape over the communicator.
  std::optional<BroadcastShape> shape() const override { return shape_; }

 private:
  DuplicateComm comm_;
  BroadcastShape shape_;
  HopDelay delay_;
  MessageWait wait_;
};

}  // namespace pbench::bcast
