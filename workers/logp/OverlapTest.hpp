#pragma once
// The CPU overlap test (Bell et al. §4.3) on every pair at once: the flood code at 8 bytes and
// q = 1, first without busy work (baselines, t0), then with busy work of k * t0 / 16 per message,
// k = 1, 2, ... up to 2 * t0, on the sending side (o_s) or the receiving side (o_r). Stops early
// once every pair's time per message has clearly increased (two steps in a row above the
// tolerance). A last baseline after the steps shows drift. Times are taken on the sender.
#include <mpi.h>

#include <cstddef>
#include <vector>

#include "logp/BusyLoop.hpp"
#include "logp/Flood.hpp"
#include "logp/LogpMeasurements.hpp"
#include "logp/PairLayout.hpp"

namespace pbench::logp {

class OverlapTest {
 public:
  static constexpr int kBaselines = 3;        ///< baselines before the steps (one more after)
  static constexpr int kStepsPerBaseline = 16;  ///< busy step = t0 / 16
  static constexpr int kMaxSteps = 32;        ///< up to 2 * t0
  static constexpr std::size_t kMessageBytes = 8;

  /// The test on `world` for this rank's place in `layout`; `flood` is null on an idle rank.
  OverlapTest(MPI_Comm world, const PairLayout& layout, Flood* flood, const BusyLoop& busy,
              std::size_t messages, int repetitions);

  /// Runs the test for one side (collective over `world`); returns the rows on rank 0 (empty
  /// elsewhere).
  std::vector<OverlapRow> run(OverlapSide side);

 private:
  /// One synchronised measurement; the sender's elapsed time (0 on the other ranks).
  double measure(std::uint64_t busy_iterations);
  /// Measures how long `iterations` of the busy loop really take per call [s].
  double measure_busy(std::uint64_t iterations) const;

  MPI_Comm world_;
  PairLayout layout_;
  Flood* flood_;
  BusyLoop busy_;
  std::size_t messages_;
  int repetitions_;
};

}  // namespace pbench::logp
