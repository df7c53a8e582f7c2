#pragma once
// What a worker's run costs the machine, counted as it goes (issue 36, item 3): the messages and
// bytes it sends, the collective calls it makes, its MPI-IO calls and bytes, and the passes of
// its measurement loops. The MPI calls are counted where they pass into MPI: MpiCost.cpp defines
// MPI_Send, MPI_Bcast, MPI_File_write_at, ... through the MPI profiling interface (each counts,
// then calls its PMPI_ twin), so every call of every worker is counted and none is missed by a
// new call site. The counts are exact, not sampled: the same run (the same loop lengths and
// repetitions) gives the same counts; wall time is measured beside them.
#include <cstdint>

#include <nlohmann/json.hpp>

namespace pbench::worker {

class MpiSession;

/// One process's counts (or, summed, a run's).
struct CostCounts {
  std::int64_t messages = 0;          ///< point-to-point messages sent (Alltoallv: one per peer)
  std::int64_t bytes = 0;             ///< their bytes
  std::int64_t collectives = 0;       ///< collective calls (each rank's call counts one)
  std::int64_t collective_bytes = 0;  ///< bytes each rank puts into them (a broadcast: the root's)
  std::int64_t io_calls = 0;          ///< MPI-IO read and write calls
  std::int64_t io_bytes = 0;          ///< their bytes
  std::int64_t loops = 0;             ///< passes of the measurement loops (count_loops())
};

/// This process's counts since MPI started.
const CostCounts& cost_counts();
/// Adds `passes` passes of a measurement loop (each timed repetition of the measured
/// operation) to this process's count; a worker calls it where its loops run.
void count_loops(std::int64_t passes);

/// The run's cost: every rank's counts summed and the longest rank's wall time since `start`
/// (MPI_Wtime) as {"messages", "bytes", "collectives", "collective_bytes", "io_calls",
/// "io_bytes", "loops", "wall_time"} (collective; the sums themselves are not counted).
nlohmann::json run_cost(const MpiSession& session, double start);

}  // namespace pbench::worker
