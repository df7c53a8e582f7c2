#pragma once
// What the batch schedulers (Slurm, PBS) share: finding their commands, time formats, and
// settling a finished job's outcome from the scheduler's word and the job's exit marker.
#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "schedulers/Scheduler.hpp"

namespace pbench::schedulers {

/// How long a scheduler command (sbatch, squeue, sacct, qsub, qstat, ...) may take.
inline constexpr std::chrono::milliseconds kCommandTimeout{60000};

/// Throws SchedulerError naming `command` and pointing to the local lab when it is not on PATH.
void require_command(const std::string& scheduler, const std::string& command);
/// The name of the user running pbench.
std::string user_name();
/// "HH:MM:SS" (hours may exceed 24) for a duration in seconds.
std::string format_hms(int seconds);
/// `text` without leading and trailing white space.
std::string trim(const std::string& text);
/// The message of a failed command: its stderr, else its stdout, trimmed, on one line.
std::string command_message(const process::ProcessResult& result);
/// Adds the exit marker's exit status, signal and times to a status the scheduler reported.
void add_exit_marker(JobStatus& status, const std::string& job_dir);
/// The status of a job the scheduler no longer knows: its exit marker decides; without one it
/// failed ("gone without an exit marker").
JobStatus status_of_gone_job(const JobRef& job, const std::string& scheduler);

/// How a batch scheduler spells the directives every one of them writes alike.
struct DirectiveSpelling {
  std::string prefix;   ///< "#SBATCH "
  std::string time;     ///< "--time="
  std::string account;  ///< "--account="
  std::string queue;    ///< "--partition="
};
/// Adds the directives that follow a job's resources, in `spelling`: its time limit, account
/// and queue (each when set; names quoted), then the site's extra directives.
void add_limit_directives(std::vector<std::string>& lines, const JobResources& r,
                          const DirectiveSpelling& spelling);

/// What the Slurm and PBS schedulers share: the commands they run go through `runner`, and
/// quiet sweeps are polled at most every 15 s (a busy controller has other clients).
class BatchScheduler : public Scheduler {
 public:
  explicit BatchScheduler(process::ProcessRunner& runner) : runner_(runner) {}
  std::chrono::milliseconds max_poll_interval() const override { return std::chrono::seconds(15); }

 protected:
  process::ProcessRunner& runner_;
};

}  // namespace pbench::schedulers
