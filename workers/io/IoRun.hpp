#pragma once
// One b_eff_io run on every rank (METHODS.md section 2): for each access method (write, rewrite,
// read) and each partition (the first n ranks; release-2 sequencing) the five pattern types,
// each on its own file opened with the hints as MPI_Info, pattern by pattern: time-driven
// (types 0-2 write), size-driven (types 3-4 write, from the segment plan) or replaying the
// counts written before (rewrite, read). Unless --unguarded, every row with a planned count is
// cut by the time guard once it has used k times its share, and the shares come from the run's
// plan of its time (TimePlan.hpp), which also records where the time went. Every chunk is
// stamped and read back checked.
#include <functional>
#include <string>
#include <vector>

#include "common/Deadline.hpp"
#include "common/MpiSession.hpp"
#include "io/IoMeasurements.hpp"
#include "io/IoParameters.hpp"

namespace pbench::io {

class IoRun {
 public:
  using PatternCallback = std::function<void(const PatternMeasurement&)>;

  /// A run over the session's world; `on_pattern` sees each pattern as it ends (rank 0).
  /// With a `deadline`, the run stops between pattern rows when the deadline says so (collective)
  /// and skips the rest; its files are then left for remove_benchmark_files() after the result
  /// is written (IoMeasurements::deadline_stop).
  IoRun(const worker::MpiSession& mpi, const IoConfig& config, PatternCallback on_pattern,
        worker::DeadlineWatch* deadline = nullptr);

  /// Measures (collective). Rank 0 gets everything; the other ranks get `failure` set when the
  /// run stopped on an error. The benchmark files are removed unless --keep, also on failure,
  /// but not after a deadline stop (see above).
  IoMeasurements measure();

 private:
  const worker::MpiSession& mpi_;
  const IoConfig& config_;
  PatternCallback on_pattern_;
  worker::DeadlineWatch* deadline_;
};

/// The path of a pattern type's file: shared by the partition's ranks, or for type 2 (separate
/// files) the rank's own.
std::string benchmark_file(const std::string& directory, int partition, int type, int rank);

/// Removes the files a run made in `directory` for `partitions` and then the directory (collective
/// over the world; each rank deletes its own type-2 files, rank 0 the shared ones).
void remove_benchmark_files(const worker::MpiSession& mpi, const std::string& directory,
                            const std::vector<int>& partitions);

}  // namespace pbench::io
