#pragma once
// What a sweep's run was charged, against what it was planned: per worker and partition, the
// node-hours planned when the run started and the node-hours charged, from the scheduler's
// accounting (Slurm's sacct: elapsed x nodes of each job) where it answers, else from the job's
// own times (its exit marker's start and end x the nodes it held), saying which.
#include <map>
#include <string>
#include <vector>

#include "plan/SweepCost.hpp"
#include "process/ProcessRunner.hpp"
#include "store/Store.hpp"

namespace pbench::run {

/// One job's charge as the accounting says: its elapsed seconds and its nodes.
struct JobCharge {
  double seconds = 0;
  int nodes = 0;
};

/// `sacct -n -P -X -o JobIDRaw,ElapsedRaw,NNodes` output: by job id.
std::map<std::string, JobCharge> parse_sacct(const std::string& output);

/// Asks sacct for `job_ids` (Slurm); nothing when it is not here, fails or knows none.
std::map<std::string, JobCharge> sacct_charges(process::ProcessRunner& runner,
                                               const std::vector<std::string>& job_ids);

struct ChargedRow {
  std::string worker;
  std::string partition;
  int points = 0;
  double planned_node_hours = 0;
  double charged_node_hours = 0;
  int charged_points = 0;  ///< points with a charge (ended) of those
  std::string charged_from;  ///< "sacct", "the jobs' own times", or both "sacct, ..."
};

/// Per worker and partition of run `run_no` of `sweep`: planned (`plan`, the plan when it
/// started, its points in the store's order) against charged. `accounting` maps job ids to
/// their charge (sacct_charges; empty: the jobs' own times).
std::vector<ChargedRow> charged_rows(store::Store& store, const store::SweepRecord& sweep,
                                     int run_no, const CostPlan& plan,
                                     const std::map<std::string, JobCharge>& accounting);

/// The job ids of run `run_no`'s attempts.
std::vector<std::string> run_job_ids(store::Store& store, const store::SweepRecord& sweep,
                                     int run_no);

}  // namespace pbench::run
