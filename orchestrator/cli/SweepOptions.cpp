#include "cli/SweepOptions.hpp"

#include <algorithm>
#include <sstream>

#include "site/ProfileSweep.hpp"
#include "sweep/ListParser.hpp"
#include "sweep/SweepFile.hpp"
#include "sweep/WorkerCatalog.hpp"
#include "util/Error.hpp"

namespace pbench::cli {

void SweepOptions::declare_worker_options(CLI::App& command) {
  // Each worker's dimensions and options, from its description (sweep/WorkerCatalog.cpp).
  for (const auto& worker : sweep::worker_catalog()) {
    for (const auto& d : worker.dimensions) {
      if (dimension_lists.count(d.name) || dimension_items.count(d.name)) continue;  // declared
      if (d.one_per_option) {
        command.add_option(d.flag, dimension_items[d.name], d.help);
        continue;
      }
      auto* option = command.add_option(d.flag, dimension_lists[d.name], d.help);
      if (!d.defaults.is_null()) {
        dimension_lists[d.name] = d.default_text();
        option->capture_default_str();
      }
    }
    for (const auto& o : worker.options) {
      command.add_option(o.flag, worker_options[worker.name][o.parameter], o.help);
    }
  }
}

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
  declare_worker_options(command);
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
    std::vector<std::string> defining = {"--workers", "--partitions"};
    for (const auto& worker : sweep::worker_catalog()) {
      for (const auto& d : worker.dimensions) defining.push_back(d.option());
      for (const auto& o : worker.options) defining.push_back(o.flag);
    }
    for (const char* option :
         {"--scheduler", "--launcher", "--set", "--nodes", "--procs-per-node", "--share-nodes",
          "--time-limit", "--account", "--queue", "--directive"}) {
      defining.push_back(option);
    }
    for (const auto& option : defining) {
      if (given(option)) {
        throw UsageError(option + " cannot be combined with --spec (write it in the sweep file)");
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
  // The workers' dimensions: each option's list as its description reads it; one not given
  // keeps its defaults (or stays empty).
  for (const sweep::Dimension* d : sweep::all_dimensions()) {
    if (!given(d->option())) continue;
    if (d->one_per_option) {
      spec.set_values(d->name, dimension_items.at(d->name));
    } else {
      spec.set_values(d->name, d->parse(dimension_lists.at(d->name), d->option()));
    }
  }
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
  add_worker_options(spec);
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

void SweepOptions::add_worker_options(sweep::SweepSpec& spec) const {
  for (const auto& worker : sweep::worker_catalog()) {
    for (const auto& o : worker.options) {
      if (!given(o.flag)) continue;
      if (std::find(spec.workers.begin(), spec.workers.end(), worker.name) == spec.workers.end()) {
        throw UsageError(o.flag + " applies to the " + worker.name +
                         " worker, which the sweep does not run");
      }
      const std::string& value = worker_options.at(worker.name).at(o.parameter);
      const auto& settings = spec.settings[worker.name];
      if (const auto it = settings.find(o.parameter); it != settings.end() && it->second != value) {
        throw UsageError(o.flag + " " + value + " and --set " + worker.name + "." + o.parameter +
                         "=" + it->second + " disagree: use one of them");
      }
      sweep::add_setting(spec.settings, worker.name + "." + o.parameter + "=" + value);
    }
  }
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
