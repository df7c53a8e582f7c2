#pragma once
// The measurement loop of b_eff (METHODS.md section 1): for each repetition, message size,
// pattern and method one measurement: rank 0 decides the loop length and broadcasts it, a barrier,
// one untimed warm-up iteration, `looplength` timed iterations, the per-process times gathered to
// rank 0. Messages move through buffers larger than any message (so they do not always hit the
// same cache lines) and the first and last byte of every received message are checked.
#include <mpi.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <vector>

#include "comm/GridCommunicator.hpp"
#include "comm/LoopLengthPolicy.hpp"
#include "comm/Measurement.hpp"
#include "comm/PatternSet.hpp"
#include "common/Deadline.hpp"

namespace pbench::comm {

struct BenchmarkPlan {
  std::vector<std::int64_t> sizes;  ///< the 21 sizes by position, B
  std::vector<int> positions;       ///< positions to measure, ascending
  std::vector<Method> methods;      ///< methods to measure (the ping-pong uses Sendrecv only)
  int repetitions = 3;
  LoopLengthPolicy loop{300, 2.5e-3, 5e-3};
  double max_time = 0;              ///< s; 0: no limit
  /// The run's deadline: checked (collectively) before each measurement; none when null.
  worker::DeadlineWatch* deadline = nullptr;
};

struct BenchmarkOutcome {
  std::vector<Measurement> rows;  ///< on rank 0 only, in measurement order
  std::size_t planned = 0;        ///< measurements the plan asks for
  bool stopped = false;           ///< true when max_time or the deadline ended the run early
  bool deadline = false;          ///< true when the deadline ended it
  double elapsed = 0;             ///< s, on rank 0
};

class Benchmark {
 public:
  /// Rank 0 is told (repetition, position, elapsed seconds) before each new message size.
  using Progress = std::function<void(int repetition, int position, double elapsed)>;

  /// Prepares the send and receive buffers for messages up to `l_max` bytes (touched once here,
  /// so no page is first touched inside a timed loop). `grids` are the 2-D and 3-D grids the
  /// patterns with grid_dims 2 and 3 run their collectives on.
  Benchmark(MPI_Comm world, const PatternSet& patterns,
            std::array<const GridCommunicator*, 2> grids, std::int64_t l_max);
  ~Benchmark();
  Benchmark(const Benchmark&) = delete;
  Benchmark& operator=(const Benchmark&) = delete;

  /// Runs every measurement of the plan (collective).
  BenchmarkOutcome run(const BenchmarkPlan& plan, const Progress& progress);

  /// Buffer bytes per direction for messages up to l_max: kMaxSteps messages, 8-byte aligned.
  static std::size_t buffer_bytes(std::int64_t l_max);

 private:
  struct Local {
    double seconds = -1;       ///< loop time, or -1 where this process takes no part
    std::int64_t errors = 0;   ///< received messages with a wrong first or last byte
  };

  Local execute(const Pattern& pattern, Method method, std::int64_t size, std::int64_t looplength);
  std::int64_t iterate_sendrecv(const std::vector<Step>& steps, std::int64_t size, std::int64_t it);
  std::int64_t iterate_nonblocking(const std::vector<Step>& steps, std::int64_t size, std::int64_t it);
  std::int64_t iterate_alltoallv(const std::vector<Step>& steps, const std::vector<int>& send_peer,
                                 const std::vector<int>& recv_peer, MPI_Comm comm,
                                 std::int64_t size, std::int64_t it);
  std::size_t next_offset(std::int64_t size);
  void stamp(std::size_t offset, std::int64_t size, int step, std::int64_t it);
  bool received_ok(std::size_t offset, std::int64_t size, int step, std::int64_t it, int sender) const;

  MPI_Comm world_;
  int rank_ = 0;
  int nprocs_ = 0;
  const PatternSet& patterns_;
  std::array<const GridCommunicator*, 2> grids_;
  std::size_t length_ = 0;
  unsigned char* send_ = nullptr;
  unsigned char* recv_ = nullptr;
  std::size_t base_ = 0;
  std::vector<int> counts_send_, counts_recv_, displs_send_, displs_recv_;
};

}  // namespace pbench::comm
