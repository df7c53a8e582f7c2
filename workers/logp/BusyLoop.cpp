#include "logp/BusyLoop.hpp"

#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace pbench::logp {

namespace {
// Where the loop's result goes, so the chain has an observable effect.
volatile std::uint64_t busy_sink = 0;
}  // namespace

BusyLoop::BusyLoop(double iterations_per_second, std::vector<CalibrationTrial> trials)
    : rate_(iterations_per_second), trials_(std::move(trials)) {
  if (!(rate_ > 0) || !std::isfinite(rate_)) {
    throw std::invalid_argument("BusyLoop: the rate must be a positive number");
  }
}

void BusyLoop::spin(std::uint64_t iterations) {
  std::uint64_t x = busy_sink | 1;
  for (std::uint64_t i = 0; i < iterations; ++i) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    // An empty statement the compiler must assume reads and changes x: no vectorising, no
    // closed form.
    asm volatile("" : "+r"(x));
  }
  busy_sink = x;
}

BusyLoop BusyLoop::calibrate(double trial_seconds, int trials) {
  // Grow the count until one run takes a measurable time, then scale it to the trial length.
  std::uint64_t iterations = 1024;
  double elapsed = 0;
  for (;;) {
    const double start = MPI_Wtime();
    spin(iterations);
    elapsed = MPI_Wtime() - start;
    if (elapsed >= trial_seconds / 8 || iterations > (1ULL << 40)) break;
    iterations *= 4;
  }
  if (elapsed > 0) {
    iterations = std::max<std::uint64_t>(
        1024, static_cast<std::uint64_t>(static_cast<double>(iterations) * trial_seconds / elapsed));
  }
  std::vector<CalibrationTrial> runs;
  double best = 0;
  for (int t = 0; t < std::max(trials, 1); ++t) {
    const double start = MPI_Wtime();
    spin(iterations);
    const double seconds = MPI_Wtime() - start;
    runs.push_back({iterations, seconds});
    if (seconds > 0) best = std::max(best, static_cast<double>(iterations) / seconds);
  }
  if (!(best > 0)) throw std::runtime_error("busy loop calibration measured no time");
  return BusyLoop(best, std::move(runs));
}

std::uint64_t BusyLoop::iterations_for(double seconds) const {
  if (!(seconds > 0)) return 0;
  return static_cast<std::uint64_t>(std::llround(seconds * rate_));
}

double BusyLoop::seconds_for(std::uint64_t iterations) const {
  return static_cast<double>(iterations) / rate_;
}

}  // namespace pbench::logp
