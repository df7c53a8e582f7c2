#include "schedulers/LocalScheduler.hpp"
#include "schedulers/PbsScheduler.hpp"
#include "schedulers/SlurmScheduler.hpp"
#include "util/Error.hpp"

namespace pbench::schedulers {
namespace {

struct SchedulerEntry {
  const char* name;
  std::unique_ptr<Scheduler> (*make)(process::ProcessRunner&);
};

// Every scheduler pbench knows, in one table.
const SchedulerEntry kSchedulers[] = {
    {"local",
     [](process::ProcessRunner& r) -> std::unique_ptr<Scheduler> {
       return std::make_unique<LocalScheduler>(r);
     }},
    {"slurm",
     [](process::ProcessRunner& r) -> std::unique_ptr<Scheduler> {
       return std::make_unique<SlurmScheduler>(r);
     }},
    {"pbs",
     [](process::ProcessRunner& r) -> std::unique_ptr<Scheduler> {
       return std::make_unique<PbsScheduler>(r);
     }},
};

}  // namespace

std::unique_ptr<Scheduler> make_scheduler(const std::string& name, process::ProcessRunner& runner) {
  std::string known;
  for (const auto& entry : kSchedulers) {
    if (name == entry.name) return entry.make(runner);
    known += (known.empty() ? "" : ", ") + std::string(entry.name);
  }
  throw UsageError("unknown scheduler '" + name + "' (known: " + known + ")");
}

}  // namespace pbench::schedulers

namespace pbench::schedulers {
std::vector<std::string> scheduler_names() {
  std::vector<std::string> names;
  for (const auto& entry : kSchedulers) names.emplace_back(entry.name);
  return names;
}
}  // namespace pbench::schedulers
