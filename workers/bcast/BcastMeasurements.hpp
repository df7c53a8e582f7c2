#pragma once
// What a bcast run measured, on rank 0: per message size the per-process gaps, RTL_i and E_i of
// every task, and the classic methods, each as a series of measurements (seconds per
// repetition) that the stop rule ended.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "bcast/BcastParameters.hpp"
#include "bcast/BroadcastShape.hpp"
#include "bcast/MeasurementSeries.hpp"

namespace pbench::bcast {

struct TaskMeasurements {
  int task = 0;           ///< rank i != root
  MeasurementSeries rtl;  ///< RTL_i, round-trip time root <-> i [s]
  MeasurementSeries e;    ///< E_i, time per {broadcast; acknowledgement from i} [s]
};

struct SizeMeasurements {
  std::int64_t size = 0;  ///< [B]
  /// The delivery check from every root r (index r): how many ranks ended with wrong bytes.
  std::vector<int> delivery_errors;
  std::vector<MeasurementSeries> gaps;  ///< g_j per rank j; g_root is the send latency
  std::vector<TaskMeasurements> tasks;  ///< every rank i != root, in rank order
  MeasurementSeries rounds;   ///< broadcast rounds, time per broadcast, largest over processes
  MeasurementSeries barrier;  ///< broadcast-barrier, time per pair, largest over processes
  MeasurementSeries ack;      ///< broadcast-acknowledge, time per broadcast, at the root
};

struct BcastMeasurements {
  BcastParameters parameters;
  int nprocs = 1;
  std::vector<std::string> rank_hosts;  ///< host of every rank, rank i at index i (may be empty)
  StopRule rule;
  std::optional<BroadcastShape> shape;  ///< of the implementation, when known
  std::vector<SizeMeasurements> sizes;
  double seconds = 0;  ///< wall time of the measurement
};

}  // namespace pbench::bcast
