#include "bcast/BcastParameters.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <set>

#include "bcast/Broadcaster.hpp"
#include "common/Units.hpp"

namespace pbench::bcast {

void BcastParameters::declare(worker::Parameters& parameters) {
  parameters.add("sizes", sizes, "B", "Message sizes, comma-separated");
  parameters.add("impl", impl, "",
                 "Broadcast implementation: mpi (MPI_Bcast), or the worker's own point-to-point "
                 "algorithms linear (i receives from i-1), backward (i receives from i+1), "
                 "binomial (ranks relative to the root)");
  parameters.add("root", root, "rank", worker::Range{0, 1e7}, "Root of the measured broadcasts");
  parameters.add("root_order", root_order, "",
                 "Root order of the broadcast-rounds method: forward (root, root+1, ...) or "
                 "backward (root, root-1, ...)");
  parameters.add("hop_delay_us", hop_delay_us, "us",
                 worker::Range{0, static_cast<long double>(kLargestHopDelayUs)},
                 "Synthetic delay before each send of the worker's own implementations, so a "
                 "broadcast's true latency is known (validation; not with --impl mpi)");
  parameters.add("repetitions", repetitions, "count", worker::Range{1, 1e7},
                 "Repetitions M of the timed operation per measurement");
  parameters.add("max_measurements", max_measurements, "count", worker::Range{2, 1e6},
                 "Measurements per figure at most; they repeat (at least 8, or this many if "
                 "fewer) until the standard deviation is below 3% of the mean");
  parameters.add("method", method, "",
                 "OL method: sync (one series of broadcasts started at one global time on "
                 "synchronized clocks, every task's arrival), oli (de Supinski's OL_i, one "
                 "series per task), auto (sync from " +
                     std::to_string(kSyncFromProcesses) + " processes, oli below)");
  parameters.add("check_tasks", check_tasks, "count", worker::Range{0, 1e6},
                 "With --method sync: the OL_i series also runs for this many tasks that the "
                 "sync method found latest, plus one random task (the cross-check)");
  parameters.add("agreement_band", agreement_band, "", worker::Range{0, 10},
                 "With --method sync: sync and OL_i agree for a checked task when they differ by "
                 "at most this fraction of OL_i plus the clock's measured error");
  parameters.add("classic_sample", classic_sample, "count", worker::Range{1, 1e6},
                 "Bound of the classic methods at scale: broadcast rounds cycle through this many "
                 "roots, broadcast-acknowledge takes this many tasks' acknowledgements, the "
                 "delivery check broadcasts from this many roots (every one when there are no "
                 "more)");
  parameters.add("clock_error_bound_us", clock_error_bound_us, "us", worker::Range{0, 1e9},
                 "With --method sync: the clock model's error bound; re-learned when its "
                 "predicted error exceeds it, not valid when its measured error does; a rank "
                 "later than this at a window's start misses the window");
  parameters.add("clock_fit_seconds", clock_fit_seconds, "s", worker::Range{0, 60},
                 "With --method sync: how long each pair of ranks spreads its clock fit points "
                 "(a longer fit learns the drift better)");
  parameters.add("max_missed_share", max_missed_share, "", worker::Range{0, 1},
                 "With --method sync: the largest share of windows that ranks may miss before "
                 "the result is not valid");
}

void BcastParameters::check() const {
  if (sizes.error()) throw worker::UsageError("--sizes: " + *sizes.error());
  // An empty value never reaches SizeList::parse (CLI11 default-constructs the list).
  if (sizes.sizes().empty()) throw worker::UsageError("--sizes: no size given");
  std::set<std::int64_t> seen;
  for (std::int64_t s : sizes.sizes()) {
    if (s < 1)
      throw worker::UsageError("--sizes: " + std::to_string(s) +
                               " is not a message size (each must be >= 1 B)");
    if (s > kLargestSize) {
      throw worker::UsageError("--sizes: " + std::to_string(s) +
                               " B exceeds the largest message, " + std::to_string(kLargestSize) +
                               " B");
    }
    if (!seen.insert(s).second)
      throw worker::UsageError("--sizes: " + std::to_string(s) + " appears twice");
  }
  if (!find_implementation(impl)) {
    throw worker::UsageError("--impl: unknown implementation '" + impl +
                             "' (known: " + implementation_names() + ")");
  }
  if (root < 0)
    throw worker::UsageError("--root: " + std::to_string(root) + " is not a rank (must be >= 0)");
  if (root_order != "forward" && root_order != "backward") {
    throw worker::UsageError("--root-order: '" + root_order + "' is neither forward nor backward");
  }
  if (!std::isfinite(hop_delay_us) || hop_delay_us < 0) {
    throw worker::UsageError("--hop-delay-us: " + units::short_number(hop_delay_us) +
                             " is not a delay (must be >= 0)");
  }
  if (hop_delay_us > kLargestHopDelayUs) {
    throw worker::UsageError("--hop-delay-us: " + units::short_number(hop_delay_us) +
                             " exceeds 10 s per hop");
  }
  if (hop_delay_us > 0 && !find_implementation(impl)->own) {
    throw worker::UsageError(
        "--hop-delay-us: a synthetic delay applies to the worker's own implementations "
        "(linear, backward, binomial), not to --impl " +
        impl);
  }
  if (repetitions < 1) throw worker::UsageError("--repetitions: must be >= 1");
  if (max_measurements < 2) {
    throw worker::UsageError(
        "--max-measurements: must be >= 2 (the 3% rule needs a standard deviation)");
  }
  if (method != "auto" && method != "sync" && method != "oli") {
    throw worker::UsageError("--method: '" + method + "' is none of sync, oli, auto");
  }
  if (check_tasks < 0) throw worker::UsageError("--check-tasks: must be >= 0");
  if (!std::isfinite(agreement_band) || agreement_band <= 0) {
    throw worker::UsageError("--agreement-band: " + units::short_number(agreement_band) +
                             " is not a fraction (must be > 0)");
  }
  if (classic_sample < 1) throw worker::UsageError("--classic-sample: must be >= 1");
  if (!std::isfinite(clock_error_bound_us) || clock_error_bound_us <= 0) {
    throw worker::UsageError(
        "--clock-error-bound-us: " + units::short_number(clock_error_bound_us) +
        " is not a bound (must be > 0)");
  }
  if (!std::isfinite(clock_fit_seconds) || clock_fit_seconds < 0 || clock_fit_seconds > 60) {
    throw worker::UsageError("--clock-fit-seconds: " + units::short_number(clock_fit_seconds) +
                             " is not a duration from 0 to 60 s");
  }
  if (!std::isfinite(max_missed_share) || max_missed_share < 0 || max_missed_share > 1) {
    throw worker::UsageError("--max-missed-share: " + units::short_number(max_missed_share) +
                             " is not a share from 0 to 1");
  }
}

std::string BcastParameters::method_for(int nprocs) const {
  if (method != "auto") return method;
  return nprocs >= kSyncFromProcesses ? "sync" : "oli";
}

void BcastParameters::check_for(int nprocs) const {
  if (root >= nprocs) {
    throw worker::UsageError("--root: " + std::to_string(root) + " is not a rank of " +
                             std::to_string(nprocs) + " process" + (nprocs == 1 ? "" : "es") +
                             " (must be < " + std::to_string(nprocs) + ")");
  }
}

std::int64_t BcastParameters::min_measurements() const {
  return std::min(kPaperMinMeasurements, max_measurements);
}

std::vector<std::string> BcastParameters::deviations() const {
  std::vector<std::string> out;
  if (repetitions < kPaperRepetitions) {
    out.push_back("repetitions M = " + std::to_string(repetitions) + " < " +
                  std::to_string(kPaperRepetitions) + ", the paper's M");
  }
  if (max_measurements < kPaperMinMeasurements) {
    out.push_back("max_measurements " + std::to_string(max_measurements) + " < " +
                  std::to_string(kPaperMinMeasurements) +
                  ": the paper's figures rest on 8 to 30 measurements");
  }
  if (hop_delay_us > 0) {
    out.push_back("synthetic hop delay of " + units::short_number(hop_delay_us) +
                  " us before each send of the " + impl +
                  " implementation: a validation run, not a measurement of a library's broadcast");
  }
  return out;
}

}  // namespace pbench::bcast
