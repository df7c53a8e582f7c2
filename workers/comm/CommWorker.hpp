#pragma once
// pbench-comm as a worker: its parameters, the --describe path before MPI, and the run.
#include "common/WorkerMain.hpp"

namespace pbench::comm {

/// The worker specification run_worker() runs.
worker::WorkerSpec comm_worker_spec();

}  // namespace pbench::comm
