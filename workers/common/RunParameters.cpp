#include "common/RunParameters.hpp"

#include <optional>

namespace pbench::worker {

void RunParameters::declare(Parameters& parameters) {
  parameters.add("output", output, "path",
                 "Where rank 0 writes the JSON result document; '-' is stdout (the readable "
                 "protocol then goes to stderr)");
  deadline_option_ = parameters.add(
      "deadline", deadline_at, "s since the epoch", Range{0, 1e10},
      "Stop before this time at a clean point and write what was measured as a partial result "
      "(not valid, exit 0); a job script sets it as PBENCH_DEADLINE");
  time_left_option_ = parameters.add(
      "time_left", time_left, "s", Range{0, 1e9},
      "Like --deadline, as seconds from the start (the earlier end wins when both are given)");
  parameters.add("deadline_margin", deadline_margin, "s", Range{-1, 86400},
                 "Time kept free before the deadline to write the result (io removes its files "
                 "after writing it); "
                 "-1: a tenth of the time left, 1 to 60 s");
}

Deadline RunParameters::deadline(double now) const {
  const auto given = [](const CLI::Option* option, double value) -> std::optional<double> {
    if (option == nullptr || option->count() == 0) return std::nullopt;
    return value;
  };
  std::string problem;
  const auto deadline =
      Deadline::from(given(deadline_option_, deadline_at), given(time_left_option_, time_left),
                     deadline_margin, now, problem);
  if (!deadline) throw UsageError(problem);
  return *deadline;
}

}  // namespace pbench::worker
