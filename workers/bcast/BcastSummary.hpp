#pragma once
// The reduction of a bcast run (pure), per message size:
// - OL_i = E_i - RTL_i/2 per measurement; the figure is the mean over measurements (so it
//   equals mean(E_i) - mean(RTL_i)/2). OL = max_i OL_i, with the task i that gave it.
// - The assumption check (paper §4): the OL_i method is sound for task i when E_i exceeds the
//   broadcast gap g_j of every task j on i's broadcast path, the root and i included. With an
//   own implementation the path is known (BroadcastShape::path); with MPI_Bcast it is not, and
//   the largest g_j over all processes stands in for it.
// - Classic methods: send latency = g_root (the paper: this benchmark measures g_0); broadcast
//   rounds, broadcast-barrier and broadcast-acknowledge as measured.
// Validity, as the paper would judge it:
// - not valid: a figure whose measurements reached the maximum count without the 3% rule (the
//   paper discards such tests); wrong bytes delivered; the assumption failing for the task
//   that gives OL (the estimate itself then rests on a violated assumption; the paper argues it
//   always holds there); a figure that cannot be (physical_limits: an OL or OL_i <= 0, RTL_i/2
//   above E_i, disturbed round trips; an RTL_i, E_i, gap or classic latency <= 0), listed first;
//   one process only (no task to broadcast to).
// - warning: the assumption failing for any other task (its OL_i may be too high, OL is not
//   affected since a larger OL_i exists), and runs that deviate from the paper's method
//   (M < 100, a synthetic hop delay).
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "bcast/BcastMeasurements.hpp"
#include "common/PhysicalLimits.hpp"
#include "common/Stats.hpp"

namespace pbench::bcast {

/// OL_i from one measurement (or from means): E_i - RTL_i/2.
inline double ol_estimate(double e, double rtl) {
  return e - rtl / 2;
}

/// The largest gap g_j and the rank j that has it.
struct PathGap {
  double gap = 0;
  int rank = 0;
};
/// The largest gap over the ranks of `path` (absolute ranks; the first of equal ones); over
/// every rank when `path` is empty (the path is unknown).
PathGap gap_on_path(const std::vector<double>& gaps, const std::vector<int>& path);

/// The paper's condition for a sound OL_i: E_i exceeds the gap on i's path.
inline bool assumption_holds(double e, double gap) {
  return e > gap;
}

/// A figure of one method: statistics over measurements, and whether the 3% rule ended them.
struct Figure {
  worker::Stats stats;
  bool stable = false;
  std::size_t samples = 0;  ///< measurements x M
};

struct OlRow {
  int task = 0;
  Figure rtl;
  Figure e;
  worker::Stats ol;  ///< OL_i per measurement
  double gap = 0;    ///< largest g_j on the path [s]
  int gap_rank = 0;  ///< the j that gave it
  bool assumption_holds = true;
  std::optional<double> model;  ///< the hop-delay model of OL_i, with a synthetic delay
  /// Both RTL_i and E_i ended by the 3% rule.
  bool stable() const { return rtl.stable && e.stable; }
};

/// One task of the sync method's cross-check: its OL_i by both methods.
struct CheckRow {
  int task = 0;
  double sync = 0;     ///< the sync method's OL_i [s]
  double ol_i = 0;     ///< the OL_i method's [s]
  double allowed = 0;  ///< the largest difference that agrees: band x OL_i + clock error [s]
  bool agree = true;
  bool random = false;  ///< the random task (the others are the latest by the sync method)
};

/// The synchronized-clock figures of one size (--method sync).
struct SyncSummary {
  double window = 0;  ///< [s]
  std::int64_t windows = 0;
  std::int64_t spoiled = 0;
  std::vector<std::int64_t> missed;       ///< per rank
  std::vector<worker::Stats> arrivals;    ///< per rank: mean arrival per measurement [s]
  Figure ol;                              ///< the per-measurement OL series (the stop rule's)
  double predicted_error = 0;             ///< the clock's largest at the series' start [s]
  int learnings = 0;
  std::vector<CheckRow> checks;
  double spoiled_share() const {
    return windows > 0 ? static_cast<double>(spoiled) / static_cast<double>(windows) : 0;
  }
};

struct SizeSummary {
  std::int64_t size = 0;
  int delivery_errors = 0;  ///< (root, rank) pairs with wrong bytes, over every root
  std::vector<OlRow> rows;  ///< every task i != root, in rank order
  std::size_t argmax = 0;   ///< index into rows of the task that gives OL
  double ol = 0;            ///< [s]
  int ol_task = 0;
  std::vector<Figure> gaps;  ///< g_j per rank
  double max_gap = 0;
  int max_gap_rank = 0;
  Figure send;  ///< g_root
  Figure rounds;
  Figure barrier;
  Figure ack;
  std::optional<double> model_ol;  ///< max over tasks of the hop-delay model
  /// With --method sync: its figures; OL and its task above are then the sync method's
  /// (the largest mean arrival over the tasks), the rows the cross-checked tasks.
  std::optional<SyncSummary> sync;
  const OlRow& ol_row() const { return rows[argmax]; }
};

struct BcastSummary {
  std::vector<SizeSummary> sizes;
  std::string method = "oli";  ///< the method that gave OL
  /// With --method sync: the clock model's largest measured error over the ranks, after any
  /// learning and at the end of the run [s] (0 before any).
  double clock_error = 0;
  std::vector<std::string> invalid_reasons;
  std::vector<std::string> warnings;
};

/// The quantities of one size that no measurement can make <= 0: OL (with its task), every other
/// OL_i, RTL_i, E_i, the gaps g_j and the classic latencies (the figures measured).
worker::PhysicalLimits physical_limits(const SizeSummary& size);

/// The sync figures of `sm` into `s` (OL and its task from them), with their validity
/// reasons and warnings into `out` (SyncSummary.cpp).
void summarise_sync(const BcastMeasurements& m, const SizeMeasurements& sm, SizeSummary& s,
                    BcastSummary& out);
/// The clock's verdict over the run into `out` (its measured error against the bound).
void summarise_clock(const BcastMeasurements& m, BcastSummary& out);

/// Reduces the measurements (no size is summarised without a task i != root).
BcastSummary summarise(const BcastMeasurements& measurements);

}  // namespace pbench::bcast
