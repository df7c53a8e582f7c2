#pragma once
// What an io run measures, handed from IoRun (rank 0) to the reduction and the report.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "common/Stats.hpp"
#include "io/HintSet.hpp"
#include "io/IoBuffer.hpp"
#include "io/PatternTable.hpp"
#include "io/Schedule.hpp"
#include "io/SegmentPlan.hpp"
#include "io/SharedDirectory.hpp"
#include "io/Termination.hpp"
#include "io/TimePlan.hpp"

namespace pbench::io {

enum class Access { write, rewrite, read };
inline constexpr Access kAccesses[] = {Access::write, Access::rewrite, Access::read};

/// "write", "rewrite", "read".
const char* access_name(Access access);

/// How a pattern's repetition count was decided.
enum class Drive { single, time, size, replay };
/// "single" (U = 0: one call), "time" (time-driven), "size" (segment plan), "replay" (the
/// write's count).
const char* drive_name(Drive drive);

/// One pattern row measured on one partition with one access method.
struct PatternMeasurement {
  int partition = 0;  ///< processes
  Access access = Access::write;
  int type = 0;
  int number = 0;                 ///< pattern number 0..42
  std::int64_t disk_chunk = 0;    ///< l [B]
  std::int64_t memory_chunk = 0;  ///< L [B]
  int time_units = 0;             ///< U
  double pattern_time = 0;        ///< scheduled T_pattern [s] (0 when U = 0)
  /// The share the run gave the row: T_pattern, or less where a guarded run's plan shrank it to
  /// keep what it cannot cut within T (TimePlan.hpp) [s].
  double planned_time = 0;
  /// What the plan held back, at the row's start, for the opens, closes, bookkeeping and
  /// deletion still to come (TimePlan::reserve; 0 when unguarded) [s].
  double held_back = 0;
  Drive drive = Drive::single;
  std::int64_t repetitions = 0;  ///< calls per process that moved all their bytes on every process
  /// The calls planned per process: 1 (single), the segment plan's count (size), the count
  /// written before (replay: the write's, or for a read of rewritten data the rewrite's); 0 for
  /// time-driven rows, which have no planned count.
  std::int64_t planned = 0;
  /// The time guard stopped the row before its planned count (repetitions < planned).
  bool cut = false;
  /// Of the pattern's time, the sync that ends a writing pattern (max over processes) [s].
  double sync_time = 0;
  std::int64_t bytes = 0;  ///< moved by all processes in calls that succeeded [B]
  worker::Stats time;      ///< per-process time of the pattern [s]; max is the pattern's
  /// Chunks whose stamp did not match on read, plus failed_calls.
  std::int64_t errors = 0;
  /// Calls (over all processes) that failed or moved less than asked: not in bytes or
  /// repetitions.
  std::int64_t failed_calls = 0;
  /// bytes / (maximum time over processes) [B/s].
  double bandwidth() const { return time.max > 0 ? static_cast<double>(bytes) / time.max : 0; }
};

/// One pattern type on one partition with one access method: its file from open to close.
struct TypeMeasurement {
  int partition = 0;
  Access access = Access::write;
  int type = 0;
  std::int64_t bytes = 0;  ///< all its patterns [B]
  double open_time = 0;    ///< max over processes [s]
  double close_time = 0;   ///< max over processes [s]
  /// Deleting the file(s) after the read's close (rev 2.1: its close with
  /// MPI_MODE_DELETE_ON_CLOSE); 0 for write and rewrite and with --keep [s].
  double delete_time = 0;
  /// open + all its patterns + close (+ deletion), max over processes [s].
  double total_time = 0;
  std::int64_t errors = 0;
  bool complete = true;  ///< every pattern ran (false when the run stopped inside it)
  /// bytes / total_time [B/s].
  double bandwidth() const { return total_time > 0 ? static_cast<double>(bytes) / total_time : 0; }
};

/// The hints in effect on one file (MPI_File_get_info), with what was asked for.
struct FileHints {
  int partition = 0;
  Access access = Access::write;
  int type = 0;
  std::string file;
  HintList given;
  HintList effective;
};

/// One partition's schedule and what it took.
struct PartitionTiming {
  int partition = 0;
  double schedule_time = 0;  ///< Tn = T / partitions [s]
  double elapsed = 0;        ///< wall time of its write, rewrite and read phases on rank 0 [s]
  double write_elapsed = 0;  ///< of which the write phase [s]
  std::optional<SegmentPlan> segment;
};

struct IoMeasurements {
  int nprocs = 0;
  ChunkSizes chunks;
  std::string memory_source;
  std::int64_t cache_bytes = 0;
  std::string cache_source;
  double schedule_time = 0;  ///< T for all partitions [s]
  Schedule schedule;         ///< how T was shared out
  bool unique_open = true;   ///< files opened with MPI_MODE_UNIQUE_OPEN
  TerminationRule termination = TerminationRule::reference;
  bool rewrite_all = false;
  /// k of the time guard; nothing when the run was unguarded (--unguarded).
  std::optional<double> guard_factor;
  /// Test only: the sleep before every collective write call of type 4 [s].
  double collective_write_delay = 0;
  /// Test only: sleeps before every call of (access 0-2, type) [s] (--test-call-delay).
  std::map<std::pair<int, int>, double> call_delays;
  /// Test only: sleep per GB in every deletion [s] (--test-deletion-delay).
  double deletion_delay = 0;
  /// The untimed deletion probe of a guarded run: bytes and seconds (0 when none ran).
  double probe_bytes = 0;
  double probe_time = 0;
  /// Why the deletion probe failed (rank 0; empty when it ran or none ran).
  std::string probe_problem;
  /// The plan's rates at the end of a guarded run: sync and deletion seconds per byte.
  std::optional<double> sync_per_byte;
  std::optional<double> deletion_per_byte;
  /// Where the run's time went, on rank 0's clock; its parts add up to `elapsed`.
  TimeAccount account;
  /// Where the I/O buffer started, in bytes past a page boundary (--buffer-offset).
  std::int64_t buffer_offset = kRev21BufferOffset;
  /// Wall time of the whole run on rank 0, from making its directory to removing its files (after
  /// a deadline stop: to the stop; the files are removed after the result is written) [s].
  double elapsed = 0;
  std::string directory;
  bool kept = false;
  bool corruption_injected = false;
  std::vector<int> partitions;
  /// Every hint given (environment, hints file, command line), with its scope and source.
  std::vector<Hint> hints;
  std::vector<PatternMeasurement> patterns;
  std::vector<TypeMeasurement> types;
  std::vector<FileHints> files;
  std::vector<PartitionTiming> timings;
  /// The error that stopped the run (rank 0 has the text; set on every rank when it stopped).
  std::optional<std::string> failure;
  /// Where the run stopped ("partition 2, write, type 0, pattern 3").
  std::string stopped_at;
  /// True when the deadline stopped the run (at stopped_at); the rest was not measured.
  bool deadline_stop = false;
  /// The untimed check that data written on one node reads back on another (rank 0).
  std::optional<ReadBackCheck> read_back;
};

}  // namespace pbench::io
