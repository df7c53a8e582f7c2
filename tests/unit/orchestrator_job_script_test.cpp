// One job script body for every scheduler (jobtemplates/job.sh): each scheduler's rendered script
// holds every line of the body as often as the body does, so that a change to the job's life
// cycle reaches them all, and only that scheduler's own directives and lines.
#include <doctest/doctest.h>

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "jobs/ShellQuote.hpp"
#include "pbench_jobtemplates.hpp"
#include "plan/SweepPlanner.hpp"
#include "process/ProcessRunner.hpp"
#include "schedulers/Scheduler.hpp"
#include "sweep/SweepSpec.hpp"

using namespace pbench;

namespace {

std::vector<std::string> text_lines(std::string_view text) {
  std::vector<std::string> out;
  std::istringstream in{std::string(text)};
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

// How often each line occurs in `text`.
std::map<std::string, int> line_counts(std::string_view text) {
  std::map<std::string, int> counts;
  for (const auto& line : text_lines(text)) ++counts[line];
  return counts;
}

// The lines of a script that a batch system reads as directives.
std::vector<std::string> batch_directives(const std::string& script) {
  std::vector<std::string> out;
  for (const auto& line : text_lines(script)) {
    if (line.rfind("#SBATCH", 0) == 0 || line.rfind("#PBS", 0) == 0) out.push_back(line);
  }
  return out;
}

// The one point of a logp sweep on 2 processes under `scheduler`, planned.
run::PlannedPoint planned_point(const std::string& scheduler) {
  sweep::SweepSpec spec;
  spec.name = "body";
  spec.partitions = {2};
  spec.set_values("queue_depth", nlohmann::json::array({1}));
  spec.scheduler = scheduler;
  spec.time_limit_seconds = scheduler == "local" ? 0 : 600;
  ::setenv("PBENCH_WORKER_DIR", PBENCH_BINARY_DIR "/workers/logp", 1);
  const auto plan = run::make_plan(spec, {});
  ::unsetenv("PBENCH_WORKER_DIR");
  REQUIRE(plan.points.size() == 1);
  return plan.points[0];
}

}  // namespace

TEST_CASE("every scheduler's job script holds the one body's lines as often as the body does") {
  const auto body = text_lines(jobtemplates::job_sh());
  // The body's own lines (those without a placeholder), with the life cycle among them.
  std::map<std::string, int> own;
  for (const auto& line : body) {
    if (line.find("{{") == std::string::npos) ++own[line];
  }
  REQUIRE(own.count("trap pbench_on_exit EXIT") == 1);
  REQUIRE(own.count("echo $$ >job.pid.tmp && mv -f job.pid.tmp job.pid") == 1);
  for (const auto& name : schedulers::scheduler_names()) {
    CAPTURE(name);
    const auto counts = line_counts(planned_point(name).script);
    for (const auto& [line, times] : own) {
      CAPTURE(line);
      REQUIRE(counts.count(line) == 1);
      CHECK(counts.at(line) == times);
    }
  }
}

TEST_CASE("each scheduler's job script carries its own directives and lines, no other's") {
  process::BoostProcessRunner runner;
  for (const auto& name : schedulers::scheduler_names()) {
    CAPTURE(name);
    const auto point = planned_point(name);
    const std::string& script = point.script;
    const auto lines = text_lines(script);
    const auto counts = line_counts(script);
    // The directives the scheduler writes for the point's resources, in its order, and no
    // other directive line.
    schedulers::JobResources resources;
    resources.job_name = "pb-" + point.point.key.substr(0, 12);
    resources.ntasks = 2;
    resources.exclusive = true;
    resources.time_limit_seconds = name == "local" ? 0 : 600;
    const auto expected = schedulers::make_scheduler(name, runner)->directives(resources);
    CHECK(batch_directives(script) == expected);
    // The scheduler's first lines, once, before the traps; no other scheduler's.
    const auto& parts = schedulers::job_script_parts(name);
    for (const auto& line : parts.start) CHECK(counts.count(line) == 1);
    for (const auto& other : schedulers::scheduler_names()) {
      for (const auto& line : schedulers::job_script_parts(other).start) {
        if (std::find(parts.start.begin(), parts.start.end(), line) == parts.start.end()) {
          CHECK_MESSAGE(counts.count(line) == 0, other << "'s line in " << name << ": " << line);
        }
      }
    }
    // Its nodes and the variables job.env records.
    CHECK(counts.count("  printf 'PBENCH_NODE_LIST=%s\\0' " + parts.node_list) == 1);
    CHECK(counts.count("  env -0 | grep -z -E " + jobs::shell_quote(parts.recorded_variables) +
                       " || true") == 1);
    // The body has no empty line, and a scheduler without directives or first lines leaves none.
    CHECK(lines.at(1).rfind("# pbench job script for the scheduler " + name + ",", 0) == 0);
    CHECK(std::find(lines.begin(), lines.end(), std::string()) == lines.end());
  }
}

TEST_CASE("every scheduler's job script is valid bash") {
  namespace fs = std::filesystem;
  const fs::path dir =
      fs::temp_directory_path() / ("pbench-job-script-test-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  for (const auto& name : schedulers::scheduler_names()) {
    CAPTURE(name);
    const fs::path path = dir / (name + ".sh");
    std::ofstream(path) << planned_point(name).script;
    CHECK(std::system(("bash -n " + path.string()).c_str()) == 0);
  }
  fs::remove_all(dir);
}
