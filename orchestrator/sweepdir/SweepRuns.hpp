#pragma once
// The runs of a sweep over time: starting the next one (`--again`) and recording, once its jobs
// have run, where and with which MPI they ran (the run's envelope).
#include "store/Store.hpp"

namespace pbench::run {

/// The envelope a run starts with (JSON): pbench_version and git_describe of this pbench.
std::string run_envelope_json();

/// Starts the next run of `sweep`: every point planned again, its attempts and results kept
/// apart as run N+1. Refuses (UsageError) while a driver runs the sweep or a point of it is
/// queued or running.
store::RunRecord start_next_run(store::Store& store, const store::SweepRecord& sweep);

/// Adds to the envelope of the sweep's latest run the hosts and MPI versions that its attempts
/// recorded where they ran (job.env).
void record_run_envelope(store::Store& store, const store::SweepRecord& sweep);

}  // namespace pbench::run
