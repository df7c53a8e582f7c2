#include "plan/SweepPlanner.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>

#include "jobs/JobTemplate.hpp"
#include "jobs/ShellQuote.hpp"
#include "plan/PartitionProgress.hpp"
#include "plan/WorkerSettings.hpp"
#include "process/ProcessRunner.hpp"
#include "schedulers/Launcher.hpp"
#include "schedulers/Scheduler.hpp"
#include "sweep/PlannedTime.hpp"
#include "sweep/WorkerCatalog.hpp"
#include "sweepdir/SweepRecordFile.hpp"
#include "sweepdir/SweepRuns.hpp"
#include "util/Error.hpp"
#include "util/Time.hpp"

namespace pbench::run {
namespace fs = std::filesystem;

namespace {

// The job envelope's record of the MPI the worker links (an environment's modules may put
// another first on PATH) and that library's version, as lines inside the job.env block of the
// built-in template ({{mpi_record}}); $pbench_worker is the worker's path there.
std::vector<std::string> mpi_record_lines() {
  return {
      R"(  pbench_mpi_library=$(ldd "$pbench_worker" 2>/dev/null | awk '$1 ~ /^libmpi/ { print $3; exit }'))",
      R"(  case $pbench_mpi_library in)",
      R"(    */libmpi.so*) pbench_mpi_version=$( (ompi_info --version || mpirun --version) 2>/dev/null | head -1) ;;)",
      R"(    *) pbench_mpi_version=$( (mpichversion || mpirun --version) 2>/dev/null | head -1) ;;)",
      R"(  esac)",
      R"(  printf 'PBENCH_MPI_LIBRARY=%s\0' "$pbench_mpi_library")",
      R"(  printf 'PBENCH_MPI_VERSION=%s\0' "$pbench_mpi_version")",
  };
}

fs::path self_directory() {
  std::error_code ec;
  fs::path self = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fs::current_path() : self.parent_path();
}

jobs::JobTemplate load_template(const PlanOptions& options) {
  if (options.template_path.empty()) return jobs::JobTemplate::builtin();
  std::ifstream in(options.template_path);
  if (!in) throw UsageError("cannot read job template '" + options.template_path + "'");
  std::ostringstream text;
  text << in.rdbuf();
  return jobs::JobTemplate(options.template_path, text.str());
}

// The environment point `point` runs in (its parameter "env"), or none.
const sweep::Environment* point_environment(const sweep::SweepSpec& spec,
                                            const sweep::Point& point) {
  if (!point.params.contains("env")) return nullptr;
  const auto name = point.params["env"].get<std::string>();
  for (const auto& env : spec.environments) {
    if (env.name == name) return &env;
  }
  throw UsageError("point " + point.key + ": no environment '" + name + "' in the sweep");
}

// A worker of an environment: in its worker directory, nowhere else (a worker of another MPI
// found on PATH would measure that MPI under this environment's name).
std::string environment_worker(const sweep::Environment& env, const std::string& binary) {
  const fs::path path = fs::path(env.worker_dir) / binary;
  if (::access(path.c_str(), X_OK) != 0) {
    throw UsageError("environment '" + env.name + "': worker binary '" + path.string() +
                     "' not found or not executable (worker_dir of the site profile)");
  }
  return path.string();
}

// The lines a job runs before its worker: the profile's and the environment's lines (as the
// site wrote them), their variables, and what the worker records of its launch.
std::vector<std::string> setup_lines(const sweep::SweepSpec& spec, const sweep::Environment* env,
                                     const schedulers::LaunchSpec& launch,
                                     const std::vector<std::string>& command,
                                     std::size_t worker_words) {
  std::vector<std::string> lines = spec.lines;
  sweep::Variables variables = spec.variables;
  if (env) {
    lines.insert(lines.end(), env->lines.begin(), env->lines.end());
    variables.insert(variables.end(), env->variables.begin(), env->variables.end());
    variables.emplace_back("PBENCH_ENV", env->name);
  }
  std::string launcher;
  for (std::size_t i = 0; i + worker_words < command.size(); ++i) {
    launcher += (launcher.empty() ? "" : " ") + command[i];
  }
  variables.emplace_back("PBENCH_LAUNCHER", launcher);
  variables.emplace_back("PBENCH_LAUNCH_FLAGS", schedulers::launch_flags(launch));
  for (const auto& [name, value] : variables) {
    lines.push_back("export " + name + "=" + jobs::shell_quote(value));
  }
  return lines;
}

}  // namespace

std::string locate_worker(const std::string& binary) {
  std::vector<fs::path> candidates;
  if (const char* dir = std::getenv("PBENCH_WORKER_DIR"))
    candidates.push_back(fs::path(dir) / binary);
  const fs::path self = self_directory();
  candidates.push_back(self / binary);
  const std::string name = binary.substr(binary.find('-') + 1);  // pbench-logp -> logp
  candidates.push_back(self.parent_path() / "workers" / name / binary);
  for (const auto& c : candidates) {
    if (::access(c.c_str(), X_OK) == 0) return fs::absolute(c).lexically_normal().string();
  }
  if (process::command_exists(binary)) return binary;
  std::string looked;
  for (const auto& c : candidates) looked += (looked.empty() ? "" : ", ") + c.string();
  throw UsageError("worker binary '" + binary + "' not found (looked in " + looked +
                   " and PATH); set PBENCH_WORKER_DIR");
}

Plan make_plan(const sweep::SweepSpec& spec, const PlanOptions& options) {
  spec.validate();
  // The only processes planning runs: each worker with --set values, asked whether it has those
  // parameters and reads those values (a typo fails here, not in every job).
  process::BoostProcessRunner runner;
  const auto describe = describe_worker_with(runner);
  check_worker_settings(spec, describe);
  Plan plan;
  plan.spec = spec;
  plan.directory = (fs::absolute(options.runs_dir) / spec.name).lexically_normal().string();
  const jobs::JobTemplate job_template = load_template(options);
  // Only for its directives: the scheduler runs no process while planning.
  const auto scheduler = schedulers::make_scheduler(spec.scheduler, runner);
  const auto& script_parts = schedulers::job_script_parts(spec.scheduler);
  const bool batch = spec.scheduler != "local";
  auto points = sweep::expand(spec);
  plan.cost = plan_cost(spec, points, options.history, describe,
                        plan_machine(spec, options.told_max_time, options.told_max_source));
  plan.warnings = plan.cost.warnings;
  for (std::size_t index = 0; index < points.size(); ++index) {
    auto& point = points[index];
    const auto& point_plan = plan.cost.points[index];
    const int time_limit = batch ? point_plan.time_limit : 0;
    // Every batch job has a time limit, always: a job without one runs to the queue's default
    // (or for ever), and a plan that could not give one is a bug, not a job to submit.
    if (batch && time_limit <= 0) {
      throw std::logic_error("point " + point.key + ": the plan gave a batch job no time limit");
    }
    if (auto warning = sweep::time_limit_warning(spec, point.worker, point.params)) {
      // One warning per distinct planned time is enough.
      if (std::find(plan.warnings.begin(), plan.warnings.end(), *warning) == plan.warnings.end()) {
        plan.warnings.push_back(*warning);
      }
    } else if (batch && point_plan.limit_given && point_plan.seconds > time_limit) {
      const std::string warning = "--time-limit " + std::to_string(time_limit) +
                                  " s is shorter than the " + format_duration(point_plan.seconds) +
                                  " " + point.worker + " at " + point.partition.text() +
                                  " is planned to run (" + to_string(point_plan.basis) +
                                  ": pbench plan " + spec.name + "); the batch system may kill it";
      if (std::find(plan.warnings.begin(), plan.warnings.end(), warning) == plan.warnings.end()) {
        plan.warnings.push_back(warning);
      }
    }
    const auto& worker = sweep::find_worker(point.worker);
    const sweep::Environment* env = point_environment(spec, point);
    std::vector<std::string> worker_argv{env ? environment_worker(*env, worker.binary)
                                             : locate_worker(worker.binary)};
    for (auto& arg : sweep::worker_arguments(point)) worker_argv.push_back(arg);
    worker_argv.insert(worker_argv.end(), {"--output", "result.json"});
    const auto shape = sweep::node_shape(spec, point.partition);
    const schedulers::LaunchSpec& launch = env && env->launcher ? *env->launcher : spec.launcher;
    const auto command = schedulers::launch_command(launch, point.partition.processes, shape.nodes,
                                                    shape.procs_per_node, worker_argv);
    schedulers::JobResources resources;
    resources.job_name = "pb-" + point.key.substr(0, 12);  // PBS allows 15 characters
    resources.nodes = shape.nodes;
    resources.ntasks = point.partition.processes;
    resources.procs_per_node = shape.procs_per_node;
    resources.exclusive = !spec.share_nodes;
    resources.time_limit_seconds = time_limit;
    resources.account = spec.account;
    resources.queue = spec.queue;
    resources.extra = spec.directives;
    resources.dialect = spec.dialect;
    const std::map<std::string, jobs::TemplateValue> values = {
        {"scheduler", spec.scheduler},
        {"sweep", spec.name},
        {"point_key", point.key},
        {"worker", point.worker},
        {"partition", std::to_string(point.partition.processes)},
        // The shape NxP of a shaped point, empty for a plain partition (job scripts export
        // them, with the partition, for the workers' launch check).
        {"nodes", point.partition.has_shape() ? std::to_string(point.partition.nodes) : ""},
        {"procs_per_node",
         point.partition.has_shape() ? std::to_string(point.partition.procs_per_node) : ""},
        {"command", command},
        {"setup", jobs::VerbatimLines{setup_lines(spec, env, launch, command, worker_argv.size())}},
        {"directives", jobs::VerbatimLines{scheduler->directives(resources)}},
        {"start", jobs::VerbatimLines{script_parts.start}},
        {"node_list", jobs::VerbatimLines{{script_parts.node_list}}},
        {"recorded_variables", script_parts.recorded_variables},
        {"time_limit_seconds", std::to_string(time_limit)},
        {"worker_binary", worker_argv.front()},
        {"mpi_record", jobs::VerbatimLines{mpi_record_lines()}},
    };
    PlannedPoint planned;
    // A template without {{setup}} would run the worker without the environment it asked for
    // (without a profile's lines and variables it only loses the launch's record).
    std::set<std::string> required{"command"};
    if (env || !spec.lines.empty() || !spec.variables.empty()) required.insert("setup");
    planned.script = job_template.render(values, required);
    planned.script_path = job_script_path(plan.directory, point.key);
    planned.point = std::move(point);
    plan.points.push_back(std::move(planned));
  }
  return plan;
}

std::string job_script_path(const std::string& directory, const std::string& key) {
  return (fs::path(directory) / "points" / key / "job.sh").string();
}

store::PointRecord point_record(const sweep::Point& point, const std::string& script_path) {
  store::PointRecord r;
  r.key = point.key;
  r.worker = point.worker;
  r.partition = point.partition.processes;
  r.params_json = point.params.dump();
  r.script_path = script_path;
  return r;
}

StoreOutcome store_plan(store::Store& store, const Plan& plan, bool force, bool discard_results) {
  const std::string spec_json = plan.spec.to_json().dump();
  StoreOutcome outcome = StoreOutcome::created;
  // A point's job script written atomically (a temporary file, then renamed), executable.
  const auto write_script = [](const PlannedPoint& p) {
    fs::create_directories(fs::path(p.script_path).parent_path());
    const std::string temporary = p.script_path + ".tmp";
    {
      std::ofstream out(temporary, std::ios::trunc);
      out << p.script;
      if (!out) throw UsageError("cannot write job script '" + p.script_path + "'");
    }
    fs::rename(temporary, p.script_path);
    fs::permissions(p.script_path, fs::perms::owner_exec, fs::perm_options::add);
  };
  if (auto existing = store.find_sweep(plan.spec.name)) {
    if (existing->spec_json == spec_json) {
      // Unchanged: its points and results stay. A script that is gone (the runs directory
      // deleted) is written again, so that `submit --retry-failed` can run its point.
      for (const auto& p : plan.points) {
        if (std::error_code ec; !fs::exists(p.script_path, ec)) write_script(p);
      }
      // A sweep planned before pbench kept its record on disk gets it now, where its directory
      // is; a directory that cannot take it is said when the sweep is submitted.
      std::error_code ec;
      if (fs::is_directory(existing->directory, ec) &&
          !fs::exists(sweep_record_path(existing->directory), ec)) {
        try {
          write_sweep_record(*existing, store.runs(existing->id));
        } catch (const UsageError&) {
          // Not now: the sweep is as it was, and rebuild falls back on the store's row.
        }
      }
      return StoreOutcome::unchanged;
    }
    if (!force) {
      throw UsageError("sweep '" + plan.spec.name +
                       "' exists with different parameters (use --force to replace it)");
    }
    const auto results = store.result_count(existing->id);
    if (results > 0 && !discard_results) {
      throw UsageError("sweep '" + plan.spec.name + "' has " + std::to_string(results) +
                       " stored results, which --force would discard: add --discard-results "
                       "to replace it anyway, or give the new sweep another name");
    }
    outcome = StoreOutcome::replaced;
  }
  for (const auto& p : plan.points) write_script(p);
  std::vector<store::PointRecord> records;
  for (const auto& p : plan.points) records.push_back(point_record(p.point, p.script_path));
  store::SweepRecord sweep{0,        plan.spec.name, spec_json, plan.spec.scheduler, plan.directory,
                           utc_now()};
  // Run 1 says which pbench planned it. The record on disk first: a store rebuilt from the
  // runs directory finds the sweep and its runs there.
  const std::string envelope = run_envelope_json();
  write_sweep_record(sweep, {{0, 0, 1, sweep.created_at, envelope}});
  const auto stored = outcome == StoreOutcome::replaced ? store.replace_sweep(sweep, records)
                                                        : store.insert_sweep(sweep, records);
  store.set_run_envelope(store.runs(stored.id).front().id, envelope);
  return outcome;
}

}  // namespace pbench::run
