#include "schedulers/LocalScheduler.hpp"
#include "schedulers/PbsScheduler.hpp"
#include "schedulers/SlurmScheduler.hpp"
#include "util/Error.hpp"
#include "util/NamedEntry.hpp"

namespace pbench::schedulers {
namespace {

struct SchedulerEntry {
  const char* name;
  std::unique_ptr<Scheduler> (*make)(process::ProcessRunner&);
  JobScriptParts script;
};

// A batch job's nodes: Slurm's list (also under Slurm's PBS wrappers), else PBS's node file
// (a line per process) with each node once; and the batch system's variables with pbench's.
const char* const kBatchNodeList =
    R"sh("${SLURM_JOB_NODELIST:-$(awk '!seen[$0]++' "${PBS_NODEFILE:-/dev/null}" | paste -sd, -)}")sh";
const char* const kBatchVariables = "^(SLURM|PBS|PBENCH)_";

template <class ConcreteScheduler>
std::unique_ptr<Scheduler> construct_scheduler(process::ProcessRunner& runner) {
  return std::make_unique<ConcreteScheduler>(runner);
}

// Every scheduler pbench knows, in one table, with what its job scripts say beyond the body.
// A local job records only pbench's variables and this host: a pbench run inside a batch job
// (salloc) must not pass that job's nodes and variables off as its own.
const SchedulerEntry kSchedulers[] = {
    {"local", construct_scheduler<LocalScheduler>, {{}, R"sh("$(hostname)")sh", "^PBENCH_"}},
    {"slurm", construct_scheduler<SlurmScheduler>, {{}, kBatchNodeList, kBatchVariables}},
    // PBS starts a job in the home directory (Slurm's qsub wrapper: where qsub ran); pbench runs
    // qsub in the attempt directory, which PBS passes as $PBS_O_WORKDIR.
    {"pbs",
     construct_scheduler<PbsScheduler>,
     {{R"sh(cd "${PBS_O_WORKDIR:-.}" || exit 1)sh"}, kBatchNodeList, kBatchVariables}},
};

const SchedulerEntry& scheduler_entry(const std::string& name) {
  return named_entry(kSchedulers, name, "scheduler");
}

}  // namespace

std::unique_ptr<Scheduler> make_scheduler(const std::string& name, process::ProcessRunner& runner) {
  return scheduler_entry(name).make(runner);
}

const JobScriptParts& job_script_parts(const std::string& name) {
  return scheduler_entry(name).script;
}

std::vector<std::string> scheduler_names() {
  std::vector<std::string> names;
  for (const auto& entry : kSchedulers) names.emplace_back(entry.name);
  return names;
}

}  // namespace pbench::schedulers
