#pragma once
// One b_eff_io run on every rank (METHODS.md section 2): for each access method (write, rewrite,
// read) and each partition (the first n ranks; release-2 sequencing) the five pattern types,
// each on its own file opened with the hints as MPI_Info, pattern by pattern: time-driven
// (types 0-2 write), size-driven (types 3-4 write, from the segment plan, cut by the time guard
// once a row has used k times its share unless --unguarded) or replaying the write's counts,
// cut ones included (rewrite, read). Every chunk is stamped and read back checked.
#include <functional>

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
  /// and skips the rest; the files are removed as after a complete run.
  IoRun(const worker::MpiSession& mpi, const IoConfig& config, PatternCallback on_pattern,
        worker::DeadlineWatch* deadline = nullptr);

  /// Measures (collective). Rank 0 gets everything; the other ranks get `failure` set when the
  /// run stopped on an error. The benchmark files are removed unless --keep, also on failure.
  IoMeasurements measure();

 private:
  const worker::MpiSession& mpi_;
  const IoConfig& config_;
  PatternCallback on_pattern_;
  worker::DeadlineWatch* deadline_;
};

}  // namespace pbench::io
