#pragma once
// The parameters every worker takes besides its own: where the result goes and the run's
// deadline (--output, --deadline, --time-left, --deadline-margin).
#include <string>

#include "common/Deadline.hpp"
#include "common/Parameters.hpp"

namespace pbench::worker {

struct RunParameters {
  std::string output = "-";
  double deadline_at = 0;       ///< [s since the epoch]
  double time_left = 0;         ///< [s]
  double deadline_margin = -1;  ///< [s]; -1: a tenth of the time left, 1 to 60 s

  /// Declares the four parameters on `parameters`, bound to the members above.
  void declare(Parameters& parameters);
  /// The run's deadline (none when neither --deadline nor --time-left is given), `now` seconds
  /// since the epoch; throws UsageError naming the problem (a deadline past, no time left).
  Deadline deadline(double now) const;

 private:
  CLI::Option* deadline_option_ = nullptr;
  CLI::Option* time_left_option_ = nullptr;
};

}  // namespace pbench::worker
