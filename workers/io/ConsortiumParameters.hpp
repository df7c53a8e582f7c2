#pragma once
// The consortium suite's parameters (METHODS.md section 3, seed 003 sections 6.3-6.4), named as
// the consortium proposes: each is --name-with-dashes or --name_with_underscores on the command
// line and PBENCH_<NAME> in the environment (the command line wins); checked before MPI starts.
#include <cstdint>
#include <string>

#include "io/ConsortiumPattern.hpp"

namespace pbench::worker {
class Parameters;
}

namespace pbench::io {

/// The suites of pbench-io.
enum class IoSuite { b_eff_io, consortium };

/// The consortium options as given.
struct ConsortiumOptions {
  std::string suite = "b_eff_io";
  std::string filename = "consortium";
  int collective = 0;
  std::string pattern = "segmented";
  std::int64_t header_bytes = 0;
  std::int64_t transfer_size = 1 << 20;
  std::int64_t block_size = 16 << 20;
  std::int64_t segment_count = 1;
  std::int64_t padding = 0;
  std::uint64_t random_seed = 0;
  int file_per_process = 0;
  int iterations = 1;
  int drop_caches = 0;
  int preallocate = 0;
  std::string api = "mpiio";
  int small_files = 0;
  std::int64_t files_per_process = 100;
  std::int64_t small_file_size = 1024;

  /// Declares every option on `parameters`, bound to the members above.
  void declare(worker::Parameters& parameters);
};

/// The consortium options checked.
struct ConsortiumConfig {
  IoSuite suite = IoSuite::b_eff_io;
  std::string filename;
  bool collective = false;
  bool file_per_process = false;
  bool posix = false;  ///< POSIX I/O (pread/pwrite/fsync) instead of MPI-IO
  int iterations = 1;
  bool drop_caches = false;            ///< drop the page cache before each sustained read
  bool preallocate = false;            ///< write tests write into space reserved before the timing
  bool small_files = false;            ///< run the many-small-files test too
  std::int64_t files_per_process = 0;  ///< small files per process
  std::int64_t small_file_size = 0;    ///< [B] per small file
  /// The layout for one client (clients is set at run time; seed 0: drawn at run time).
  ConsortiumLayout layout;

  /// Checks the options; throws worker::UsageError naming the first problem. Layout checks that
  /// do not depend on the process count are made here (with one client).
  static ConsortiumConfig check(const ConsortiumOptions& options);
};

}  // namespace pbench::io
