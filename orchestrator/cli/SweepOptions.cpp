#include "cli/SweepOptions.hpp"

#include <algorithm>
#include <sstream>

#include "site/ProfileSweep.hpp"
#include "sweep/ConsortiumSweep.hpp"
#include "sweep/ListParser.hpp"
#include "sweep/SweepFile.hpp"
#include "sweep/WorkerCatalog.hpp"
#include "util/Error.hpp"

namespace pbench::cli {

void SweepOptions::declare(CLI::App& command, const std::string& default_name) {
  command_ = &command;
  const std::size_t declared_before = command.get_options().size();
  auto* name_option = command.add_option("name", name, "Sweep name (letters, digits, . _ -)");
  if (default_name.empty()) {
    name_option->required();
  } else {
    name = default_name;
    name_option->capture_default_str();
  }
  std::string known;
  for (const auto& w : sweep::worker_catalog()) known += (known.empty() ? "" : ", ") + w.name;
  command.add_option("--workers", workers, "Workers to run, comma-separated (" + known + ")")
      ->capture_default_str();
  command
      .add_option("--partitions", partitions,
                  "Partitions: P processes placed by the scheduler, or NxP for N nodes with P "
                  "processes each (slurm, pbs), e.g. 8,32,128 or 1x1,2x1,4x1,2x2")
      ->capture_default_str();
  command.add_option("--queue-depths", queue_depths, "Queue depths for logp, e.g. 1,8,64")
      ->capture_default_str();
  command.add_option("-T,--schedule-times", schedule_times,
                     "Scheduled times T per partition for io, in seconds, e.g. 60,300,900 (a "
                     "sweep dimension; default the worker's 1,800)");
  command.add_option("--hints", hint_sets,
                     "An MPI-IO hint set for io, 'key=value,key=value'; repeatable, each set a "
                     "sweep point");
  command.add_option("--suite", suite,
                     "io's suite: b_eff_io (the default) or consortium (sustained write, cached "
                     "write, sustained read); the same as --set io.suite=NAME");
  command.add_option("--transfer-sizes", transfer_sizes,
                     "io consortium: transfer sizes per I/O call, e.g. 64KiB,1MiB (a sweep "
                     "dimension; default the worker's 1 MiB)");
  command.add_option("--patterns", patterns,
                     "io consortium: access patterns, e.g. segmented,strided (of segmented, "
                     "strided, random, general; a sweep dimension)");
  command.add_option("--collective", collective,
                     "io consortium: collective MPI-IO calls, e.g. on,off (a sweep dimension; "
                     "default off)");
  command.add_option("--scheduler", scheduler, "Scheduler: local, slurm or pbs")
      ->capture_default_str();
  command
      .add_option("--launcher", launcher,
                  "MPI launcher inside a job: mpiexec or srun (a site profile's [launcher] "
                  "gives mpirun, srun's PMI, a program and arguments, or a custom line)")
      ->capture_default_str();
  command.add_option("--site", site_path,
                     "A site profile (TOML: scheduler, dialect, launcher, lines, variables, "
                     "environments); default: PBENCH_SITE, else ~/.config/pbench/site.toml, else "
                     "etc/pbench/site.toml of the installation");
  command.add_option("--envs", envs,
                     "Environments of the site profile to sweep over, e.g. mpich,openmpi (each "
                     "its own workers, launcher, lines and variables; a sweep dimension 'env')");
  command
      .add_option("--nodes", nodes,
                  "Nodes per job of a plain partition P (slurm, pbs; default: as the scheduler "
                  "places the processes, or what --procs-per-node needs); a partition NxP "
                  "gives its own")
      ->check(CLI::PositiveNumber);
  command
      .add_option("--procs-per-node", procs_per_node,
                  "Processes per node of a plain partition P (slurm, pbs)")
      ->check(CLI::PositiveNumber);
  command.add_flag("--share-nodes", share_nodes,
                   "Let jobs share their nodes with other jobs (slurm, pbs). By default each job "
                   "gets whole nodes (Slurm --exclusive, PBS naccesspolicy=singlejob), so that "
                   "nothing else runs beside the measurement");
  command.add_option("--time-limit", time_limit,
                     "Time limit per job (slurm, pbs): MINUTES, MINUTES:SECONDS or "
                     "HOURS:MINUTES:SECONDS. Default: each point's own, from its plan (pbench "
                     "plan NAME): io's time guard bound k x T (T from --schedule-times, default "
                     "1,800 s; k from io.guard_factor, default 3) + 5 minutes; a point planned "
                     "from this machine's runs 1.5 x its plan + 5 minutes; a point with no run "
                     "to go by (a guess) the longest the site allows (the partition's MaxTime, "
                     "else the site profile's scheduler.max_time_limit), else at least 60 "
                     "minutes. A limit past the site's longest is cut to it with a warning; a "
                     "given limit shorter than a worker's bound is warned about");
  command.add_option("--account", account, "Account to charge (slurm, pbs)");
  command.add_option("--queue", queue, "Slurm partition or PBS queue to submit to");
  command.add_option("--directive", directives,
                     "An extra directive for every job, e.g. --directive=--constraint=ib "
                     "(written after #SBATCH or #PBS); repeatable");
  command.add_option("--set", settings,
                     "A worker parameter for the whole sweep, WORKER.PARAMETER=VALUE "
                     "(e.g. logp.eel_roundtrips=1000); repeatable");
  command.add_option("--spec", spec_path,
                     "A sweep file (TOML: workers, partitions, queue_depths, launcher, io's "
                     "schedule_times, hints, transfer_sizes, patterns, collective, "
                     "[settings.WORKER], [scheduler]) instead of those options");
  command.add_option("--template", template_path, "Your own job template instead of the built-in");
  command.add_flag("--force", force,
                   "Replace a stored sweep of the same name with other parameters");
  command
      .add_flag("--discard-results", discard_results,
                "With --force: replace it even when it has stored results, which are lost")
      ->needs("--force");
  // Every option above but the name defines the sweep.
  const auto options = command.get_options();
  for (std::size_t i = declared_before; i < options.size(); ++i) {
    if (options[i] != name_option) defining_.push_back(options[i]);
  }
}

std::vector<std::string> SweepOptions::given_definition() const {
  std::vector<std::string> out;
  for (const CLI::Option* option : defining_) {
    if (option->count() > 0) out.push_back(option->get_name());
  }
  return out;
}

sweep::SweepSpec SweepOptions::spec() const {
  if (!spec_path.empty()) {
    for (const char* option :
         {"--workers", "--partitions", "--queue-depths", "--schedule-times", "--hints", "--suite",
          "--transfer-sizes", "--patterns", "--collective", "--scheduler", "--launcher", "--set",
          "--nodes", "--procs-per-node", "--share-nodes", "--time-limit", "--account", "--queue",
          "--directive"}) {
      if (command_ && command_->count(option) > 0) {
        throw UsageError(std::string(option) +
                         " cannot be combined with --spec (write it in the sweep file)");
      }
    }
    auto spec = sweep::read_sweep_file(spec_path, name);
    // What the sweep file set, the profile leaves; what it left at the default, the profile gives.
    const sweep::SweepSpec defaults;
    with_site_profile(spec, [&](const std::string& option) {
      if (option == "--scheduler") return spec.scheduler != defaults.scheduler;
      if (option == "--launcher") return !(spec.launcher == defaults.launcher);
      if (option == "--account") return !spec.account.empty();
      if (option == "--queue") return !spec.queue.empty();
      if (option == "--time-limit") return spec.time_limit_seconds != 0;
      if (option == "--directive") return !spec.directives.empty();
      return false;
    });
    return spec;
  }
  sweep::SweepSpec spec;
  spec.name = name;
  spec.workers.clear();
  std::stringstream list(workers);
  for (std::string w; std::getline(list, w, ',');) spec.workers.push_back(w);
  if (workers.empty() || workers.back() == ',') spec.workers.push_back("");
  spec.partitions = sweep::parse_partition_list(partitions, "--partitions");
  spec.queue_depths = sweep::parse_positive_list(queue_depths, "--queue-depths");
  if (!schedule_times.empty()) {
    spec.schedule_times = sweep::parse_seconds_list(schedule_times, "--schedule-times");
  }
  spec.hint_sets = hint_sets;
  if (given("--transfer-sizes")) {
    spec.transfer_sizes = sweep::parse_size_list(transfer_sizes, "--transfer-sizes");
  }
  if (given("--patterns")) spec.patterns = sweep::parse_pattern_list(patterns, "--patterns");
  if (given("--collective")) spec.collective = sweep::parse_switch_list(collective, "--collective");
  spec.scheduler = scheduler;
  spec.launcher = launcher;
  for (std::size_t i = 0; i < settings.size(); ++i) {
    // The same WORKER.NAME twice would keep only the last value without saying so.
    const std::string key = settings[i].substr(0, settings[i].find('='));
    for (std::size_t j = 0; j < i; ++j) {
      if (settings[j].substr(0, settings[j].find('=')) == key) {
        throw UsageError("--set " + key + " is given twice ('" + settings[j] + "' and '" +
                         settings[i] + "'): give it once");
      }
    }
    sweep::add_setting(spec.settings, settings[i]);
  }
  if (given("--suite")) {
    if (std::find(spec.workers.begin(), spec.workers.end(), "io") == spec.workers.end()) {
      throw UsageError("--suite applies to the io worker, which the sweep does not run");
    }
    const auto& io = spec.settings["io"];
    if (const auto it = io.find("suite"); it != io.end() && it->second != suite) {
      throw UsageError("--suite " + suite + " and --set io.suite=" + it->second +
                       " disagree: use one of them");
    }
    sweep::add_setting(spec.settings, "io.suite=" + suite);
  }
  spec.nodes = nodes;
  spec.procs_per_node = procs_per_node;
  spec.share_nodes = share_nodes;
  if (!time_limit.empty())
    spec.time_limit_seconds = sweep::parse_time_limit(time_limit, "--time-limit");
  spec.account = account;
  spec.queue = queue;
  spec.directives = directives;
  with_site_profile(spec, [this](const std::string& option) { return given(option); });
  return spec;
}

void declare_budget(CLI::App& command, std::string& budget, std::string& wall) {
  command.add_option("--budget", budget,
                     "Node-hours the sweep may cost (a number more than 0, at most 1e9): a plan "
                     "over it is refused before anything is written or submitted, naming its "
                     "costliest points and what fits");
  command.add_option("--wall", wall,
                     "Wall time the sweep may take, its points one after another (MINUTES, "
                     "H:M:S or D-H:M:S): refused as --budget is");
}

std::vector<std::string> parse_env_list(const std::string& text) {
  std::vector<std::string> names;
  std::stringstream list(text);
  for (std::string env; std::getline(list, env, ',');) names.push_back(env);
  if (text.empty() || text.back() == ',') names.push_back("");
  for (const auto& env : names) {
    if (env.empty()) throw UsageError("--envs: an empty environment name in '" + text + "'");
  }
  return names;
}

void SweepOptions::with_site_profile(sweep::SweepSpec& spec, const site::GivenOption& given) const {
  const auto env_names = given("--envs") ? parse_env_list(envs) : std::vector<std::string>{};
  site::apply_site_profile(spec, site::find_site_profile(site_path), given, env_names);
}

run::PlanOptions SweepOptions::plan_options(const std::string& runs_dir) const {
  run::PlanOptions options;
  options.runs_dir = runs_dir;
  options.template_path = template_path;
  return options;
}

}  // namespace pbench::cli
