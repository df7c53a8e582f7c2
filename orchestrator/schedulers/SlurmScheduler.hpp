#pragma once
// Slurm: #SBATCH directives, sbatch --parsable, one `squeue -t all -j ID,...` per poll for all
// jobs (one per 64 KiB of job ids; a job array by its id), scancel. A job squeue no longer knows ("Invalid job id", or past MinJobAge) is gone and
// its exit marker decides how it ended.
#include <string>
#include <vector>

#include "schedulers/BatchSupport.hpp"

namespace pbench::schedulers {

/// One line of `squeue -h -o '%i|%T|%r'`.
struct SqueueLine {
  std::string id;  ///< "12", an array element "12_3" or "12_[4-9]", a het component "12+0"
  std::string state;
  std::string reason;
};

/// Parses squeue output (lines "id|STATE|reason"); throws SchedulerError for a malformed line.
std::vector<SqueueLine> parse_squeue(const std::string& out);
/// The canonical state of a Slurm state name (long or short form: "RUNNING", "R", "NODE_FAIL").
JobState slurm_state(const std::string& native);
/// The job id in sbatch --parsable output ("12" or "12;cluster"); throws SchedulerError.
std::string parse_sbatch_id(const std::string& out);
/// The status of job `id` from squeue lines: its own line, or the lines of its array elements
/// or het components together (any running: running; else any queued: queued; else the
/// worst end). Empty when squeue does not list it.
std::optional<JobStatus> slurm_status(const std::string& id, const std::vector<SqueueLine>& lines);

/// One line of `sacct -n -P -X -o JobID,State,ExitCode`.
struct SacctLine {
  std::string id;
  std::string state;      ///< "COMPLETED", "CANCELLED by 0", ...
  std::string exit_code;  ///< "status:signal", e.g. "3:0" or "0:15"
};
/// Parses sacct's parsable output; throws SchedulerError for a malformed line.
std::vector<SacctLine> parse_sacct(const std::string& out);
/// The nodes of `sinfo -h -N -o '%N|%T|%E'` output that cannot run jobs (down, drained,
/// draining, failing, or not responding: a state ending in '*'), as "STATE: REASON".
std::map<std::string, std::string> parse_unavailable_nodes(const std::string& out);
/// The job ids of `jobs` as comma-separated lists for squeue's or sacct's -j, each at most
/// `max_bytes` long (one id longer than that still gets a list of its own): the kernel refuses
/// a single argument over 128 KiB, which 10,000 plain job ids approach. With `whole_arrays`,
/// the elements of a job array ("12_0", "12_1", ...) are asked for by the array's id ("12")
/// once: squeue -r lists every element under it.
std::vector<std::string> job_id_lists(const std::vector<JobRef>& jobs, std::size_t max_bytes,
                                      bool whole_arrays);
/// The status sacct records for job `id`, with its exit status or signal; empty when absent.
std::optional<JobStatus> sacct_status(const std::string& id, const std::vector<SacctLine>& lines);

class SlurmScheduler : public BatchScheduler {
 public:
  using BatchScheduler::BatchScheduler;
  std::string name() const override { return "slurm"; }
  std::vector<std::string> directives(const JobResources& resources) const override;
  std::string submit(const JobSubmission& job) override;
  /// An sbatch --array=0-(n-1)%throttle of a dispatcher script that runs element i's job
  /// script in its attempt directory; the ids are "ARRAY_i".
  std::vector<std::string> submit_array(const std::vector<JobSubmission>& jobs, int throttle,
                                        const std::string& array_dir) override;
  /// Throws SchedulerUnavailable when squeue fails (slurmctld down or restarting).
  std::vector<JobStatus> poll(const std::vector<JobRef>& jobs) override;
  void cancel(const std::vector<JobRef>& jobs) override;
  std::optional<int> user_jobs_in_queue() override;
  /// One `sinfo -N -n HOSTLIST`: the nodes whose state is down, drained, failing or not
  /// responding ("idle*"), with Slurm's reason. Empty when sinfo fails.
  std::map<std::string, std::string> unavailable_nodes(
      const std::vector<std::string>& hosts) override;

 private:
  /// Asks sacct, in one call, how jobs squeue no longer lists ended (empty without accounting).
  std::vector<SacctLine> ask_accounting(const std::vector<JobRef>& gone);

  bool accounting_ = true;  ///< false once sacct said accounting is disabled
};

}  // namespace pbench::schedulers
