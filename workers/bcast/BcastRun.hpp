#pragma once
// One bcast run on every rank: for each message size, a delivery check from every root (or a
// bounded spread of them), then the per-process gaps (and with them the send latency), then OL:
// --method oli runs OL_i for every task i != root; --method sync learns the clocks (ClockSync,
// re-learned when their predicted error exceeds the bound), runs one series of synchronized
// windows (SyncWindows) that gives every task's arrival, then OL_i for the k latest tasks and
// one random task (the cross-check); then broadcast rounds, broadcast-barrier and
// broadcast-acknowledge over their bounded samples. Each is repeated as measurements of M
// repetitions until the stop rule ends it. Rank 0 collects every measurement and decides when
// to stop, outside the timed loops.
#include <mpi.h>

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "bcast/BcastMeasurements.hpp"
#include "bcast/BcastParameters.hpp"
#include "bcast/SyncWindows.hpp"
#include "bcast/TimedLoops.hpp"
#include "common/Deadline.hpp"
#include "common/MpiSession.hpp"

namespace pbench::bcast {

class BcastRun {
 public:
  /// A run over the session's world with checked parameters (the root is a rank of it).
  /// With a `deadline`, the run stops before a message size when it says so (collective): the
  /// sizes measured are complete, the rest are missing.
  BcastRun(const worker::MpiSession& mpi, const BcastParameters& parameters,
           worker::DeadlineWatch* deadline = nullptr);

  /// Measures (collective); returns the measurements on rank 0, nothing elsewhere. With one
  /// process there is no task to broadcast to: rank 0 gets a set without sizes.
  std::optional<BcastMeasurements> measure();

 private:
  /// One value per process for each measurement: the k values `measure` returns on each rank.
  using PerRank = std::vector<std::vector<double>>;
  /// Repeats `measure` (collective, k values per rank) until `absorb` on rank 0, given every
  /// rank's values of one measurement, says all its series are stable, or the rule's maximum.
  /// Between measurements it asks the deadline (one message size can take longer than the
  /// margin: many repetitions, a large message, a slow network); false when the run stops
  /// there, at `where` and the measurement's number.
  bool repeat(MPI_Comm control, const std::string& where,
              const std::function<std::vector<double>()>& measure,
              const std::function<bool(const PerRank&)>& absorb) const;

  /// The delivery check of `s.size` from each of `roots` (collective).
  void check_delivery(SizeMeasurements& s, TimedLoops& loops, const std::vector<int>& roots,
                      MPI_Comm control) const;
  /// OL_i series for each of `tasks` (in order); false when the deadline stopped it.
  bool measure_ol_i(SizeMeasurements& s, TimedLoops& loops, const std::vector<int>& tasks,
                    MPI_Comm control, const std::string& at_size) const;
  /// The synchronized-clock series of `s.size` (re-learning the clocks as needed), then the
  /// tasks to cross-check (rank 0 picks them; every rank gets them); false when the deadline
  /// stopped it.
  bool measure_sync(SizeMeasurements& s, ClockSync& clock, SyncWindows& windows,
                    BcastMeasurements& m, MPI_Comm control, const std::string& at_size,
                    std::vector<int>& checked) const;
  /// Rank 0: the k latest tasks by the sync series, then one random task of the rest.
  std::vector<int> pick_checked(const SyncMeasurements& sync, std::uint64_t seed) const;
  /// The classic methods of `s.size`; false when the deadline stopped them.
  bool measure_classic(SizeMeasurements& s, TimedLoops& loops, const BcastMeasurements& m,
                       MPI_Comm control, const std::string& at_size) const;
  /// The final clock check, every rank's record gathered into `m` on rank 0 (collective).
  void gather_clocks(ClockSync& clock, BcastMeasurements& m, MPI_Comm control) const;

  const worker::MpiSession& mpi_;
  BcastParameters parameters_;
  StopRule rule_;
  worker::DeadlineWatch* deadline_;
};

}  // namespace pbench::bcast
