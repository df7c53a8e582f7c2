#pragma once
// pbench-io as a worker spec: parameters, checks before MPI, the run, the report.
#include "common/WorkerMain.hpp"

namespace pbench::io {

/// The spec run_worker runs for pbench-io.
worker::WorkerSpec io_worker_spec();

}  // namespace pbench::io
