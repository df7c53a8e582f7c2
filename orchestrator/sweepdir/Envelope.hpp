#pragma once
// The reproducibility envelope of a job attempt (envelope.json in its attempt directory): the
// job id and how it ended, pbench's version (git describe), and what the job script recorded
// where it ran (job.env: host, node list, the hashes of the script and the worker binary, the
// MPI version, and the SLURM_*, PBS_* and PBENCH_* environment).
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "store/Store.hpp"

namespace pbench::run {

/// Reads job.env (NUL-separated NAME=VALUE) from a job directory; empty when absent.
std::map<std::string, std::string> read_job_env(const std::string& job_dir);
/// The hosts the batch system gave an attempt's job: its job.env's node list (PBENCH_NODE_LIST),
/// expanded; empty when the job recorded none (not started, the local scheduler). A list that
/// does not parse is its one text, as the scheduler wrote it.
std::vector<std::string> allocated_hosts(const std::string& job_dir);
/// The envelope of a finished attempt.
nlohmann::json make_envelope(const store::SweepRecord& sweep, const store::PointRecord& point,
                             const store::AttemptRecord& attempt);
/// Writes make_envelope() to <job_dir>/envelope.json (atomically); false when it cannot.
bool write_envelope(const store::SweepRecord& sweep, const store::PointRecord& point,
                    const store::AttemptRecord& attempt);

}  // namespace pbench::run
