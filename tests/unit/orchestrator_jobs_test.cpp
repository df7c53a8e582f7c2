// Job templates: placeholders, quoting of every substituted value, and the errors for unknown
// and missing placeholders.
#include <doctest/doctest.h>

#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "jobs/JobTemplate.hpp"
#include "jobs/ShellQuote.hpp"
#include "schedulers/Scheduler.hpp"
#include "util/Error.hpp"

using namespace pbench;
using namespace pbench::jobs;

TEST_CASE("shell quoting keeps plain words and quotes everything else") {
  CHECK(shell_quote("mpiexec") == "mpiexec");
  CHECK(shell_quote("/a/b-c.d") == "/a/b-c.d");
  CHECK(shell_quote("") == "''");
  CHECK(shell_quote("a b") == "'a b'");
  CHECK(shell_quote("it's") == "'it'\\''s'");
  CHECK(shell_quote("$(touch x)") == "'$(touch x)'");
  CHECK_THROWS_AS(shell_quote(std::string("a\0b", 3)), UsageError);
  CHECK(shell_join({"mpiexec", "-n", "2", "a;b"}) == "mpiexec -n 2 'a;b'");
}

TEST_CASE("a template renders quoted values and commands") {
  JobTemplate t("t", "#!/bin/sh\necho {{sweep}}\n{{command}}\n");
  CHECK(t.placeholders() == std::set<std::string>{"sweep", "command"});
  const auto text = t.render(
      {{"sweep", std::string("a b")}, {"command", std::vector<std::string>{"echo", "$HOME"}}},
      {"command"});
  CHECK(text == "#!/bin/sh\necho 'a b'\necho '$HOME'\n");
}

TEST_CASE("unknown, malformed and missing placeholders are errors") {
  JobTemplate t("t", "{{nope}}");
  CHECK_THROWS_WITH_AS(t.render({{"sweep", std::string("x")}}, {}),
                       "template t: unknown placeholder {{nope}} (known: sweep)", UsageError);
  CHECK_THROWS_AS(JobTemplate("t", "{{Bad Name}}"), UsageError);
  CHECK_THROWS_AS(JobTemplate("t", "{{unclosed"), UsageError);
  JobTemplate no_command("t", "echo {{sweep}}");
  CHECK_THROWS_WITH_AS(no_command.render({{"sweep", std::string("x")}}, {"command"}),
                       "template t does not use the required placeholder {{command}}", UsageError);
}

TEST_CASE("a rendered command with shell metacharacters runs literally") {
  namespace fs = std::filesystem;
  const fs::path dir =
      fs::temp_directory_path() / ("pbench-jobs-test-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const fs::path canary = dir / "canary";
  const fs::path out = dir / "out";
  JobTemplate t("t", "{{command}} > {{out}}\n");
  const std::string hostile = "$(touch " + canary.string() + ")`touch " + canary.string() +
                              "`;touch " + canary.string() + " 'q\" \n--";
  const auto script = t.render(
      {{"command", std::vector<std::string>{"printf", "%s", hostile}}, {"out", out.string()}}, {});
  const fs::path script_path = dir / "job.sh";
  std::ofstream(script_path) << script;
  REQUIRE(std::system(("sh " + script_path.string()).c_str()) == 0);
  std::ifstream in(out);
  std::string written((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK(written == hostile);
  CHECK_FALSE(fs::exists(canary));
  fs::remove_all(dir);
}

TEST_CASE("the built-in template needs only the placeholders the planner fills") {
  CHECK(JobTemplate::builtin().placeholders() ==
        std::set<std::string>{"scheduler", "directives", "start", "time_limit_seconds", "sweep",
                              "point_key", "worker", "partition", "nodes", "procs_per_node",
                              "setup", "worker_binary", "node_list", "mpi_record",
                              "recorded_variables", "command"});
  // The scheduler's own part comes from the table of schedulers, which knows no other.
  CHECK_THROWS_WITH_AS(schedulers::job_script_parts("lsf"),
                       "unknown scheduler 'lsf' (known: local, slurm, pbs)", UsageError);
}

TEST_CASE("a line placeholder with no lines leaves no empty line") {
  JobTemplate t("t", "#!/bin/sh\n{{directives}}\nset -u\n{{start}}\n{{command}}\n");
  const std::vector<std::string> command{"true"};
  CHECK(t.render({{"directives", VerbatimLines{}},
                  {"start", VerbatimLines{{"cd x"}}},
                  {"command", command}},
                 {}) == "#!/bin/sh\nset -u\ncd x\ntrue\n");
  CHECK(t.render({{"directives", VerbatimLines{{"#PBS -N a"}}},
                  {"start", VerbatimLines{}},
                  {"command", command}},
                 {}) == "#!/bin/sh\n#PBS -N a\nset -u\ntrue\n");
  // Within a line, no lines are just nothing.
  JobTemplate inline_use("t", "echo {{node_list}} done\n");
  CHECK(inline_use.render({{"node_list", VerbatimLines{}}}, {}) == "echo  done\n");
}
