#pragma once
// The timed loops of the broadcast methods (de Supinski & Karonis, Figures 2 and 9), one
// measurement of M repetitions each. Every loop starts with one untimed repetition and a
// barrier; durations are measured on each process with MPI_Wtime and never compared across
// processes. Which process's duration a method reports is the method's:
//   round_trip, acknowledged_broadcasts, all_acknowledge  the root's (the root times them)
//   repeated_broadcasts                                   every process's own (its gap g_j; at
//                                                         the root this is the send latency)
//   rounds, barrier_pairs                                 every process's own (the caller takes
//                                                         the largest, consortium 6.7)
// Acknowledgements and round trips are 8-byte messages on a communicator of their own, waited
// for as the broadcaster waits for its own messages.
#include <mpi.h>

#include <cstdint>
#include <vector>

#include "bcast/Broadcaster.hpp"
#include "bcast/DuplicateComm.hpp"
#include "bcast/MessageWait.hpp"

namespace pbench::bcast {

class TimedLoops {
 public:
  /// Loops over a duplicate of `comm` (collective) broadcasting with `broadcaster` from `root`,
  /// `repetitions` (M) per measurement, waiting for acknowledgements with `wait`.
  TimedLoops(MPI_Comm comm, Broadcaster& broadcaster, int root, std::int64_t repetitions,
             MessageWait wait);

  /// RTL_i: M round trips of an 8-byte message between the root and `task`; returns the mean
  /// round-trip time [s] at the root, 0 elsewhere (collective: starts with a barrier).
  double round_trip(int task);
  /// E_i: M iterations of {broadcast `bytes`; `task` acknowledges to the root; the root
  /// receives it}, after one untimed iteration; returns time / M [s] at the root, 0 elsewhere.
  double acknowledged_broadcasts(int task, std::int64_t bytes);
  /// g_j and the send latency: M broadcasts back to back; returns this process's time / M [s].
  double repeated_broadcasts(std::int64_t bytes);
  /// Broadcast rounds: M rounds of one broadcast from each of `roots` in turn (every root in
  /// order from the root, or a bounded stretch of them: RankSample); returns this process's
  /// time / (M·roots) [s], the time per broadcast.
  double rounds(std::int64_t bytes, const std::vector<int>& roots);
  /// Broadcast-barrier: M iterations of {broadcast; barrier}; returns this process's time / M.
  double barrier_pairs(std::int64_t bytes);
  /// Broadcast-acknowledge: M iterations of {broadcast; each of `tasks` (every other task, or a
  /// bounded sample: RankSample) acknowledges to the root; the root receives them all};
  /// returns time / M [s] at the root, 0 elsewhere.
  double all_acknowledge(std::int64_t bytes, const std::vector<int>& tasks);
  /// Broadcasts a pattern of `bytes` bytes from `from` (any rank, not only the measured root)
  /// that depends on `trial`, after filling every other rank's buffer with the complement, and
  /// checks every byte there; returns 1 when this process ends with wrong bytes, else 0
  /// (collective).
  int check_delivery(std::int64_t bytes, int from, int trial);

  /// The 8-byte size of acknowledgements and round-trip messages.
  static constexpr int kAckBytes = 8;

 private:
  unsigned char* buffer(std::int64_t bytes);
  /// MPI_Barrier on the loops' communicator; throws std::runtime_error when MPI reports an error.
  void barrier();
  /// The loop most methods share: `one` repetition untimed, a barrier, then M repetitions
  /// timed; returns this process's time / M [s].
  template <class Repetition>
  double per_repetition(Repetition&& one);
  void send_ack();
  void receive_ack(int source);

  DuplicateComm comm_;
  Broadcaster& broadcaster_;
  int root_;
  std::int64_t repetitions_;
  MessageWait wait_;
  std::vector<unsigned char> buffer_;
  unsigned char ack_[kAckBytes] = {};
};

/// The byte at `index` of the delivery-check pattern for `trial` from `root`.
unsigned char delivery_pattern(std::int64_t index, int root, int trial);
/// Fills `bytes` bytes of `data` with the pattern for `trial` from `root`.
void fill_delivery_pattern(unsigned char* data, std::int64_t bytes, int root, int trial);
/// How many of `bytes` bytes of `data` differ from the pattern for `trial` from `root`.
std::int64_t wrong_bytes(const unsigned char* data, std::int64_t bytes, int root, int trial);

}  // namespace pbench::bcast
