#include "logp/OverlapTest.hpp"

#include <algorithm>
#include <cmath>

#include "logp/OverlapAnalysis.hpp"
#include "logp/RankGather.hpp"

namespace pbench::logp {

OverlapTest::OverlapTest(MPI_Comm world, const PairLayout& layout, Flood* flood,
                         const BusyLoop& busy, std::size_t messages, int repetitions)
    : world_(world),
      layout_(layout),
      flood_(flood),
      busy_(busy),
      messages_(messages),
      repetitions_(std::max(repetitions, 1)) {}

double OverlapTest::measure(std::uint64_t busy_iterations) {
  MPI_Barrier(world_);
  const FloodPoint point{kMessageBytes, 1, messages_, busy_iterations};
  switch (layout_.role()) {
    case PairRole::sender:
      return flood_->send(point);
    case PairRole::receiver:
      flood_->receive(point);
      return 0;
    case PairRole::idle:
      break;
  }
  return 0;
}

double OverlapTest::measure_busy(std::uint64_t iterations) const {
  if (iterations == 0) return 0;
  // The fastest of a few short timings: a run interrupted by the scheduler says nothing.
  const double target = busy_.seconds_for(iterations);
  const auto calls = static_cast<int>(std::clamp(4e-5 / std::max(target, 1e-9), 4.0, 2000.0));
  double best = INFINITY;
  for (int run = 0; run < 5; ++run) {
    const double start = MPI_Wtime();
    for (int c = 0; c < calls; ++c) BusyLoop::spin(iterations);
    best = std::min(best, (MPI_Wtime() - start) / calls);
  }
  return best;
}

std::vector<OverlapRow> OverlapTest::run(OverlapSide side) {
  const bool is_sender = layout_.role() == PairRole::sender;
  const bool busy_here = (side == OverlapSide::send && layout_.role() == PairRole::sender) ||
                         (side == OverlapSide::recv && layout_.role() == PairRole::receiver);
  const double n = static_cast<double>(messages_);

  // Per rank, in measurement order: baseline totals, then per step the target, the measured
  // busy time and the repetitions' totals, then the closing baseline. Same length everywhere.
  std::vector<double> record;
  std::vector<double> baselines;
  for (int b = 0; b < kBaselines; ++b) {
    const double total = measure(0);
    record.push_back(total);
    baselines.push_back(total / n);
  }
  const double t0 = is_sender ? *std::min_element(baselines.begin(), baselines.end()) : 0.0;
  const double tolerance = overlap_tolerance(baselines);
  // The busy side learns its pair's t0 from the sender.
  const std::vector<double> t0_of_rank = gather_to_all(t0, world_);
  const double pair_t0 =
      layout_.role() == PairRole::idle
          ? 0.0
          : t0_of_rank[static_cast<std::size_t>(layout_.sender_of(layout_.pair()))];

  std::vector<OverlapPoint> steps;
  int step_count = 0;
  for (int k = 1; k <= kMaxSteps; ++k) {
    const double target = k * pair_t0 / kStepsPerBaseline;
    const std::uint64_t iterations = busy_here ? busy_.iterations_for(target) : 0;
    const double busy_seconds = busy_here ? measure_busy(iterations) : 0.0;
    record.push_back(target);
    record.push_back(busy_seconds);
    double best = INFINITY;
    for (int r = 0; r < repetitions_; ++r) {
      const double total = measure(iterations);
      record.push_back(total);
      best = std::min(best, total / n);
    }
    ++step_count;
    int more = 0;
    if (is_sender) {
      steps.push_back({target, best});
      more = clearly_increased(steps, t0, tolerance) ? 0 : 1;
    }
    int any_more = 0;
    MPI_Allreduce(&more, &any_more, 1, MPI_INT, MPI_LOR, world_);
    if (!any_more) break;
  }
  record.push_back(measure(0));

  const auto all = gather_to_root(record, world_);
  std::vector<OverlapRow> rows;
  for (int pair = 0; pair < layout_.pair_count() && !all.empty(); ++pair) {
    const auto& times = all[static_cast<std::size_t>(layout_.sender_of(pair))];
    const int busy_rank =
        side == OverlapSide::send ? layout_.sender_of(pair) : layout_.receiver_of(pair);
    const auto& busy = all[static_cast<std::size_t>(busy_rank)];
    std::size_t i = 0;
    for (int b = 0; b < kBaselines; ++b, ++i) {
      rows.push_back({pair, side, 0, b, 0.0, 0.0, messages_, times[i]});
    }
    for (int k = 1; k <= step_count; ++k) {
      const double target = times[i];  // the sender's record holds the target too
      const double measured = busy[i + 1];
      i += 2;
      for (int r = 0; r < repetitions_; ++r, ++i) {
        rows.push_back({pair, side, k, r, target, measured, messages_, times[i]});
      }
    }
    rows.push_back({pair, side, 0, kBaselines, 0.0, 0.0, messages_, times[i]});
  }
  return rows;
}

}  // namespace pbench::logp
