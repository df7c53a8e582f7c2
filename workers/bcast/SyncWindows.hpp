#pragma once
// The broadcasts of the synchronized-clock method (METHODS.md §5): rank 0 picks a start on the
// global clock (ClockSync) a little ahead and sends it; broadcast k starts at t_k = start +
// k * window: every rank waits for t_k on its model of the global clock, the root broadcasts,
// and each rank notes when the broadcast returned there (its arrival, the end point of the
// paper's OL_i) as arrival - t_k. A rank still busy, or woken late, at t_k by more than the
// tolerance (the clock's bound) misses the window, and a window any rank missed is spoiled for
// every rank (one max-reduction of M flags per measurement): the windows keep one broadcast
// from overlapping the next, which is what de Supinski's acknowledgements are for.
#include <mpi.h>

#include <cstdint>
#include <vector>

#include "bcast/Broadcaster.hpp"
#include "bcast/ClockSync.hpp"
#include "bcast/DuplicateComm.hpp"

namespace pbench::bcast {

/// One rank's figures of one measurement of M windows.
struct WindowFigures {
  double mean_arrival = 0;  ///< mean of arrival - t_k over the unspoiled windows [s]
  double longest = 0;       ///< the largest arrival - t_k over them [s]
  double latest = 0;        ///< the largest arrival - t_k over every window, spoiled or not [s]
  int spoiled = 0;          ///< windows any rank missed (the same on every rank)
  int missed = 0;           ///< windows this rank missed
};

class SyncWindows {
 public:
  /// Broadcasts with `broadcaster` from `root` on the global clock of `clock` (collective over
  /// a duplicate of `comm`); a rank more than `tolerance` seconds late misses a window.
  SyncWindows(MPI_Comm comm, Broadcaster& broadcaster, ClockSync& clock, int root,
              double tolerance);

  /// One measurement: `windows` broadcasts of `bytes` in windows of `window` seconds.
  WindowFigures measure(std::int64_t bytes, std::int64_t windows, double window);
  /// The window for broadcasts of `bytes` (collective): from 1 ms, doubled until the 3 pilot
  /// broadcasts fit in `factor` times less than it (a rank woken late on a loaded machine
  /// misses a window whatever its length, so missed windows do not lengthen it: the series
  /// counts them), then `factor` times the longest of them plus twice the tolerance (never
  /// below 100 us).
  double find_window(std::int64_t bytes, double factor);

  static constexpr double kFirstWindow = 1e-3;
  static constexpr double kLeast = 100e-6;

 private:
  DuplicateComm comm_;
  Broadcaster& broadcaster_;
  ClockSync& clock_;
  int root_;
  double tolerance_;
  std::vector<unsigned char> buffer_;
};

}  // namespace pbench::bcast
