#pragma once
// The parameters of pbench-io (METHODS.md section 2): declared once (command line,
// PBENCH_<NAME>, --help, echo) and checked before MPI starts, so bad input ends every process
// alike with nothing written.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "io/HintSet.hpp"
#include "io/Termination.hpp"

namespace pbench::worker {
class Parameters;
}

namespace pbench::io {

/// The paper's minimum schedule time per partition for an official b_eff_io: 15 minutes.
inline constexpr double kOfficialScheduleTime = 900.0;
/// Data reaches disk only when each access method moves this many times the cache.
inline constexpr double kCacheFactor = 20.0;

/// The options as given.
struct IoOptions {
  double schedule_time = kOfficialScheduleTime;  ///< T per partition [s]
  std::vector<int> partitions;                   ///< empty: size/4, size/2, size
  std::int64_t memory_per_proc = 0;              ///< [B]; 0: node memory / processes on it
  std::int64_t cache_bytes = 0;                  ///< [B]; 0: the node's physical memory
  std::string dir;                               ///< parent of the run directory; empty: cwd
  bool keep = false;
  bool rewrite_all = false;
  std::string termination = "reference";
  std::vector<std::string> hint;
  std::string hints_file;
  bool inject_corruption = false;

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
  TerminationRule termination = TerminationRule::reference;
  HintSet hints;
  bool inject_corruption = false;

  /// Checks the options (and reads the hints file and PBENCH_HINT_* from `environment`);
  /// throws worker::UsageError naming the first problem.
  static IoConfig check(const IoOptions& options, char** environment);
  /// The partitions of a run with `size` processes: the given ones, or the default set
  /// {size/4, size/2, size} without repeats; throws worker::UsageError for a partition > size.
  std::vector<int> partitions_for(int size) const;
};

}  // namespace pbench::io
