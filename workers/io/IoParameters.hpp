#pragma once
// The parameters of pbench-io (METHODS.md section 2): declared once (command line,
// PBENCH_<NAME>, --help, echo) and checked before MPI starts, so bad input ends every process
// alike with nothing written.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "common/MethodRules.hpp"
#include "io/HintSet.hpp"
#include "io/IoBuffer.hpp"
#include "io/Termination.hpp"
#include "io/TimeGuard.hpp"

namespace pbench::worker {
class Parameters;
}

namespace pbench::io {

/// The minimum scheduled time per partition, Tn = T / partitions, for an official b_eff_io: the
/// reference code rev 2.1 requires 1800 s (its T_CRIT; the paper says 15 minutes). Also the
/// default T, as the reference code's.
inline constexpr double kOfficialScheduleTime = worker::MethodRules::kIoPartitionTime;
/// Data reaches disk only when each access method moves this many times the cache.
inline constexpr double kCacheFactor = 20.0;

/// The options as given.
struct IoOptions {
  double schedule_time = kOfficialScheduleTime;  ///< T for all partitions [s]
  std::vector<int> partitions;                   ///< empty: the reference code's default set
  std::int64_t memory_per_proc = 0;              ///< [B]; 0: node memory / processes on it
  std::int64_t cache_bytes = 0;                  ///< [B]; 0: the node's physical memory
  std::string dir;                               ///< parent of the run directory; empty: cwd
  bool keep = false;
  bool rewrite_all = false;
  bool no_unique_open = false;
  std::string termination = "reference";
  std::vector<std::string> hint;
  std::string hints_file;
  bool inject_corruption = false;
  double guard_factor = kDefaultGuardFactor;
  bool unguarded = false;
  double test_collective_write_delay = 0;           ///< [s]
  std::vector<std::string> test_call_delay;         ///< "ACCESS:TYPE=SECONDS"
  double test_deletion_delay = 0;                   ///< [s per GB]
  std::int64_t buffer_offset = kRev21BufferOffset;  ///< [B] past a page boundary

  /// Declares every option on `parameters`, bound to the members above.
  void declare(worker::Parameters& parameters);
};

/// The options checked and converted to what a run uses.
struct IoConfig {
  double schedule_time = kOfficialScheduleTime;
  std::vector<int> partitions;  ///< as given (checked against the size at run time)
  std::optional<std::int64_t> memory_per_process;
  std::optional<std::int64_t> cache_bytes;
  std::string dir;
  bool keep = false;
  bool rewrite_all = false;
  bool unique_open = true;  ///< open with MPI_MODE_UNIQUE_OPEN, as the reference code does
  TerminationRule termination = TerminationRule::reference;
  HintSet hints;
  bool inject_corruption = false;
  /// k of the time guard (TimeGuard.hpp); nothing with --unguarded (b_eff_io rev 2.1's way).
  std::optional<double> guard_factor = kDefaultGuardFactor;
  /// Test only: a sleep before every collective write call of type 4 [s].
  double collective_write_delay = 0;
  /// Test only: a sleep before every call of a pattern type with an access method [s], keyed by
  /// (access: 0 write, 1 rewrite, 2 read; type).
  std::map<std::pair<int, int>, double> call_delays;
  /// Test only: a sleep in every deletion of the benchmark files (the read's and the probe's),
  /// this many seconds per GB (10^9 B) of the file [s].
  double deletion_delay = 0;
  /// Where the I/O buffer starts, in bytes past a page boundary (IoBuffer.hpp).
  std::int64_t buffer_offset = kRev21BufferOffset;

  /// Checks the options (and reads the hints file and PBENCH_HINT_* from `environment`);
  /// throws worker::UsageError naming the first problem.
  static IoConfig check(const IoOptions& options, char** environment);
  /// The partitions of a run with `size` processes: the given ones, or default_partitions(size);
  /// throws worker::UsageError for a partition > size.
  std::vector<int> partitions_for(int size) const;
};

/// Parses a --test-call-delay value "ACCESS:TYPE=SECONDS" (write, rewrite or read; type 0-4;
/// SECONDS >= 0) into ((access 0-2, type), seconds); throws worker::UsageError naming the problem.
std::pair<std::pair<int, int>, double> parse_call_delay(const std::string& text);

/// The reference code's default partition sizes for `size` processes: {1} for 1, {1, 2} for 2,
/// otherwise {2^round(0.35 log2 size), 2^round(0.70 log2 size), size} with 1 for the first when
/// size is 3 and 3 for the second when size is 4.
std::vector<int> default_partitions(int size);

}  // namespace pbench::io
