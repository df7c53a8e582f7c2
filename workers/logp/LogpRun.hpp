#pragma once
// One logp measurement on every rank: busy-loop calibration, ping-pong (EEL), the flood sweep
// over queue depths and sizes, and the CPU overlap test for both sides. All pairs measure at the
// same time; every measurement starts after a barrier of the whole world (an idle rank joins).
#include <optional>
#include <string>

#include "common/Deadline.hpp"
#include "common/MpiSession.hpp"
#include "logp/BusyLoop.hpp"
#include "logp/Flood.hpp"
#include "logp/FloodPlan.hpp"
#include "logp/LogpMeasurements.hpp"
#include "logp/LogpParameters.hpp"
#include "logp/PairLayout.hpp"
#include "logp/PingPong.hpp"

namespace pbench::logp {

class LogpRun {
 public:
  /// A run over the session's world with checked parameters.
  /// With a `deadline`, the run stops at the clean points between EEL runs, flood repetitions
  /// and overlap sides when it says so (collective) and keeps what it measured.
  LogpRun(const worker::MpiSession& mpi, const LogpParameters& parameters,
          worker::DeadlineWatch* deadline = nullptr);

  /// Measures (collective); returns the measurements on rank 0, nothing elsewhere. With fewer
  /// than two processes nothing is measured and rank 0 gets an empty set.
  std::optional<LogpMeasurements> measure();

 private:
  // measure()'s phases: the busy loop calibrated on every rank at once, the EEL ping-pong, the
  // flood sweep (repetitions outermost); a deadline is asked at each phase's clean points.
  bool deadline_reached(const std::string& where) const;
  BusyLoop calibrate(LogpMeasurements& m, const PairLayout& layout) const;
  void measure_eel(LogpMeasurements& m, PairRole role, const PairLayout& layout,
                   PingPong& ping_pong) const;
  void measure_floods(LogpMeasurements& m, PairRole role, const PairLayout& layout,
                      const FloodPlan& plan, Flood* flood) const;
  const worker::MpiSession& mpi_;
  LogpParameters parameters_;
  worker::DeadlineWatch* deadline_;
};

}  // namespace pbench::logp
