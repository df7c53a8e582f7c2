// Packing: the packed job script (checked as a set of lines) and the driver submitting one job
// per partition or per sweep, polling each job once, and taking every point's state, exit status
// and result from its own exit marker.
#include <doctest/doctest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "drive/SweepDriver.hpp"
#include "jobs/PackScript.hpp"
#include "store/Store.hpp"
#include "support/ResultFixtures.hpp"
#include "sweep/SweepSpec.hpp"
#include "util/Error.hpp"

using namespace pbench;
using namespace pbench::schedulers;
using store::PointState;
namespace fs = std::filesystem;

namespace {

std::set<std::string> lines_of(const std::string& text) {
  std::set<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.insert(line);
  return out;
}

/// Records packed submissions (their directives tell the resources); jobs end when told.
class PackFakeScheduler : public Scheduler {
 public:
  std::string name() const override { return "fake"; }
  std::vector<std::string> directives(const JobResources& r) const override {
    return {"#FAKE ntasks=" + std::to_string(r.ntasks),
            "#FAKE time=" + std::to_string(r.time_limit_seconds), "#FAKE dialect=" + r.dialect};
  }
  std::string submit(const JobSubmission& job) override {
    const std::string id = std::to_string(500 + submitted.size());
    submitted.push_back(job);
    states[id] = {id, JobState::queued, "PENDING", {}, {}, {}, {}};
    return id;
  }
  std::vector<JobStatus> poll(const std::vector<JobRef>& jobs) override {
    polled.push_back(jobs.size());
    std::vector<JobStatus> out;
    for (const auto& j : jobs) out.push_back(states.at(j.job_id));
    return out;
  }
  void cancel(const std::vector<JobRef>& jobs) override { cancelled += jobs.size(); }
  void set(const std::string& id, JobState state, const std::string& native) {
    states[id].state = state;
    states[id].native_state = native;
  }

  std::vector<JobSubmission> submitted;
  std::map<std::string, JobStatus> states;
  std::vector<std::size_t> polled;
  std::size_t cancelled = 0;
};

struct Fixture {
  fs::path dir;
  store::Store store = store::Store::open_in_memory();
  PackFakeScheduler scheduler;
  store::SweepRecord sweep;
  std::vector<store::PointRecord> points;

  explicit Fixture(const std::vector<int>& partitions, const std::string& scheduler_name = "slurm",
                   const std::string& dialect = "") {
    dir = fs::temp_directory_path() / ("pbench-pack-test-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    for (std::size_t i = 0; i < partitions.size(); ++i) {
      store::PointRecord p;
      p.key = "k" + std::to_string(i);
      p.worker = "logp";
      p.partition = partitions[i];
      p.params_json = "{}";
      p.script_path = (dir / "points" / p.key / "job.sh").string();
      fs::create_directories(fs::path(p.script_path).parent_path());
      // Each point's script holds its time limit (the packed job's is their sum).
      std::ofstream(p.script_path) << "#!/usr/bin/env bash\npbench_time_limit_s=60\n";
      points.push_back(p);
    }
    sweep::SweepSpec spec;
    spec.name = "s";
    spec.scheduler = scheduler_name;
    spec.dialect = dialect;
    sweep = store.insert_sweep({0, "s", spec.to_json().dump(), "fake", dir.string(), "t"}, points);
  }
  ~Fixture() { fs::remove_all(dir); }

  std::string attempt_dir(std::size_t i) {
    return (dir / "points" / points[i].key / "attempt-1").string();
  }
  /// Point i's step ends with `status` (and a result when it succeeded).
  void step_ends(std::size_t i, int status) {
    const fs::path d = attempt_dir(i);
    std::ofstream(d / "job.env") << "";
    if (status == 0) {
      std::ofstream(d / "result.json") << testing::logp_document(2, 8, 1e-6, 2e-7, 1e-10).dump();
    }
    std::ofstream(d / "exit.json") << "{\"status\": " << status
                                   << ", \"signal\": \"\", \"reason\": \"\", \"started_at\": "
                                      "\"2026-11-22T10:00:00.000Z\", \"ended_at\": "
                                      "\"2026-11-22T10:00:02.000Z\"}\n";
  }
  PointState state(std::size_t i) { return store.points(sweep.id)[i].state; }
};

}  // namespace

TEST_CASE("a packed job script runs each point's script as a step in its attempt directory") {
  const std::string script = run::render_pack_script(
      {"#SBATCH --ntasks=2", "#SBATCH --time=00:02:00"}, {}, "demo",
      {{"k0", "/runs/demo/points/k0/job.sh", "/runs/demo/points/k0/attempt-1"},
       {"k1", "/runs/it's/points/k1/job.sh", "/runs/it's/points/k1/attempt-1"}});
  const auto lines = lines_of(script);
  CHECK(script.rfind("#!/usr/bin/env bash\n", 0) == 0);
  CHECK(lines.count("#SBATCH --ntasks=2") == 1);
  CHECK(lines.count("#SBATCH --time=00:02:00") == 1);
  CHECK(lines.count("trap pbench_on_exit EXIT") == 1);
  CHECK(lines.count("pbench_step k0 /runs/demo/points/k0/job.sh /runs/demo/points/k0/attempt-1") ==
        1);
  // Every substituted value is shell-quoted.
  CHECK(lines.count("pbench_step k1 '/runs/it'\\''s/points/k1/job.sh' "
                    "'/runs/it'\\''s/points/k1/attempt-1'") == 1);
  // Directives come before the first command; steps run in the given order.
  CHECK(script.find("#SBATCH --ntasks=2") < script.find("set -u"));
  CHECK(script.find("pbench_step k0 ") < script.find("pbench_step k1 "));
  // bash accepts it.
  const fs::path file = fs::temp_directory_path() / ("pbench-pack-" + std::to_string(::getpid()));
  std::ofstream(file) << script;
  CHECK(std::system(("bash -n " + file.string()).c_str()) == 0);
  fs::remove(file);
  CHECK(run::pack_mode_from("sweep") == run::PackMode::sweep);
  CHECK_THROWS_AS(run::pack_mode_from("node"), UsageError);
}

TEST_CASE("a packed job starts where its scheduler's job scripts start") {
  // Under PBS a job starts in the home directory: the packed job goes into the directory qsub
  // ran in ($PBS_O_WORKDIR, its pack directory) before it writes its own exit marker there.
  const fs::path dir =
      fs::temp_directory_path() / ("pbench-pack-start-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir / "pack");
  fs::create_directories(dir / "point" / "attempt-1");
  std::ofstream(dir / "point" / "job.sh") << "echo step ran in \"$PWD\"\n";
  const std::string script = run::render_pack_script(
      {"#PBS -l nodes=1"}, {R"sh(cd "${PBS_O_WORKDIR:-.}" || exit 1)sh"}, "demo",
      {{"k0", (dir / "point" / "job.sh").string(), (dir / "point" / "attempt-1").string()}});
  CHECK(script.find("#PBS -l nodes=1") < script.find("cd \"${PBS_O_WORKDIR:-.}\""));
  CHECK(script.find("cd \"${PBS_O_WORKDIR:-.}\"") < script.find("trap pbench_on_exit EXIT"));
  std::ofstream(dir / "pack" / "job.sh") << script;
  // Started elsewhere (as PBS starts it), with qsub's directory in $PBS_O_WORKDIR.
  const std::string command = "cd / && PBS_O_WORKDIR='" + (dir / "pack").string() + "' bash '" +
                              (dir / "pack" / "job.sh").string() + "'";
  CHECK(std::system(command.c_str()) == 0);
  CHECK(fs::exists(dir / "pack" / "exit.json"));
  std::ifstream out(dir / "point" / "attempt-1" / "stdout.log");
  const std::string text(std::istreambuf_iterator<char>(out), {});
  CHECK(text == "step ran in " + (dir / "point" / "attempt-1").string() + "\n");
  fs::remove_all(dir);
}

TEST_CASE("--pack under PBS: the sweep's dialect and PBS's start line reach the packed job") {
  Fixture f({1, 2}, "pbs", "pbspro");
  run::SweepDriver driver(f.store, f.scheduler, f.sweep);
  driver.set_pack(run::PackMode::sweep);
  CHECK(driver.submit_ready(1) == 2);
  REQUIRE(f.scheduler.submitted.size() == 1);
  std::ifstream in(f.scheduler.submitted[0].script_path);
  const auto lines = lines_of(std::string(std::istreambuf_iterator<char>(in), {}));
  CHECK(lines.count("#FAKE dialect=pbspro") == 1);
  CHECK(lines.count(R"sh(cd "${PBS_O_WORKDIR:-.}" || exit 1)sh") == 1);
  // Slurm's packed job has no start line (sbatch starts it where it was submitted).
  Fixture g({1});
  run::SweepDriver slurm(g.store, g.scheduler, g.sweep);
  slurm.set_pack(run::PackMode::sweep);
  CHECK(slurm.submit_ready(1) == 1);
  std::ifstream in2(g.scheduler.submitted[0].script_path);
  const std::string text(std::istreambuf_iterator<char>(in2), {});
  CHECK(text.find("PBS_O_WORKDIR") == std::string::npos);
}

TEST_CASE("--pack partition submits one job per partition size, sized for it") {
  Fixture f({1, 1, 2});
  run::SweepDriver driver(f.store, f.scheduler, f.sweep);
  driver.set_pack(run::PackMode::partition);
  CHECK(driver.submit_ready(4) == 3);
  REQUIRE(f.scheduler.submitted.size() == 2);
  std::ifstream in1(f.scheduler.submitted[0].script_path);
  const auto first = lines_of(std::string(std::istreambuf_iterator<char>(in1), {}));
  CHECK(first.count("#FAKE ntasks=1") == 1);
  CHECK(first.count("#FAKE time=120") == 1);  // two points of 60 s each
  CHECK(first.count("pbench_step k0 " + f.points[0].script_path + " " + f.attempt_dir(0)) == 1);
  CHECK(first.count("pbench_step k1 " + f.points[1].script_path + " " + f.attempt_dir(1)) == 1);
  std::ifstream in2(f.scheduler.submitted[1].script_path);
  const auto second = lines_of(std::string(std::istreambuf_iterator<char>(in2), {}));
  CHECK(second.count("#FAKE ntasks=2") == 1);
  // The budget counts jobs: with one job allowed, the second partition waits.
  Fixture g({1, 2});
  run::SweepDriver limited(g.store, g.scheduler, g.sweep);
  limited.set_pack(run::PackMode::partition);
  CHECK(limited.submit_ready(1) == 1);
  CHECK(limited.submit_ready(1) == 0);
}

TEST_CASE("--pack sweep: one job, each point's state and exit status from its own marker") {
  Fixture f({1, 2, 2});
  run::SweepDriver driver(f.store, f.scheduler, f.sweep);
  driver.set_pack(run::PackMode::sweep);
  CHECK(driver.submit_ready(1) == 3);
  REQUIRE(f.scheduler.submitted.size() == 1);
  const std::string id = "500";
  std::ifstream in(f.scheduler.submitted[0].script_path);
  CHECK(lines_of(std::string(std::istreambuf_iterator<char>(in), {})).count("#FAKE ntasks=2") == 1);
  for (std::size_t i = 0; i < 3; ++i) {
    CHECK(f.store.latest_attempt(f.points[i].id)->job_id == id);
  }
  // Running: the first step has ended well, the second failed, the third has not started.
  f.scheduler.set(id, JobState::running, "RUNNING");
  f.step_ends(0, 0);
  f.step_ends(1, 3);
  driver.poll_once();
  CHECK(f.scheduler.polled.back() == 1);  // one job, polled once
  CHECK(f.state(0) == PointState::done);
  CHECK(f.state(1) == PointState::failed);
  CHECK(f.store.latest_attempt(f.points[1].id)->exit_status == 3);
  CHECK(f.state(2) == PointState::queued);
  // The job is cancelled before the third step ran: only that point is cancelled.
  f.scheduler.set(id, JobState::cancelled, "CANCELLED");
  driver.poll_once();
  CHECK(f.state(0) == PointState::done);
  CHECK(f.state(1) == PointState::failed);
  CHECK(f.state(2) == PointState::cancelled);
  // A retry packs only the points that did not succeed, as a new attempt each.
  CHECK(driver.requeue_failed() == 2);
  CHECK(driver.submit_ready(1) == 2);
  REQUIRE(f.scheduler.submitted.size() == 2);
  std::ifstream again(f.scheduler.submitted[1].script_path);
  const auto steps = lines_of(std::string(std::istreambuf_iterator<char>(again), {}));
  CHECK(std::count_if(steps.begin(), steps.end(),
                      [](const auto& l) { return l.rfind("pbench_step k", 0) == 0; }) == 2);
  CHECK(f.store.attempts(f.points[1].id).size() == 2);
  CHECK(f.store.attempts(f.points[0].id).size() == 1);
  // A completed job whose step wrote no marker leaves that point failed, not done.
  f.scheduler.set("501", JobState::running, "RUNNING");
  f.scheduler.set("501", JobState::completed, "COMPLETED");
  driver.poll_once();
  CHECK(f.state(1) == PointState::failed);
  CHECK(f.store.latest_attempt(f.points[1].id)->native_state->find("without an exit marker") !=
        std::string::npos);
  CHECK(driver.cancel_all() == 0);
}
