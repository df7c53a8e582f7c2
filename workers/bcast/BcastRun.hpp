#pragma once
// One bcast run on every rank: for each message size, a delivery check from every root, then
// the per-process gaps (and with them the send latency), OL_i for every task i != root,
// broadcast rounds, broadcast-barrier and broadcast-acknowledge; each repeated as measurements
// of M repetitions until the stop rule ends it. Rank 0 collects every measurement and decides when
// to stop, outside the timed loops.
#include <mpi.h>

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "bcast/BcastMeasurements.hpp"
#include "bcast/BcastParameters.hpp"
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

  const worker::MpiSession& mpi_;
  BcastParameters parameters_;
  StopRule rule_;
  worker::DeadlineWatch* deadline_;
};

}  // namespace pbench::bcast
