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
#include "bcast/ClockSync.hpp"
#include "bcast/MeasurementSeries.hpp"

namespace pbench::bcast {

struct TaskMeasurements {
  int task = 0;           ///< rank i != root
  MeasurementSeries rtl;  ///< RTL_i, round-trip time root <-> i [s]
  MeasurementSeries e;    ///< E_i, time per {broadcast; acknowledgement from i} [s]
};

/// The synchronized-clock series of one size (--method sync).
struct SyncMeasurements {
  double window = 0;              ///< [s]
  std::int64_t windows = 0;       ///< windows run (measurements x M)
  std::int64_t spoiled = 0;       ///< windows some rank missed (left out of every mean)
  std::vector<std::int64_t> missed;  ///< windows each rank missed, rank j at index j
  /// Per rank j, per measurement: the mean of arrival - t_k over its unspoiled windows [s].
  std::vector<MeasurementSeries> arrivals;
  /// Per measurement: the largest of those over the tasks != root (OL of the measurement).
  MeasurementSeries ol;
  double predicted_error = 0;  ///< the clock's largest predicted error at the series' start [s]
  int learnings = 0;           ///< clock learnings before this size's series (cumulative)
  std::vector<int> checked;    ///< the tasks the OL_i cross-check ran for, latest first
  int random_task = -1;        ///< the random one among them (-1: none left to pick)
};

struct SizeMeasurements {
  std::int64_t size = 0;  ///< [B]
  /// The roots of the delivery check (every rank, or a spread sample: --classic-sample).
  std::vector<int> delivery_roots;
  /// The delivery check from delivery_roots[k] (index k): how many ranks ended with wrong bytes.
  std::vector<int> delivery_errors;
  std::vector<MeasurementSeries> gaps;  ///< g_j per rank j; g_root is the send latency
  /// OL_i: every rank i != root, in rank order; with --method sync the checked tasks.
  std::vector<TaskMeasurements> tasks;
  std::optional<SyncMeasurements> sync;  ///< with --method sync
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
  std::string method = "oli";  ///< the method that ran (--method resolved for nprocs)
  std::vector<int> round_roots;  ///< broadcast rounds' roots, in order
  std::vector<int> ack_tasks;    ///< the tasks that acknowledge in broadcast-acknowledge
  /// With --method sync: every rank's clock at the end of the run (rank j at index j) and the
  /// largest measured error right after each learning [s].
  std::vector<ClockRecord> clocks;
  std::vector<double> learned_errors;
  int learnings = 0;
  std::uint64_t seed = 0;  ///< of the random cross-check task
  double seconds = 0;  ///< wall time of the measurement
};

}  // namespace pbench::bcast
