#pragma once
// One pattern type of one access method on one partition of a b_eff_io run, by phase: its file
// set up and opened, then each pattern row (planned from the schedule and the time plan, its view
// set, its calls made by RowCalls, the file position moved past its data, its figures gathered
// and recorded), then the file closed and, after the read, deleted.
#include <mpi.h>

#include <cstdint>
#include <string>

#include "io/RunState.hpp"

namespace pbench::io {

/// One pattern type of one access method on a partition, as it runs: its file and where its
/// rows' data goes.
struct TypeRun {
  Partition& p;
  Access access;
  int type;
  bool root = false;
  bool writing = false;
  int generation = 1;
  std::string path{};
  std::uint64_t identity = 0;
  HintList given{};
  MPI_Info info = MPI_INFO_NULL;
  MPI_File fh = MPI_FILE_NULL;
  std::int64_t etype_bytes = 1;
  bool doubles = false;
  MPI_Datatype etype = MPI_BYTE;
  bool view_set = false;     ///< types 1-4: the view is set in the first pattern's time, as rev 2.1
  std::int64_t segment = 0;  ///< types 3-4
  std::int64_t base = 0;     ///< where the next row starts: file offset or in the segment
  double open_time = 0;
  double my_total = 0;  ///< open + patterns + close (+ deletion) on this process
  TypeMeasurement tm{};

  /// "partition N, ACCESS, type T".
  std::string where() const {
    return "partition " + std::to_string(p.n) + ", " + access_name(access) + ", type " +
           std::to_string(type);
  }
};

/// Runs pattern type `type` of `access` on partition `p` (collective over the partition);
/// false when the run must stop (the deadline, or a failure every rank agreed on).
bool run_type(RunState& s, Partition& p, Access access, int type);

}  // namespace pbench::io
