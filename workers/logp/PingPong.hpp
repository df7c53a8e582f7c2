#pragma once
// The ping-pong test (Bell et al. §4.1): an 8-byte message to the partner and back, with
// nonblocking calls; EEL = round-trip time / 2.
#include <mpi.h>

#include <array>
#include <cstddef>
#include <cstdint>

namespace pbench::logp {

class PingPong {
 public:
  /// A ping-pong with `partner` on `comm`.
  PingPong(MPI_Comm comm, int partner);

  /// The initiating (sending) side: `roundtrips` round trips; returns their elapsed time [s],
  /// one MPI_Wtime pair around the loop.
  double initiate(std::int64_t roundtrips);
  /// The responding side: echoes `roundtrips` messages back.
  void respond(std::int64_t roundtrips);
  /// Round trips whose reply did not carry the bytes that were sent.
  std::size_t data_errors() const { return data_errors_; }

  static constexpr int kMessageBytes = 8;
  // How a round trip is made and timed, as the result states it (table eel_timing).
  static constexpr const char* kInitiatorCalls =
      "MPI_Irecv, MPI_Isend, MPI_Wait (the send), MPI_Wait (the reply)";
  static constexpr const char* kResponderCalls = "MPI_Irecv, MPI_Wait, MPI_Isend, MPI_Wait";
  static constexpr const char* kTimer =
      "one MPI_Wtime pair around each run's round trips, after a barrier; no timer call inside "
      "the loop";
  static constexpr const char* kInitiatorCheck =
      "a mark in the first and last byte of every ping, compared in the reply; written and "
      "compared while a message is in flight (two buffers each way), the last reply after the "
      "timer";
  static constexpr const char* kResponderCheck = "echoes the received bytes";

 private:
  using Message = std::array<unsigned char, kMessageBytes>;
  /// The next round trip's mark.
  unsigned char next_mark() { return static_cast<unsigned char>(++serial_ * 151 + 3); }
  /// Counts a data error when `reply` does not carry `mark` in its first and last byte.
  void verify(const Message& reply, unsigned char mark);

  MPI_Comm comm_;
  int partner_;
  // Two buffers each way: while one round trip's buffers belong to MPI, the other pair is
  // stamped for the next ping and the previous reply is checked.
  std::array<Message, 2> out_{};
  std::array<Message, 2> in_{};
  std::size_t data_errors_ = 0;
  std::uint64_t serial_ = 0;
};

}  // namespace pbench::logp
