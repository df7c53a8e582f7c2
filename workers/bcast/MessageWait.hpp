#pragma once
// How a rank waits for its point-to-point messages (the own broadcasts, acknowledgements and
// round trips): MPI_Wait, or, in validation runs with a synthetic hop delay, MPI_Test polls with
// a short sleep between them. MPICH's ch4 progress spins and never yields, so with more ranks
// than cores (the 3-4 rank validation runs on 2 cores) a waiting rank holds a core that the rank
// whose turn it is needs, and every hop can cost a scheduler time slice (milliseconds). A
// polling rank leaves the cores free, and a hop then costs at most about one poll interval.
#include <mpi.h>

namespace pbench::bcast {

/// The poll interval of validation runs: small against the hop delays they use (tens of
/// milliseconds), large enough that polling ranks leave the cores idle.
inline constexpr double kValidationPollSeconds = 50e-6;

class MessageWait {
 public:
  /// Waits with MPI_Wait when `poll_seconds` is 0, else polls with sleeps of that length.
  explicit MessageWait(double poll_seconds = 0) : poll_seconds_(poll_seconds) {}

  /// Completes `request`; throws std::runtime_error when MPI reports an error.
  void wait(MPI_Request& request) const;
  /// A blocking send of `count` bytes completed by wait().
  void send(const void* data, int count, int destination, int tag, MPI_Comm comm) const;
  /// A blocking receive of `count` bytes completed by wait().
  void receive(void* data, int count, int source, int tag, MPI_Comm comm) const;

  /// True when waiting polls instead of spinning in MPI.
  bool polls() const { return poll_seconds_ > 0; }

 private:
  double poll_seconds_;
};

}  // namespace pbench::bcast
