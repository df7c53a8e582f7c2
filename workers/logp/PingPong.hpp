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

  /// The initiating (sending) side: `roundtrips` round trips; returns their elapsed time [s].
  double initiate(std::int64_t roundtrips);
  /// The responding side: echoes `roundtrips` messages back.
  void respond(std::int64_t roundtrips);
  /// Round trips whose reply did not carry the bytes that were sent.
  std::size_t data_errors() const { return data_errors_; }

  static constexpr int kMessageBytes = 8;

 private:
  MPI_Comm comm_;
  int partner_;
  std::array<unsigned char, kMessageBytes> out_{};
  std::array<unsigned char, kMessageBytes> in_{};
  std::size_t data_errors_ = 0;
  std::uint64_t serial_ = 0;
};

}  // namespace pbench::logp
