#pragma once
// One consortium-suite run on every rank (METHODS.md section 3): per iteration, the named tests
// sustained write (new file, MPI_File_sync inside the timing), cached write (new file, no sync)
// and sustained read (of the sustained write's file, each process reading another process's
// data), each as barrier, then open, transfer and close timed per process with MPI-IO
// (independent or collective calls) on one shared file or one file per process. Rank 0 writes
// the per-process times, the statistics over processes and the transfer rates into the result.
#include <cstdint>
#include <ostream>

#include "common/Deadline.hpp"
#include "common/MpiSession.hpp"
#include "common/ResultDocument.hpp"
#include "io/ConsortiumParameters.hpp"
#include "io/ConsortiumTests.hpp"
#include "io/IoParameters.hpp"

namespace pbench::io {

class ConsortiumRun {
 public:
  ConsortiumRun(const worker::MpiSession& mpi, const IoConfig& io, const ConsortiumConfig& config);

  /// Measures (collective) and, on rank 0, fills `result` and prints the protocol. Throws
  /// worker::UsageError (every rank alike) for a layout that does not fit the process count, and
  /// worker::PartialResult (every rank) when a call failed (a full file system, say): the tests
  /// completed before it are in `result`, marked not valid with the reason, and the files are
  /// removed. With --drop-caches, one rank per node drops the caches before each sustained read;
  /// where that fails the result warns (once per reason) that the read may measure the cache.
  /// With a `deadline`, the run stops before a test when it says so (collective): the tests
  /// done are in `result`, the files are removed, and the worker writes a partial result.
  void measure(worker::ResultDocument& result, std::ostream& protocol,
               worker::DeadlineWatch* deadline = nullptr);

 private:
  // The result (rank 0), by part: the tests' table and every process's times, the buffers, the
  // transfer rates (with the protocol's lines), and the warnings and validity reasons.
  void write_tests(worker::ResultDocument& result, const ConsortiumLayout& layout,
                   const ConsortiumRuns& runs, std::int64_t bytes) const;
  void write_buffers(worker::ResultDocument& result, const ConsortiumTests& tests) const;
  void write_rates(worker::ResultDocument& result, std::ostream& protocol,
                   const ConsortiumLayout& layout, const ConsortiumRuns& runs,
                   std::int64_t total_bytes, bool caches_dropped) const;
  void judge(worker::ResultDocument& result, const ConsortiumTests& tests,
             const ConsortiumRuns& runs, std::int64_t total_bytes) const;

  const worker::MpiSession& mpi_;
  const IoConfig& io_;
  const ConsortiumConfig& config_;
};

}  // namespace pbench::io
