#pragma once
// A point's time limit as its job script holds it: the scheduler's directive (#SBATCH --time,
// #PBS -l walltime) and the script's own copy (pbench_time_limit_s, for the worker's deadline).
// A retry after a time-out lengthens both in place.
#include <optional>
#include <string>

namespace pbench::run {

/// The time limit [s] a job script says (its pbench_time_limit_s line, else its #SBATCH --time
/// or #PBS -l walltime directive), if it says one above 0.
std::optional<int> script_time_limit(const std::string& script_path);

/// Sets a job script's time limit to `seconds`: its #SBATCH --time and #PBS -l walltime lines
/// and its pbench_time_limit_s line (written through a temporary file and a rename). Throws
/// UsageError when the script cannot be read or written.
void set_script_time_limit(const std::string& script_path, int seconds);

}  // namespace pbench::run
