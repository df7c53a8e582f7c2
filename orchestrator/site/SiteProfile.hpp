#pragma once
// A site profile (TOML): how this centre runs jobs, written once and used by every sweep. From
// `--site FILE`, else PBENCH_SITE, else ~/.config/pbench/site.toml (per user), else
// <prefix>/etc/pbench/site.toml beside the installed pbench (per installation):
//
//   [scheduler]
//   name = "slurm"                     # local, slurm or pbs
//   dialect = "pbspro"                 # pbs only: torque (default) or pbspro
//   account = "proj"
//   queue = "batch"                    # a Slurm partition or a PBS queue
//   time_limit = "30:00"
//   max_time_limit = "24:00:00"        # the longest a job may ask for (else the partition's)
//   directives = ["--constraint=ib"]
//   [launcher]                         # mpiexec, mpirun, srun or custom
//   name = "srun"
//   pmi = "pmix"                       # srun's --mpi=
//   args = ["--cpu-bind=cores"]        # after the launcher's own arguments
//   # program = "/usr/bin/mpirun.openmpi"   # instead of the table's program
//   # line = "mywrap -np {n} --"             # custom: {n}, {nodes}, {ppn}
//   lines = ["module purge"]           # run before the worker, in every job
//   [variables]
//   OMP_NUM_THREADS = "1"
//   [[environment]]                    # a named set; `--envs NAME,...` sweeps over them
//   name = "openmpi"
//   worker_dir = "/opt/pbench/openmpi/bin"   # the four workers built against this MPI
//   lines = ["module load openmpi/4.1"]
//   launcher = { name = "srun", pmi = "pmix" }   # default: the profile's [launcher]
//   variables = { OMPI_MCA_io = "romio321" }
//   [machine]                          # the machine's figures, for plans before any run
//   cluster = "big"                    # (site/MachineFigures.hpp: latency_us, ...)
#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "schedulers/Launcher.hpp"
#include "site/MachineFigures.hpp"
#include "sweep/Environment.hpp"

namespace pbench::site {

struct SiteProfile {
  std::string path;    ///< where it was read from
  std::string sha256;  ///< of its text, recorded with every sweep made with it
  std::optional<std::string> scheduler;
  std::optional<std::string> dialect;
  std::optional<std::string> account;
  std::optional<std::string> queue;
  std::optional<int> time_limit_seconds;
  std::optional<int> max_time_limit_seconds;  ///< scheduler.max_time_limit
  std::vector<std::string> directives;
  std::optional<schedulers::LaunchSpec> launcher;
  std::vector<std::string> lines;
  sweep::Variables variables;
  std::vector<sweep::Environment> environments;
  std::optional<MachineFigures> machine;  ///< its [machine] table

  /// The environment called `name`; throws UsageError naming the profile's environments.
  const sweep::Environment& environment(const std::string& name) const;
};

/// Parses a profile's text; `origin` (its path) names it in errors. Throws UsageError for text
/// that is not TOML, an unknown key, an unknown scheduler, dialect or launcher, an environment
/// without a worker directory, whose directory does not exist, or named twice.
SiteProfile parse_site_profile(std::string_view text, const std::string& origin);
/// Reads the profile at `path` (UsageError when it cannot be read).
SiteProfile read_site_profile(const std::string& path);
/// The profile to use: `given` (--site), else $PBENCH_SITE, else the per-user and then the
/// per-installation default path when such a file exists; none otherwise.
std::optional<SiteProfile> find_site_profile(const std::string& given);
/// The default paths, in the order they are tried (per user, per installation).
std::vector<std::string> default_site_paths();

/// A variable name the shell can export (letters, digits, _; not starting with a digit).
bool is_variable_name(const std::string& name);

}  // namespace pbench::site
