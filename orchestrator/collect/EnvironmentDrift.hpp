#pragma once
// Runs of one sweep are one definition run again (--again refuses options that would change
// it), but a worker parameter can still come from the environment (PBENCH_<NAME>, recorded in
// the result as "source": "environment"). When such values differ between the runs of a sweep,
// their figures are not of one definition: `run` and `status` say so in a warning line.
#include <string>
#include <vector>

#include "store/Store.hpp"

namespace pbench::run {

/// One line per worker parameter that came from the environment in some stored result of
/// `sweep` and has values that differ between its runs: "logp parameter eel_runs came from the
/// environment (PBENCH_EEL_RUNS) with values that differ between runs: 10 in run 1, 20 in
/// run 2". Only the settings that define a result count (the store's view result_settings: not
/// the job's deadline, output path or drawn seed, nor bcast's synthetic hop delay).
std::vector<std::string> environment_drift(store::Store& store, const store::SweepRecord& sweep);

}  // namespace pbench::run
