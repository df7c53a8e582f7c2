#pragma once
// The consortium suite's many-small-files test (METHODS.md section 3): every process creates
// (open, write, close), stats, opens and closes, and removes N small files, first all in one
// shared directory and then each in its own directory; each phase starts after a barrier and is
// timed per process. The rate of a phase is all files over the slowest process's time.
#include <cstdint>
#include <ostream>
#include <string>

#include "common/MpiSession.hpp"
#include "common/ResultDocument.hpp"

namespace pbench::io {

struct SmallFilesSettings {
  std::string directory;               ///< the run directory (exists, empty of small files)
  std::int64_t files_per_process = 0;  ///< N >= 1
  std::int64_t file_size = 0;          ///< [B] written into each file at creation
  int iterations = 1;
};

/// Where and why the test stopped early (a full file system, say); empty when it did not.
struct SmallFilesStop {
  std::string where;    ///< "small files, shared directory, iteration 0, create"
  std::string failure;  ///< at rank 0: the first failing rank's error naming the file
  bool stopped() const { return !where.empty(); }
};

/// Runs the test (collective); rank 0 adds the table "consortium_small_files" and the metrics
/// <phase>_rate (maximum over the completed iterations) to `result` and prints a line per phase.
/// A failed call stops the test on every rank after its phase: the files are removed and the
/// stop is returned (the phases completed before it are in the table).
SmallFilesStop measure_small_files(const worker::MpiSession& mpi,
                                   const SmallFilesSettings& settings,
                                   worker::ResultDocument& result, std::ostream& protocol);

}  // namespace pbench::io
