#pragma once
// The calibrated computation of the CPU overlap test: a dependent chain of integer operations
// that the compiler cannot remove or shorten, and its speed measured against MPI_Wtime so a busy
// time in seconds becomes a number of iterations.
#include <cstdint>
#include <vector>

namespace pbench::logp {

struct CalibrationTrial {
  std::uint64_t iterations = 0;
  double seconds = 0;
};

class BusyLoop {
 public:
  /// A loop that runs `iterations_per_second` iterations per second (> 0).
  explicit BusyLoop(double iterations_per_second, std::vector<CalibrationTrial> trials = {});

  /// Measures this process's speed: `trials` timed runs of about `trial_seconds` each; the
  /// fastest (least disturbed) sets the rate.
  static BusyLoop calibrate(double trial_seconds = 0.005, int trials = 5);

  /// Runs `iterations` iterations of the busy work.
  static void spin(std::uint64_t iterations);

  /// Iterations for a busy time of `seconds` (rounded to nearest, 0 for seconds <= 0).
  std::uint64_t iterations_for(double seconds) const;
  /// The busy time that `iterations` iterations take [s].
  double seconds_for(std::uint64_t iterations) const;
  /// The calibrated rate [1/s].
  double iterations_per_second() const { return rate_; }
  /// The calibration runs behind the rate (empty when the rate was given).
  const std::vector<CalibrationTrial>& trials() const { return trials_; }

 private:
  double rate_;
  std::vector<CalibrationTrial> trials_;
};

}  // namespace pbench::logp
