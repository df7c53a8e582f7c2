#pragma once
// A batch system as pbench sees it: submit a job script, poll many jobs in one call, cancel.
// Launching MPI inside the job is the Launcher's business, not the scheduler's.
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "process/ProcessRunner.hpp"

namespace pbench::schedulers {

/// The canonical job states every scheduler's native states map to.
enum class JobState { queued, running, completed, failed, cancelled, timeout };

struct JobSubmission {
  std::string script_path;
  std::string job_dir;  ///< where the script writes job.pid, exit.json, its result and logs
  std::string stdout_path;
  std::string stderr_path;
};

struct JobRef {
  std::string job_id;
  std::string job_dir;
};

struct JobStatus {
  std::string job_id;
  JobState state = JobState::queued;
  std::string native_state;
  std::optional<int> exit_status;
  std::optional<std::string> signal;
  std::optional<std::string> started_at;
  std::optional<std::string> ended_at;
};

class Scheduler {
 public:
  virtual ~Scheduler() = default;
  /// The scheduler's name ("local").
  virtual std::string name() const = 0;
  /// Submits a job script; returns the job id. Throws SchedulerError with the scheduler's
  /// message when the submission is refused.
  virtual std::string submit(const JobSubmission& job) = 0;
  /// The states of many jobs, in one scheduler call where the scheduler has one.
  virtual std::vector<JobStatus> poll(const std::vector<JobRef>& jobs) = 0;
  /// Cancels jobs.
  virtual void cancel(const std::vector<JobRef>& jobs) = 0;
};

/// The scheduler called `name` from the table of schedulers; throws UsageError otherwise.
std::unique_ptr<Scheduler> make_scheduler(const std::string& name, process::ProcessRunner& runner);

/// The exit marker a job script writes (exit.json in its job dir), if present and readable.
std::optional<JobStatus> read_exit_marker(const std::string& job_dir, const std::string& job_id);

}  // namespace pbench::schedulers

namespace pbench::schedulers {
/// The schedulers pbench knows, by name.
std::vector<std::string> scheduler_names();
}  // namespace pbench::schedulers
