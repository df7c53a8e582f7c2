#include "plan/LaunchPreflight.hpp"

#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <set>

#include "plan/SweepPlanner.hpp"
#include "plan/WorkerAnswers.hpp"
#include "schedulers/Launcher.hpp"
#include "sweep/WorkerCatalog.hpp"
#include "util/Error.hpp"

namespace pbench::run {
namespace fs = std::filesystem;

namespace {

constexpr std::chrono::seconds kVersionTimeout{30};

/// What one environment (or the sweep without environments) launches with.
struct Launch {
  std::string where;  ///< "environment 'openmpi': " or ""
  schedulers::LaunchSpec launcher;
  std::string worker_dir;  ///< empty: the workers as planning finds them (locate_worker)
  bool set_up = false;     ///< the jobs run lines or export variables before the worker
};

bool executable_file(const std::string& path) {
  std::error_code ec;
  return fs::is_regular_file(path, ec) && ::access(path.c_str(), X_OK) == 0;
}

void check_program(const Launch& launch, std::vector<std::string>& out) {
  std::vector<std::string> words;
  try {
    words = schedulers::launch_command(launch.launcher, 1, 0, 0, {"worker"});
  } catch (const UsageError& e) {
    out.push_back(launch.where + e.what());
    return;
  }
  if (words.size() < 2) return;  // a custom line that launches the worker itself
  const std::string& program = words.front();
  if (program.find('/') != std::string::npos) {
    std::error_code ec;
    if (!fs::exists(program, ec)) {
      out.push_back(launch.where + "launcher program '" + program + "' (" +
                    launch.launcher.describe() + ") does not exist");
    } else if (!executable_file(program)) {
      out.push_back(launch.where + "launcher program '" + program + "' is not an executable file");
    }
  } else if (!launch.set_up && !process::command_exists(program)) {
    out.push_back(launch.where + "launcher program '" + program + "' (" +
                  launch.launcher.describe() + ") is not on PATH");
  }
}

void check_worker(const Launch& launch, const std::string& binary, process::ProcessRunner& runner,
                  std::vector<std::string>& out) {
  std::string path;
  if (!launch.worker_dir.empty()) {
    path = (fs::path(launch.worker_dir) / binary).string();
    if (!executable_file(path)) {
      out.push_back(launch.where + "worker binary '" + path +
                    "' not found or not executable (worker_dir of the site profile)");
      return;
    }
  } else {
    try {
      path = locate_worker(binary);
    } catch (const UsageError& e) {
      out.push_back(launch.where + e.what());
      return;
    }
  }
  if (launch.set_up) return;
  process::ProcessResult result;
  try {
    result = WorkerAnswers::shared().ask(runner, {path, "--version"}, kVersionTimeout);
  } catch (const std::exception& e) {
    out.push_back(launch.where + "worker '" + path + " --version' could not run: " + e.what());
    return;
  }
  if (result.exit_code != 0) {
    std::string said = result.err.empty() ? result.out : result.err;
    if (const auto end = said.find('\n'); end != std::string::npos) said.erase(end);
    out.push_back(launch.where + "worker '" + path + " --version' exited " +
                  std::to_string(result.exit_code) + (said.empty() ? "" : ": " + said));
  }
}

}  // namespace

std::vector<std::string> LaunchPreflight::problems(const sweep::SweepSpec& spec,
                                                   process::ProcessRunner& runner) {
  const bool sweep_set_up = !spec.lines.empty() || !spec.variables.empty();
  std::vector<Launch> launches;
  if (spec.environments.empty()) {
    launches.push_back({"", spec.launcher, "", sweep_set_up});
  } else {
    for (const auto& env : spec.environments) {
      launches.push_back({"environment '" + env.name + "': ", env.launcher.value_or(spec.launcher),
                          env.worker_dir,
                          sweep_set_up || !env.lines.empty() || !env.variables.empty()});
    }
  }
  std::vector<std::string> out;
  for (const auto& launch : launches) {
    check_program(launch, out);
    std::set<std::string> binaries;
    for (const auto& worker : spec.workers) binaries.insert(sweep::find_worker(worker).binary);
    for (const auto& binary : binaries) check_worker(launch, binary, runner, out);
  }
  return out;
}

void LaunchPreflight::check(const sweep::SweepSpec& spec, process::ProcessRunner& runner) {
  const auto found = problems(spec, runner);
  if (found.empty()) return;
  std::string text;
  for (const auto& line : found) text += "\n  " + line;
  throw UsageError(
      "sweep '" + spec.name + "' cannot launch its points:" + text +
      "\nnothing was submitted (fix the site profile or the sweep, then submit again)");
}

}  // namespace pbench::run
