#pragma once
// How a job starts the MPI worker inside its allocation (apart from the scheduler).
#include <string>
#include <vector>

namespace pbench::schedulers {

/// The launch line for `nprocs` processes of `worker_argv` with the launcher called `name`
/// ("mpiexec", "srun"); throws UsageError for an unknown launcher.
std::vector<std::string> launch_command(const std::string& name, int nprocs,
                                        const std::vector<std::string>& worker_argv);
/// The launchers pbench knows.
std::vector<std::string> launcher_names();

}  // namespace pbench::schedulers
