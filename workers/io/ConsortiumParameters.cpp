#include "io/ConsortiumParameters.hpp"

#include "common/Parameters.hpp"
#include "common/WorkerMain.hpp"

namespace pbench::io {

using worker::UsageError;

namespace {

/// The consortium's underscore spelling as a second command-line name ("" for one word).
std::string underscore_flag(const std::string& name) {
  return name.find('_') == std::string::npos ? "" : "--" + name;
}

/// A word.
CLI::Option* add(worker::Parameters& parameters, const std::string& name, std::string& value,
                 const std::string& help) {
  return parameters.add(name, value, "", help, underscore_flag(name));
}

/// A number in `range`.
template <class T>
CLI::Option* add(worker::Parameters& parameters, const std::string& name, T& value,
                 const std::string& unit, worker::Range range, const std::string& help) {
  return parameters.add(name, value, unit, range, help, underscore_flag(name));
}

/// A switch the consortium's way: 1 on, 0 off.
void add_switch(worker::Parameters& parameters, const std::string& name, int& value,
                const std::string& help) {
  add(parameters, name, value, "", worker::Range{0, 1}, help);
}

/// A size in bytes (the unit "B" reads units too: 4096, 64KiB, 1MiB, 1MB), from `least` to 1 PiB.
void add_size(worker::Parameters& parameters, const std::string& name, std::int64_t& value,
              std::int64_t least, const std::string& help) {
  add(parameters, name, value, "B", worker::Range{static_cast<long double>(least), 0x1p50L}, help);
}

}  // namespace

void ConsortiumOptions::declare(worker::Parameters& parameters) {
  add(parameters, "suite", suite,
      "Which suite: 'b_eff_io' (Rabenseifner & Koniges) or 'consortium' (Parallel I/O "
      "Benchmarking Consortium: sustained write, cached write, sustained read)");
  add(parameters, "filename", filename,
      "consortium: base name of the benchmark files in the run directory (no '/')");
  add_switch(parameters, "collective", collective,
             "consortium: 1 for MPI-IO collective calls, 0 for independent ones");
  add(parameters, "pattern", pattern,
      "consortium: access pattern: segmented, strided, random (random transfer sizes) or "
      "general (random and strided after a header)");
  add_size(parameters, "header_bytes", header_bytes, 0,
           "consortium: bytes at the start of the file left untouched (skews block alignment)");
  add_size(parameters, "transfer_size", transfer_size, 1,
           "consortium: bytes per I/O call (random, general: the largest transfer)");
  add_size(parameters, "block_size", block_size, 1,
           "consortium: contiguous bytes of one process per segment");
  add(parameters, "segment_count", segment_count, "count", worker::Range{1, 1e12},
      "consortium: segments in the file (segmented: 1)");
  add_size(parameters, "padding", padding, 0,
           "consortium: hole after each segment; the stride is the segment plus the padding");
  add(parameters, "random_seed", random_seed, "", worker::Range{0, 18446744073709551615.0L},
      "consortium: seed of the random transfer sizes; 0: drawn at run time (recorded)");
  add_switch(parameters, "file_per_process", file_per_process,
             "consortium: 1 for one file per process, 0 for one shared file");
  add(parameters, "api", api,
      "consortium: 'mpiio' (MPI-IO; hints apply) or 'posix' (open, pwrite/pread, fsync, close)");
  add_switch(parameters, "small_files", small_files,
             "consortium: 1 to run the many-small-files test too (create, stat, open/close, "
             "remove rates in a shared and in per-process directories)");
  add(parameters, "files_per_process", files_per_process, "count", worker::Range{0, 1e7},
      "consortium: small files each process creates");
  add_size(parameters, "small_file_size", small_file_size, 0,
           "consortium: bytes written into each small file");
  add(parameters, "iterations", iterations, "count", worker::Range{1, 1e6},
      "consortium: repetitions of each test; the maximum transfer rate is reported");
  add_switch(
      parameters, "drop_caches", drop_caches,
      "consortium: 1 to sync and write 3 to /proc/sys/vm/drop_caches on every node "
      "before each sustained read (needs root on a dedicated node); when that fails the result "
      "warns that the read may measure the cache");
  add_switch(
      parameters, "preallocate", preallocate,
      "consortium: 1 to create each write test's file and reserve its space "
      "(MPI_File_preallocate, POSIX: posix_fallocate) before the timing, so that the timed "
      "open, write and close use preallocated space; 0: a new file is created inside the timing");
}

ConsortiumConfig ConsortiumConfig::check(const ConsortiumOptions& options) {
  ConsortiumConfig c;
  if (options.suite == "b_eff_io") {
    c.suite = IoSuite::b_eff_io;
  } else if (options.suite == "consortium") {
    c.suite = IoSuite::consortium;
  } else {
    throw UsageError("--suite: '" + options.suite + "' is not a suite (b_eff_io or consortium)");
  }
  if (options.filename.empty() || options.filename.find('/') != std::string::npos) {
    throw UsageError("--filename: '" + options.filename +
                     "' is not a plain file name (the files go in the run directory; --dir "
                     "chooses where)");
  }
  c.filename = options.filename;
  c.collective = options.collective != 0;
  c.file_per_process = options.file_per_process != 0;
  if (options.iterations < 1) throw UsageError("--iterations: must be >= 1");
  c.iterations = options.iterations;
  c.drop_caches = options.drop_caches != 0;
  c.preallocate = options.preallocate != 0;
  if (options.api != "mpiio" && options.api != "posix") {
    throw UsageError("--api: '" + options.api + "' is not an I/O interface (mpiio or posix)");
  }
  c.posix = options.api == "posix";
  if (c.posix && c.collective) {
    throw UsageError("--collective: collective calls need --api mpiio (POSIX I/O has none)");
  }
  c.small_files = options.small_files != 0;
  if (c.small_files && options.files_per_process < 1) {
    throw UsageError("--files-per-process: must be >= 1 for the small-files test (got " +
                     std::to_string(options.files_per_process) + ")");
  }
  if (options.small_file_size < 0) throw UsageError("--small-file-size: must be >= 0");
  c.files_per_process = options.files_per_process;
  c.small_file_size = options.small_file_size;
  const auto pattern = parse_pattern(options.pattern);
  if (!pattern) {
    throw UsageError("--pattern: '" + options.pattern +
                     "' is not a pattern (segmented, strided, random or general)");
  }
  c.layout.pattern = *pattern;
  c.layout.clients = 1;
  c.layout.header_bytes = options.header_bytes;
  c.layout.transfer_size = options.transfer_size;
  c.layout.block_size = options.block_size;
  c.layout.segment_count = options.segment_count;
  c.layout.padding = options.padding;
  c.layout.seed = options.random_seed;
  if (c.suite == IoSuite::consortium) {
    // The header against the stride needs the process count: checked again at run time.
    ConsortiumLayout one = c.layout;
    one.header_bytes = 0;
    if (options.header_bytes < 0) throw UsageError("--header-bytes: must be >= 0");
    if (const auto problem = one.problem()) throw UsageError(*problem);
  }
  return c;
}

}  // namespace pbench::io
