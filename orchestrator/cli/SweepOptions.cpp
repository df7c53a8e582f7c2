#include "cli/SweepOptions.hpp"

#include <sstream>

#include "sweep/ListParser.hpp"

namespace pbench::cli {

void SweepOptions::declare(CLI::App& command, const std::string& default_name) {
  auto* name_option = command.add_option("name", name, "Sweep name (letters, digits, . _ -)");
  if (default_name.empty()) {
    name_option->required();
  } else {
    name = default_name;
    name_option->capture_default_str();
  }
  command.add_option("--workers", workers, "Workers to run, comma-separated (logp, io)")
      ->capture_default_str();
  command.add_option("--partitions", partitions, "Partition sizes in processes, e.g. 8,32,128")
      ->capture_default_str();
  command.add_option("--queue-depths", queue_depths, "Queue depths for logp, e.g. 1,8,64")
      ->capture_default_str();
  command.add_option("-T,--schedule-times", schedule_times,
                     "Scheduled times T per partition for io, in seconds, e.g. 60,300,900 (a "
                     "sweep dimension; default the worker's 900)");
  command.add_option("--hints", hint_sets,
                     "An MPI-IO hint set for io, 'key=value,key=value'; repeatable, each set a "
                     "sweep point");
  command.add_option("--scheduler", scheduler, "Scheduler: local")->capture_default_str();
  command.add_option("--launcher", launcher, "MPI launcher inside a job: mpiexec")
      ->capture_default_str();
  command.add_option("--set", settings,
                     "A worker parameter for the whole sweep, WORKER.PARAMETER=VALUE "
                     "(e.g. logp.eel_roundtrips=1000); repeatable");
  command.add_option("--template", template_path, "Your own job template instead of the built-in");
  command.add_flag("--force", force, "Replace a stored sweep of the same name with other parameters");
}

sweep::SweepSpec SweepOptions::spec() const {
  sweep::SweepSpec spec;
  spec.name = name;
  spec.workers.clear();
  std::stringstream list(workers);
  for (std::string w; std::getline(list, w, ',');) spec.workers.push_back(w);
  if (workers.empty() || workers.back() == ',') spec.workers.push_back("");
  spec.partitions = sweep::parse_positive_list(partitions, "--partitions");
  spec.queue_depths = sweep::parse_positive_list(queue_depths, "--queue-depths");
  if (!schedule_times.empty()) {
    spec.schedule_times = sweep::parse_seconds_list(schedule_times, "--schedule-times");
  }
  spec.hint_sets = hint_sets;
  spec.scheduler = scheduler;
  spec.launcher = launcher;
  for (const auto& s : settings) sweep::add_setting(spec.settings, s);
  return spec;
}

run::PlanOptions SweepOptions::plan_options(const std::string& runs_dir) const {
  run::PlanOptions options;
  options.runs_dir = runs_dir;
  options.template_path = template_path;
  return options;
}

}  // namespace pbench::cli
