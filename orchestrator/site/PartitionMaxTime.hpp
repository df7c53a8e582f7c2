#pragma once
// The longest time limit a job may ask for, as the scheduler tells it: Slurm's partition
// MaxTime (`sinfo -h -o "%P %l"`), PBS's queue resource_max.walltime (`qstat -Qf QUEUE`). A
// plan cuts a limit past it and says so before anything is submitted.
#include <optional>
#include <string>

#include "process/ProcessRunner.hpp"

namespace pbench::site {

struct ToldMaxTime {
  int seconds = 0;
  std::string source;  ///< "sinfo: MaxTime of partition batch"
};

/// What `scheduler` (slurm or pbs) tells of `queue` (empty: its default partition); nothing
/// when its command is not here, fails, or says the time is unlimited.
std::optional<ToldMaxTime> partition_max_time(process::ProcessRunner& runner,
                                              const std::string& scheduler,
                                              const std::string& queue);

/// From `sinfo -h -o "%P %l"` output: the line of `queue` (empty: the default, marked '*').
std::optional<ToldMaxTime> max_time_of_sinfo(const std::string& output, const std::string& queue);
/// From `qstat -Qf` output: resource_max.walltime of the queue shown.
std::optional<ToldMaxTime> max_time_of_qstat(const std::string& output, const std::string& queue);

}  // namespace pbench::site
