#pragma once
// PBS (and Slurm's PBS wrappers, slurm-wlm-torque): #PBS directives, qsub, one `qstat ID ...`
// per poll for all jobs, qdel. qstat shows a finished job as C (F on PBS Pro) without its exit
// status, so the job's exit marker decides how a finished or vanished job ended; a job
// cancelled by pbench before it could write a marker (qdel may send SIGKILL) is known by the
// cancel request pbench leaves in its job directory.
#include <map>
#include <string>
#include <vector>

#include "schedulers/BatchSupport.hpp"

namespace pbench::schedulers {

/// One job row of `qstat` (brief format): its id and single-letter state.
struct QstatLine {
  std::string id;
  std::string state;
};

/// Parses qstat's brief listing (a heading, a dashed rule, then one row per job); throws
/// SchedulerError for a row it cannot read.
std::vector<QstatLine> parse_qstat(const std::string& out);
/// The canonical state of a PBS state letter; the letters of a finished job (C, F, X) give
/// `completed` here, which the exit marker then refines.
JobState pbs_state(const std::string& letter);
/// The job id in qsub output (its last non-empty line, "12" or "12.server"); throws
/// SchedulerError.
std::string parse_qsub_id(const std::string& out);
/// The row of job `id` ("12.server" also matches "12" and the other way round).
std::optional<QstatLine> find_qstat_row(const std::string& id, const std::vector<QstatLine>& rows);
/// The PBS dialects pbench writes directives for ("torque" first: the default).
std::vector<std::string> pbs_dialects();
/// The nodes of `pbsnodes -l -n` output (one per line: the node, its state, then its note;
/// Torque's, PBS Pro's and Slurm's wrapper's lists of the nodes that are down, offline or
/// unknown) as "STATE: NOTE".
std::map<std::string, std::string> parse_pbsnodes_list(const std::string& out);

class PbsScheduler : public BatchScheduler {
 public:
  using BatchScheduler::BatchScheduler;
  std::string name() const override { return "pbs"; }
  std::vector<std::string> directives(const JobResources& resources) const override;
  std::string submit(const JobSubmission& job) override;
  std::vector<JobStatus> poll(const std::vector<JobRef>& jobs) override;
  void cancel(const std::vector<JobRef>& jobs) override;
  std::optional<int> user_jobs_in_queue() override;
  /// `pbsnodes -l -n` (`pbsnodes -l` where -n is refused), asked once: which of `hosts` are
  /// down, offline or unknown.
  std::map<std::string, std::string> unavailable_nodes(
      const std::vector<std::string>& hosts) override;
};

/// The file pbench leaves in a job directory when it cancels the job.
inline constexpr const char* kCancelRequestFile = "cancel.requested";

}  // namespace pbench::schedulers
