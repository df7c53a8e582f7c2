#pragma once
// A sweep's progress per partition size, with an estimate of the time its unfinished points
// still need (from the durations of its finished points).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "store/Store.hpp"

namespace pbench::run {

/// Points of one partition (size and shape: 4 as 4x1 and 4 as 2x2 are two) by state; cancelled
/// and timed-out points count as failed.
struct PartitionProgress {
  int partition = 0;
  int nodes = 0;  ///< the shape asked (nodes x procs_per_node); 0 when none was
  int procs_per_node = 0;
  int planned = 0;
  int queued = 0;
  int running = 0;
  int done = 0;
  int failed = 0;
  int finished_with_duration = 0;      ///< done points whose attempt has both times
  std::optional<double> mean_seconds;  ///< their mean run time (started to ended)
  /// Planned, queued and running points.
  int remaining() const { return planned + queued + running; }
};

struct SweepProgressReport {
  std::vector<PartitionProgress> partitions;  ///< ascending partition size, then nodes
  /// The run time the remaining points still need if they run one after another: each counts
  /// its partition's mean, or the sweep's mean over all finished points where its partition
  /// has none; empty when no point has finished (nothing to estimate from). 0 when none remain.
  std::optional<double> eta_seconds;
};

/// Counts a sweep's points per partition and shape and estimates the remaining time.
SweepProgressReport partition_progress(store::Store& store, std::int64_t sweep_id);

/// "4" for a partition without an asked shape, "4 (2x2)" with one.
std::string partition_label(const PartitionProgress& p);

/// "12s", "3m 20s", "1h 05m".
std::string format_duration(double seconds);

}  // namespace pbench::run
