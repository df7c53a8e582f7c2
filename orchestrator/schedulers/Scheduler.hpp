#pragma once
// A batch system as pbench sees it: submit a job script, poll many jobs in one call, cancel.
// Launching MPI inside the job is the Launcher's business, not the scheduler's.
#include <chrono>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "process/ProcessRunner.hpp"
#include "util/Error.hpp"

namespace pbench::schedulers {

/// The canonical job states every scheduler's native states map to.
enum class JobState { queued, running, completed, failed, cancelled, timeout };

struct JobSubmission {
  std::string script_path;
  std::string job_dir;  ///< where the script writes job.pid, exit.json, its result and logs
  std::string stdout_path;
  std::string stderr_path;
};

/// What a job asks its batch system for; each scheduler turns it into its own directives.
struct JobResources {
  std::string job_name;
  int nodes = 0;           ///< 0: the scheduler decides (Slurm packs the tasks; PBS: one node)
  int ntasks = 1;          ///< MPI processes (the point's partition)
  int procs_per_node = 0;  ///< 0: the scheduler decides
  bool exclusive = false;  ///< whole nodes: no other job runs on them meanwhile
  int time_limit_seconds = 0;
  std::string account;             ///< "" for the default
  std::string queue;               ///< "" for the default (a Slurm partition, a PBS queue)
  std::vector<std::string> extra;  ///< the user's own directives, written as they are
  std::string dialect;             ///< pbs: "torque" (default, also when empty) or "pbspro"
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
  /// The job script's directive lines (e.g. "#SBATCH --nodes=2") for these resources; none
  /// for a scheduler without directives.
  virtual std::vector<std::string> directives(const JobResources& resources) const {
    (void)resources;
    return {};
  }
  /// The longest wait between two polls when nothing changes (the driver backs off to it).
  virtual std::chrono::milliseconds max_poll_interval() const { return std::chrono::seconds(1); }
  /// Submits a job script; returns the job id. Throws SchedulerError with the scheduler's
  /// message when the submission is refused.
  virtual std::string submit(const JobSubmission& job) = 0;
  /// Submits jobs of one shape (the directives of the first script apply to all) as one job
  /// array with at most `throttle` elements running at once; `array_dir` keeps the array's
  /// own script and log. Returns each job's id, in order. Throws SchedulerError when refused,
  /// or when the scheduler has no job arrays.
  virtual std::vector<std::string> submit_array(const std::vector<JobSubmission>& jobs,
                                                int throttle, const std::string& array_dir) {
    (void)jobs;
    (void)throttle;
    (void)array_dir;
    throw SchedulerError(name() + ": no job arrays (use --scheduler slurm)");
  }
  /// The states of many jobs, in one scheduler call where the scheduler has one. Throws
  /// SchedulerUnavailable when the scheduler cannot be reached now (the caller asks again).
  virtual std::vector<JobStatus> poll(const std::vector<JobRef>& jobs) = 0;
  /// Cancels jobs.
  virtual void cancel(const std::vector<JobRef>& jobs) = 0;
  /// Which of `hosts` the batch system now holds unusable (down, drained, failed or not
  /// responding), each with its state and reason ("down: Not responding"), asked in one call
  /// for all; empty when none is, or when the scheduler cannot tell (local; PBS without
  /// pbsnodes).
  virtual std::map<std::string, std::string> unavailable_nodes(
      const std::vector<std::string>& hosts) {
    (void)hosts;
    return {};
  }
  /// How many of this user's jobs the scheduler holds queued or running, pbench's and others';
  /// empty when it cannot tell now (or never can).
  virtual std::optional<int> user_jobs_in_queue() { return std::nullopt; }
};

/// The scheduler called `name` from the table of schedulers; throws UsageError otherwise.
std::unique_ptr<Scheduler> make_scheduler(const std::string& name, process::ProcessRunner& runner);

/// What a scheduler's job scripts say beyond the one body (jobtemplates/job.sh) and each job's
/// directives: shell text written as it is, for the placeholders of the same names.
struct JobScriptParts {
  std::vector<std::string> start;  ///< lines the job runs first: into its attempt directory
  std::string node_list;           ///< one shell word: the job's nodes, comma-separated
  std::string recorded_variables;  ///< an extended regular expression: what job.env records
};

/// The job script parts of the scheduler called `name`, from the table of schedulers; throws
/// UsageError for an unknown name.
const JobScriptParts& job_script_parts(const std::string& name);

/// The exit marker a job script writes (exit.json in its job dir), if present and readable.
std::optional<JobStatus> read_exit_marker(const std::string& job_dir, const std::string& job_id);

/// A job that left an exit marker nobody can read (empty or cut short: the script could not
/// write it, a full disk), as a failure saying so; nothing when there is no such marker.
std::optional<JobStatus> unreadable_exit_marker(const std::string& job_dir,
                                                const std::string& job_id);

}  // namespace pbench::schedulers

namespace pbench::schedulers {
/// The schedulers pbench knows, by name.
std::vector<std::string> scheduler_names();
}  // namespace pbench::schedulers
