#pragma once
// The flood test (Bell et al. §4.2) between the two ranks of a pair. The sender keeps up to q
// sends outstanding: it starts min(q, N), waits for the oldest max(1, q/2) to complete, starts as
// many new ones, until N are started; completes the rest; then waits for one 8-byte reply from
// the receiver, which guarantees delivery. The receiver keeps up to q receives posted the same
// way and sends the reply after the last one. Each outstanding message has its own buffer.
// With busy work (the CPU overlap test) the calibrated loop runs between starting and completing
// each send (on the sender) or each receive (on the receiver).
#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace pbench::logp {

struct FloodPoint {
  std::size_t size = 8;          ///< message size [B]
  int queue_depth = 1;           ///< q
  std::size_t messages = 0;      ///< N
  std::uint64_t busy_iterations = 0;  ///< busy loop iterations per message on this side
};

class Flood {
 public:
  /// A flood with `partner` on `comm`, with buffers for up to `pool_bytes` of outstanding data.
  Flood(MPI_Comm comm, int partner, std::size_t pool_bytes);

  /// The sending side of one measurement; returns the time from the first send to the reply [s].
  double send(const FloodPoint& point);
  /// The receiving side of one measurement; returns the time from the first posted receive to
  /// the reply's completion [s].
  double receive(const FloodPoint& point);
  /// Received messages whose first or last byte was not what the sender wrote.
  std::size_t data_errors() const { return data_errors_; }

 private:
  /// One measurement of a point, alike on both sides: N messages of `count` bytes, `slots` of
  /// them in flight, completed and reissued `batch` at a time.
  struct Flight {
    std::size_t n;
    std::size_t slots;
    std::size_t batch;
    int count;
  };
  /// Starts a measurement of `point` on this side (the next serial, for mark()) with a request
  /// per slot.
  Flight begin(const FloodPoint& point);
  unsigned char* slot(std::size_t message, const FloodPoint& point);
  unsigned char mark(std::size_t message) const;

  MPI_Comm comm_;
  int partner_;
  std::vector<unsigned char> pool_;
  std::vector<MPI_Request> requests_;
  std::uint64_t serial_ = 0;  ///< measurements so far: both sides count alike
  std::size_t data_errors_ = 0;
};

}  // namespace pbench::logp
