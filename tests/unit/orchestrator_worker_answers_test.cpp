// A worker binary is asked about itself (--describe-parameters, --version) once per pbench
// process, not by every step that needs the answer (planning, the cost, the launch check),
// and asked again once the binary on disk changes.
#include <doctest/doctest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

#include "plan/WorkerAnswers.hpp"
#include "plan/WorkerSettings.hpp"
#include "support/RecordingRunner.hpp"
#include "util/Error.hpp"

using namespace pbench;
namespace fs = std::filesystem;

namespace {

/// A directory of its own with an executable file `name` in it (what the runner "runs").
struct FakeWorkerDir {
  explicit FakeWorkerDir(const std::string& name) {
    dir = fs::temp_directory_path() / ("pbench-answers-" + std::to_string(::getpid()) + "-" + name);
    fs::create_directories(dir);
    binary = dir / name;
    write("#!/bin/sh\n");
  }
  ~FakeWorkerDir() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
  void write(const std::string& text) const {
    std::ofstream(binary, std::ios::trunc) << text;
    fs::permissions(binary, fs::perms::owner_all);
  }
  fs::path dir;
  fs::path binary;
};

/// PBENCH_WORKER_DIR set for one test, restored after it.
struct WorkerDirVariable {
  explicit WorkerDirVariable(const std::string& value) {
    if (const char* old = std::getenv("PBENCH_WORKER_DIR")) before = old;
    ::setenv("PBENCH_WORKER_DIR", value.c_str(), 1);
  }
  ~WorkerDirVariable() {
    if (before) {
      ::setenv("PBENCH_WORKER_DIR", before->c_str(), 1);
    } else {
      ::unsetenv("PBENCH_WORKER_DIR");
    }
  }
  std::optional<std::string> before;
};

}  // namespace

TEST_CASE("a worker is asked --describe-parameters once per binary and question per process") {
  const FakeWorkerDir fake("pbench-answers-once");
  const WorkerDirVariable variable(fake.dir.string());
  testing::RecordingRunner runner;
  const std::string answer = R"({"parameters":[{"name":"runs","default":3}]})";
  runner.reply(0, answer);
  const auto describe = run::describe_worker_with(runner);
  const auto first = describe("pbench-answers-once", {});
  // Planning, the plan's cost and the stored sweep's cost ask again: the kept answer.
  CHECK(describe("pbench-answers-once", {}) == first);
  CHECK(run::describe_worker_with(runner)("pbench-answers-once", {}) == first);
  REQUIRE(runner.commands.size() == 1);
  CHECK(runner.commands[0] ==
        std::vector<std::string>{fake.binary.string(), "--describe-parameters"});
  CHECK(first == nlohmann::json::parse(answer));
  // Other values to read are another question, asked once too.
  runner.reply(0, answer);
  describe("pbench-answers-once", {"--runs=5"});
  describe("pbench-answers-once", {"--runs=5"});
  CHECK(runner.commands.size() == 2);
  // A refusal is not kept: asked again, and named as before each time.
  runner.reply(2, "", "--runs: 'x' is not a number\n");
  runner.reply(2, "", "--runs: 'x' is not a number\n");
  CHECK_THROWS_WITH_AS(describe("pbench-answers-once", {"--runs=x"}), "--runs: 'x' is not a number",
                       UsageError);
  CHECK_THROWS_WITH_AS(describe("pbench-answers-once", {"--runs=x"}), "--runs: 'x' is not a number",
                       UsageError);
  CHECK(runner.commands.size() == 4);
}

TEST_CASE("a worker binary changed on disk (size, modification time) is asked again") {
  const FakeWorkerDir fake("pbench-answers-changed");
  const std::string path = fake.binary.string();
  run::WorkerAnswers answers;
  testing::RecordingRunner runner;
  const std::chrono::seconds timeout{30};
  runner.reply(0, "pbench 1\n");
  CHECK(answers.ask(runner, {path, "--version"}, timeout).out == "pbench 1\n");
  CHECK(answers.ask(runner, {path, "--version"}, timeout).out == "pbench 1\n");
  CHECK(runner.commands.size() == 1);
  // Rebuilt: another size.
  fake.write("#!/bin/sh\n# rebuilt\n");
  runner.reply(0, "pbench 2\n");
  CHECK(answers.ask(runner, {path, "--version"}, timeout).out == "pbench 2\n");
  CHECK(runner.commands.size() == 2);
  // Same size, another modification time.
  fs::last_write_time(fake.binary, fs::last_write_time(fake.binary) - std::chrono::hours(1));
  runner.reply(0, "pbench 3\n");
  CHECK(answers.ask(runner, {path, "--version"}, timeout).out == "pbench 3\n");
  CHECK(answers.ask(runner, {path, "--version"}, timeout).out == "pbench 3\n");
  CHECK(runner.commands.size() == 3);
  // The same binary by another path (a relative one) is the same binary.
  const auto cwd = fs::current_path();
  fs::current_path(fake.dir);
  CHECK(answers.ask(runner, {"./pbench-answers-changed", "--version"}, timeout).out ==
        "pbench 3\n");
  fs::current_path(cwd);
  CHECK(runner.commands.size() == 3);
  // A binary that is not there is never kept: each ask runs (and fails) as before.
  runner.reply(127, "", "not found\n");
  runner.reply(127, "", "not found\n");
  CHECK(answers.ask(runner, {(fake.dir / "gone").string(), "--version"}, timeout).exit_code == 127);
  CHECK(answers.ask(runner, {(fake.dir / "gone").string(), "--version"}, timeout).exit_code == 127);
  CHECK(runner.commands.size() == 5);
}
