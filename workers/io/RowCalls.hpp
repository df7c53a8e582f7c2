#pragma once
// One pattern row's calls (b_eff_io, IoRun): the loop of MPI-IO calls of the row's type and
// access method, each chunk stamped before a write and checked after a read (ChunkStamp.hpp), and
// the collective decision when to stop: the termination rule for a time-driven row, the planned
// count for the others, cut early by the time guard where it is on. Barrier, rank 0 reads its
// clock since the row's start and decides, the decision is broadcast, so every rank stops after
// the same call.
#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

#include "io/IoMeasurements.hpp"
#include "io/Termination.hpp"
#include "io/TimeGuard.hpp"

namespace pbench::io {

/// Where the row's data lies and how its calls move it.
struct RowCallSpec {
  MPI_File file = MPI_FILE_NULL;
  MPI_Comm comm = MPI_COMM_NULL;  ///< the partition
  std::string path;               ///< for messages
  int type = 0;
  Access access = Access::write;
  int partition = 1;  ///< n, the processes of the partition
  int rank = 0;       ///< k, this process's rank in it
  int generation = 1;
  std::uint64_t identity = 0;
  std::int64_t base = 0;        ///< where the row starts: file offset (types 0-2) or in the segment
  std::int64_t segment = 0;     ///< types 3-4: each process's segment [B]
  std::int64_t disk_chunk = 0;  ///< l
  std::int64_t memory_chunk = 0;  ///< L, bytes per call
  MPI_Datatype etype = MPI_BYTE;
  std::int64_t etype_bytes = 1;
  std::byte* data = nullptr;  ///< the buffer, L bytes

  Drive drive = Drive::single;
  std::int64_t count = 1;  ///< calls planned (not for a time-driven row)
  TerminationRule termination = TerminationRule::batched;
  double budget = 0;  ///< a time-driven row's share [s]
  CallTail sync_tail;
  /// The time guard of a row with a planned count; none: no guard.
  std::optional<TimeGuard> guard;
  double test_delay = 0;              ///< sleep before every call (--test-call-delay) [s]
  double collective_write_delay = 0;  ///< sleep before every collective write of type 4 [s]
};

/// What the calls did on this process.
struct RowCallOutcome {
  std::int64_t done = 0;          ///< calls made: where the file's data goes on
  std::int64_t succeeded = 0;     ///< calls that moved all their bytes
  std::int64_t failed_calls = 0;  ///< calls that failed or moved less
  std::int64_t errors = 0;        ///< chunks whose read check failed
  bool cut = false;               ///< the time guard stopped the row
};

/// The file offset of chunk `j` of call `call` of the row.
std::int64_t chunk_offset(const RowCallSpec& row, std::int64_t call, std::int64_t j);

/// Makes the row's calls, `started` being the row's start on rank 0's clock (after its barrier);
/// the first failure of a call on this process goes into `failure` (the row goes on to its
/// collective end, so that every rank can agree to stop).
RowCallOutcome run_row_calls(const RowCallSpec& row, double started,
                             std::optional<std::string>& failure);

}  // namespace pbench::io
