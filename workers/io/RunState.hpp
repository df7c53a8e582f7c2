#pragma once
// What the phases of one b_eff_io run share (IoRun.cpp sets the run up and walks the access
// methods and partitions; TypeRun.cpp runs each pattern type): the configuration, what has been
// measured so far, the pattern table and schedule, the buffer, the time plan and account, and the
// first local failure of an MPI call.
#include <mpi.h>

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>

#include "common/Deadline.hpp"
#include "common/MpiSession.hpp"
#include "io/IoBuffer.hpp"
#include "io/IoMeasurements.hpp"
#include "io/IoParameters.hpp"
#include "io/IoRun.hpp"
#include "io/PatternTable.hpp"
#include "io/Schedule.hpp"
#include "io/SegmentPlan.hpp"
#include "io/TimePlan.hpp"

namespace pbench::io {

/// One partition: the first n ranks of the world.
struct Partition {
  int n = 0;
  int index = 0;  ///< its place in the run's order (0 first): its account in the TimePlan
  MPI_Comm comm = MPI_COMM_NULL;  ///< MPI_COMM_NULL on ranks outside it
  int rank = -1;
  std::map<int, std::int64_t> repetitions;  ///< write calls per process, by pattern number
  /// Calls per process a later access replays, by pattern number: the write's, or fewer where
  /// the guard cut a rewrite (its data of generation 2 ends there).
  std::map<int, std::int64_t> replay;
  std::map<int, double> file_bytes;  ///< bytes written to each type's file(s), all processes
  std::optional<SegmentPlan> plan;
  std::set<int> rewritten;  ///< types whose data is of generation 2
  double elapsed = 0;
  double write_elapsed = 0;
};

struct RunState {
  RunState(const worker::MpiSession& session, const IoConfig& run_config,
           IoRun::PatternCallback on_pattern, worker::DeadlineWatch* watch)
      : mpi(session), config(run_config), callback(std::move(on_pattern)), deadline(watch) {}

  const worker::MpiSession& mpi;
  const IoConfig& config;
  IoRun::PatternCallback callback;
  worker::DeadlineWatch* deadline;
  IoMeasurements m;
  PatternTable table{kMinPartChunk};
  Schedule schedule;
  IoBuffer buffer;
  std::optional<std::string> local_failure;
  std::string failure_text;
  /// A guarded run's plan of its time (TimePlan.hpp); nothing when unguarded.
  std::optional<TimePlan> plan;
  TimeAccount account;
  double run_started = 0;

  /// Records the first local failure of an MPI call; true when `code` is success.
  bool check(int code, const std::string& what, const std::string& path);
  /// True when some rank of `comm` failed; rank 0 of `comm` then holds the first rank's text.
  bool agree_on_failure(MPI_Comm comm);
  /// The file of a pattern type on a partition (benchmark_file in the run's directory).
  std::string path_of(int partition, int type, int rank) const;
};

}  // namespace pbench::io
