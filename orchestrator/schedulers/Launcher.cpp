#include "schedulers/Launcher.hpp"

#include "util/Error.hpp"

namespace pbench::schedulers {
namespace {

struct LauncherEntry {
  const char* name;
  std::vector<std::string> (*prefix)(int nprocs);
};

// Every launcher pbench knows, in one table.
const LauncherEntry kLaunchers[] = {
    {"mpiexec",
     [](int n) {
       return std::vector<std::string>{"mpiexec", "-n", std::to_string(n)};
     }},
    {"srun",
     [](int n) {
       return std::vector<std::string>{"srun", "--mpi=pmi2", "-n", std::to_string(n)};
     }},
};

}  // namespace

std::vector<std::string> launch_command(const std::string& name, int nprocs,
                                        const std::vector<std::string>& worker_argv) {
  for (const auto& entry : kLaunchers) {
    if (name == entry.name) {
      auto command = entry.prefix(nprocs);
      command.insert(command.end(), worker_argv.begin(), worker_argv.end());
      return command;
    }
  }
  std::string known;
  for (const auto& entry : kLaunchers)
    known += (known.empty() ? "" : ", ") + std::string(entry.name);
  throw UsageError("unknown launcher '" + name + "' (known: " + known + ")");
}

std::vector<std::string> launcher_names() {
  std::vector<std::string> names;
  for (const auto& entry : kLaunchers) names.emplace_back(entry.name);
  return names;
}

}  // namespace pbench::schedulers
