#pragma once
// How a job starts the MPI worker inside its allocation (apart from the scheduler).
#include <optional>
#include <string>
#include <vector>

namespace pbench::schedulers {

/// The launch line for `nprocs` processes of `worker_argv` with the launcher called `name`
/// ("mpiexec", "srun"); throws UsageError for an unknown launcher.
std::vector<std::string> launch_command(const std::string& name, int nprocs,
                                        const std::vector<std::string>& worker_argv);
/// The launchers pbench knows.
std::vector<std::string> launcher_names();

/// The signal ("KILL", "SEGV") that ended an MPI process, as its launcher reports it in the
/// job's output: mpiexec (Hydra) "... EXIT STRING: Killed (signal 9)" on stdout, srun
/// "srun: error: HOST: task 0: Killed" on stderr (the first such line: the others are the
/// launcher cleaning up). Empty when the output names none. A launcher that loses a rank to a
/// signal exits with a status of its own (mpiexec: the signal's number; srun -K: 128 + the
/// signal it sent the other ranks), so only this report says what killed the worker.
std::optional<std::string> launcher_reported_signal(const std::string& output);

}  // namespace pbench::schedulers
