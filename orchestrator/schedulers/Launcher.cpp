#include "schedulers/Launcher.hpp"

#include <signal.h>
#include <string.h>

#include <sstream>

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
       // -K: a rank that dies ends the step; without it the others wait for it until the
       // job's time limit.
       return std::vector<std::string>{"srun", "--mpi=pmi2", "-n", std::to_string(n),
                                       "--kill-on-bad-exit=1"};
     }},
};

std::optional<std::string> signal_abbreviation(int number) {
  if (number <= 0 || number >= NSIG) return std::nullopt;
  const char* name = ::sigabbrev_np(number);
  return name ? std::optional<std::string>(name) : std::nullopt;
}

// "Killed" or "Segmentation fault (core dumped)": the signal whose description it is.
std::optional<std::string> signal_described(std::string text) {
  const std::string core = " (core dumped)";
  if (text.size() > core.size() && text.compare(text.size() - core.size(), core.size(), core) == 0)
    text.erase(text.size() - core.size());
  for (int number = 1; number < NSIG; ++number) {
    const char* description = ::sigdescr_np(number);
    if (description && text == description) return signal_abbreviation(number);
  }
  return std::nullopt;
}

}  // namespace

std::optional<std::string> launcher_reported_signal(const std::string& output) {
  std::istringstream in(output);
  for (std::string line; std::getline(in, line);) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    // Hydra: "YOUR APPLICATION TERMINATED WITH THE EXIT STRING: Killed (signal 9)".
    const std::string hydra = "TERMINATED WITH THE EXIT STRING: ";
    if (const auto at = line.find(hydra); at != std::string::npos) {
      const auto open = line.rfind("(signal ");
      if (open != std::string::npos && open > at) {
        try {
          if (auto name = signal_abbreviation(std::stoi(line.substr(open + 8)))) return name;
        } catch (const std::exception&) {
          // Not a number: not the report this looks for.
        }
      }
      continue;
    }
    // srun: "srun: error: HOST: task 0: Killed" or "... tasks 0-3: Segmentation fault".
    if (line.rfind("srun: error: ", 0) == 0 &&
        (line.find(": task ") != std::string::npos || line.find(": tasks ") != std::string::npos)) {
      const auto colon = line.rfind(": ");
      if (auto name = signal_described(line.substr(colon + 2))) return name;
    }
  }
  return std::nullopt;
}

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
