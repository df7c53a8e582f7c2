#pragma once
// The consortium suite's timed tests as one process runs them (ConsortiumRun.hpp walks the
// iterations): the process's transfers and buffers set up once, then per test a barrier and the
// open, transfer and close timed with MPI-IO or POSIX, the untimed full read check, and every
// process's times gathered at rank 0. Around the timing, where asked: the file preallocated, the
// node's caches dropped, the data corrupted (test only). A failed call is recorded on its rank
// and the test goes on to its collective end, so every rank can agree to stop.
#include <mpi.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "common/MpiSession.hpp"
#include "io/ConsortiumParameters.hpp"
#include "io/ConsortiumPattern.hpp"
#include "io/IoBuffer.hpp"
#include "io/IoParameters.hpp"

namespace pbench::io {

enum class ConsortiumTest { sustained_write, cached_write, sustained_read };
inline constexpr ConsortiumTest kConsortiumTests[] = {
    ConsortiumTest::sustained_write, ConsortiumTest::cached_write, ConsortiumTest::sustained_read};

/// "sustained_write", "cached_write", "sustained_read".
const char* test_name(ConsortiumTest test);

/// The times of one process in one test [s].
struct ProcessTimes {
  double open = 0;
  double transfer = 0;  ///< write (with sync in sustained write) or read
  double close = 0;
  double total = 0;  ///< from before the open to after the close
};

/// One test: every process's times (at rank 0, empty elsewhere) and the read errors over all.
struct TestOutcome {
  std::vector<ProcessTimes> per_process;
  long long errors = 0;
};

/// The tests a run completed, in order, and where it stopped.
struct ConsortiumRuns {
  struct Done {
    ConsortiumTest test;
    int iteration;
    TestOutcome outcome;
    /// The test's aggregate time: open to close, the largest over processes [s].
    double aggregate() const {
      double most = 0;
      for (const ProcessTimes& p : outcome.per_process) most = most < p.total ? p.total : most;
      return most;
    }
  };
  std::vector<Done> done;
  std::string failure;     ///< at rank 0: the first failing rank's error
  std::string stopped_at;  ///< where the run stopped: "iteration 0, sustained_write"
};

class ConsortiumTests {
 public:
  /// Collective over the session's world: the transfers of `layout`, the buffers (the write's
  /// stamped), the node communicator for --drop-caches, the preallocated extent.
  ConsortiumTests(const worker::MpiSession& mpi, const IoConfig& io, const ConsortiumConfig& config,
                  const ConsortiumLayout& layout, std::string directory);

  /// Runs `test` of `iteration` (collective).
  TestOutcome run(ConsortiumTest test, int iteration);
  /// Frees the node communicator of --drop-caches (collective; after the last test).
  void finish();
  /// Removes every file the tests may have made, also those of a test that stopped half way
  /// (collective).
  void remove_files();

  /// The first failure of a call on this process, if any.
  const std::optional<std::string>& local_failure() const { return local_failure_; }
  /// Whether every drop of the caches succeeded (false without --drop-caches).
  bool caches_dropped() const { return caches_dropped_; }
  /// At rank 0: the distinct reasons a drop failed, in order.
  const std::vector<std::string>& drop_problems() const { return drop_problems_; }
  /// Bytes each process writes.
  std::int64_t bytes() const { return bytes_; }
  std::int64_t largest_read() const { return largest_read_; }
  const IoBuffer& out_buffer() const { return out_buffer_; }
  const IoBuffer& in_buffer() const { return in_buffer_; }

 private:
  std::string path_of(ConsortiumTest test, int iteration, int process) const;
  bool fail_mpi(int code, const std::string& what, const std::string& path);
  void fail_posix(const std::string& what, const std::string& path, const std::string& why);
  void drop_node_caches();
  void preallocate(const std::string& path, MPI_Comm fcomm);
  void corrupt(int iteration);
  /// The timed part of a test with POSIX or MPI-IO calls; `spot_errors` counts the first and
  /// last bytes of the reads that differ.
  ProcessTimes transfer_posix(ConsortiumTest test, const std::string& path, long long& spot_errors);
  ProcessTimes transfer_mpiio(ConsortiumTest test, const std::string& path, int amode,
                              long long& spot_errors);
  /// Checks the first and last byte of a read transfer as it ends.
  void spot_check(const unsigned char* data, const Transfer& t, long long& spot_errors) const;
  /// The untimed read check: every byte of the source's data read again [wrong bytes].
  long long read_check(const std::string& path);

  const worker::MpiSession& mpi_;
  const IoConfig& io_;
  const ConsortiumConfig& config_;
  std::string directory_;
  MPI_Comm comm_;
  int n_;
  int rank_;
  bool root_;
  bool fpp_;
  int source_;  ///< the process whose data this one reads: rank + 1 (mod n)
  std::vector<Transfer> mine_;
  std::vector<Transfer> theirs_;
  long long calls_ = 0;  ///< collective calls: as many as the process with the most transfers
  std::int64_t bytes_ = 0;
  IoBuffer out_buffer_;
  std::int64_t largest_read_ = 1;
  IoBuffer in_buffer_;
  HintList hints_;
  std::int64_t file_extent_ = 0;
  std::optional<std::string> local_failure_;
  MPI_Comm node_ = MPI_COMM_NULL;
  int node_rank_ = 0;
  bool caches_dropped_ = false;
  std::vector<std::string> drop_problems_;
};

}  // namespace pbench::io
