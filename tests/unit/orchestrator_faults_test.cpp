// Faults the orchestrator must record truthfully: a worker rank killed by a signal (as mpiexec
// and srun report it), exit markers that tell a cancel from a killed command, a scheduler that
// cannot be reached for a while (within a budget); on a scripted fake scheduler.
#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <thread>

#include "drive/SweepDriver.hpp"
#include "schedulers/Launcher.hpp"
#include "store/Store.hpp"
#include "util/Error.hpp"

using namespace pbench;
using namespace pbench::schedulers;
using store::PointState;
namespace fs = std::filesystem;

namespace {

struct ScratchDir {
  fs::path path;
  explicit ScratchDir(const std::string& name) {
    static int made = 0;
    path = fs::temp_directory_path() / ("pbench-faults-" + name + "-" + std::to_string(::getpid()) +
                                        "-" + std::to_string(++made));
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~ScratchDir() { fs::remove_all(path); }
};

/// Jobs that end as the test says; poll fails while `unavailable` holds a message.
class ScriptedScheduler : public Scheduler {
 public:
  std::string name() const override { return "scripted"; }
  std::string submit(const JobSubmission& job) override {
    if (!unavailable.empty()) throw SchedulerUnavailable(unavailable);
    const std::string id = std::to_string(100 + jobs.size());
    jobs[id] = job;
    states[id] = {id, JobState::running, "RUNNING", {}, {}, {}, {}};
    return id;
  }
  std::vector<JobStatus> poll(const std::vector<JobRef>& refs) override {
    ++polls;
    if (!unavailable.empty()) throw SchedulerUnavailable(unavailable);
    std::vector<JobStatus> out;
    for (const auto& r : refs) out.push_back(states.at(r.job_id));
    return out;
  }
  void cancel(const std::vector<JobRef>&) override {}

  std::map<std::string, JobSubmission> jobs;
  std::map<std::string, JobStatus> states;
  int polls = 0;
  std::string unavailable;  ///< while set, submit and poll fail with this message
};

struct OnePointSweep {
  ScratchDir dir{"sweep"};
  store::Store store = store::Store::open_in_memory();
  store::SweepRecord sweep;
  OnePointSweep() {
    store::PointRecord p;
    p.key = "k0";
    p.worker = "logp";
    p.partition = 2;
    p.params_json = R"({"queue_depth":8})";
    p.script_path = (dir.path / "points/k0/job.sh").string();
    fs::create_directories(fs::path(p.script_path).parent_path());
    std::vector<store::PointRecord> points{p};
    sweep = store.insert_sweep({0, "s", "{}", "scripted", dir.path.string(), "t"}, points);
  }
  store::AttemptRecord attempt() { return *store.latest_attempt(store.points(sweep.id)[0].id); }
};

/// The one point, submitted through a scripted scheduler as its job "100".
struct SubmittedPoint {
  OnePointSweep s;
  ScriptedScheduler scheduler;
  run::SweepDriver driver{s.store, scheduler, s.sweep};
  SubmittedPoint() { REQUIRE(driver.submit_ready(1) == 1); }
  const JobSubmission& job() const { return scheduler.jobs.at("100"); }
};

void write_file(const fs::path& path, const std::string& text) {
  std::ofstream out(path);
  out << text;
}

const char* kHydraReport =
    "\n===================================================================================\n"
    "=   BAD TERMINATION OF ONE OF YOUR APPLICATION PROCESSES\n"
    "=   PID 10027 RUNNING AT vm\n"
    "=   EXIT CODE: 9\n"
    "=   CLEANING UP REMAINING PROCESSES\n"
    "=   YOU CAN IGNORE THE BELOW CLEANUP MESSAGES\n"
    "===================================================================================\n"
    "YOUR APPLICATION TERMINATED WITH THE EXIT STRING: Killed (signal 9)\n"
    "This typically refers to a problem with your application.\n"
    "Please see the FAQ page for debugging suggestions\n";

}  // namespace

TEST_CASE("the launcher's report names the signal that killed a rank") {
  // Recorded on this machine: MPICH 4.0.2 Hydra after kill -KILL and kill -SEGV of one rank.
  CHECK(launcher_reported_signal(kHydraReport) == "KILL");
  CHECK(launcher_reported_signal(
            "YOUR APPLICATION TERMINATED WITH THE EXIT STRING: Segmentation fault (signal 11)\n") ==
        "SEGV");
  // Slurm 22.05 srun -K: the killed task first, then the ones srun terminated.
  CHECK(launcher_reported_signal("srun: error: vm: task 0: Killed\n"
                                 "srun: launch/slurm: _step_signal: Terminating StepId=581.0\n"
                                 "slurmstepd-vm: error: *** STEP 581.0 ON vm CANCELLED ***\n"
                                 "srun: error: vm: task 1: Terminated\n") == "KILL");
  CHECK(launcher_reported_signal(
            "srun: error: node7: tasks 0-3: Segmentation fault (core dumped)\n") == "SEGV");
  // Ordinary failures and other text name no signal.
  CHECK_FALSE(launcher_reported_signal("srun: error: vm: task 0: Exited with exit code 3\n"));
  CHECK_FALSE(launcher_reported_signal("pbench-logp: error: --eel-roundtrips must be positive\n"));
  CHECK_FALSE(launcher_reported_signal("EXIT STRING: Killed (signal x)\n"));
  CHECK_FALSE(launcher_reported_signal(""));
}

TEST_CASE("srun ends the step when one rank dies") {
  const auto argv = launch_command("srun", 4, {"pbench-logp"});
  CHECK(std::find(argv.begin(), argv.end(), "--kill-on-bad-exit=1") != argv.end());
}

TEST_CASE("an exit marker tells a cancelled job from a command ended by a signal") {
  ScratchDir dir("marker");
  auto state_of = [&](const std::string& marker) {
    write_file(dir.path / "exit.json", marker);
    return read_exit_marker(dir.path.string(), "1")->state;
  };
  // The script's own TERM (scancel, pbench cancel): cancelled.
  CHECK(state_of(R"({"status": 143, "signal": "TERM", "signal_source": "job"})") ==
        JobState::cancelled);
  // Its command ended by TERM (srun -K after another rank died): failed.
  CHECK(state_of(R"({"status": 143, "signal": "TERM", "signal_source": "command"})") ==
        JobState::failed);
  CHECK(state_of(R"({"status": 137, "signal": "KILL", "signal_source": "command"})") ==
        JobState::failed);
  // Markers of older templates (no signal_source) keep their meaning.
  CHECK(state_of(R"({"status": 143, "signal": "TERM"})") == JobState::cancelled);
  CHECK(
      state_of(
          R"({"status": 143, "signal": "TERM", "signal_source": "command", "reason": "time_limit"})") ==
      JobState::timeout);
}

TEST_CASE("a point whose rank was killed is failed with the signal the launcher reports") {
  SubmittedPoint f;
  const auto& job = f.job();
  write_file(job.stdout_path, kHydraReport);
  write_file(job.stderr_path, "");
  // mpiexec exits with the signal's number; the job script sees no signal of its own.
  f.scheduler.states["100"] = {"100", JobState::failed, "exited 9", 9, {}, "a", "b"};
  f.driver.poll_once();
  const auto attempt = f.s.attempt();
  CHECK(attempt.state == PointState::failed);
  CHECK(attempt.exit_status == 9);
  CHECK(attempt.signal == "KILL");
}

TEST_CASE("a cancelled point keeps its own signal whatever the launcher printed") {
  SubmittedPoint f;
  const auto& job = f.job();
  write_file(job.stderr_path, "srun: error: vm: task 0: Terminated\n");
  f.scheduler.states["100"] = {"100", JobState::cancelled, "CANCELLED", 143, "TERM", "a", "b"};
  f.driver.poll_once();
  CHECK(f.s.attempt().state == PointState::cancelled);
  CHECK(f.s.attempt().signal == "TERM");
}

TEST_CASE("while the scheduler is unreachable the driver waits, says so, and resumes") {
  SubmittedPoint f;
  f.scheduler.unavailable = "slurm: squeue failed: Unable to contact slurm controller";
  f.driver.poll_once();  // no news, no error
  f.driver.poll_once();
  CHECK(f.scheduler.polls == 2);
  CHECK(f.s.attempt().state == PointState::queued);
  const auto waiting = f.driver.progress();
  CHECK(waiting.note.find("scheduler unreachable for ") == 0);
  CHECK(waiting.note.find("(gives up after 600 s): slurm: squeue failed: Unable to contact") !=
        std::string::npos);
  // It answers again: the job's end is recorded and the note is gone.
  f.scheduler.unavailable.clear();
  write_file(f.job().job_dir + "/result.json", "{}");
  f.scheduler.states["100"] = {"100", JobState::completed, "COMPLETED", 0, {}, "a", "b"};
  f.driver.poll_once();
  CHECK(f.s.attempt().state == PointState::done);
  CHECK(f.driver.progress().note.empty());
}

TEST_CASE("an unreachable sbatch leaves the point planned without failing the cycle") {
  OnePointSweep s;
  ScriptedScheduler scheduler;
  run::SweepDriver driver(s.store, scheduler, s.sweep);
  scheduler.unavailable = "slurm: sbatch could not reach slurmctld";
  const auto p = driver.cycle(1);  // a refusal with nothing queued would throw here
  CHECK(p.count(PointState::planned) == 1);
  CHECK(p.note.find("slurm: sbatch could not reach slurmctld") != std::string::npos);
  scheduler.unavailable.clear();
  CHECK(driver.cycle(1).count(PointState::running) == 1);
  CHECK(s.store.attempts(s.store.points(s.sweep.id)[0].id).size() == 1);  // the same attempt
}

TEST_CASE("an outage longer than the budget ends the wait with a clear error") {
  OnePointSweep s;
  ScriptedScheduler scheduler;
  run::SweepDriver driver(s.store, scheduler, s.sweep);
  driver.set_outage_budget(std::chrono::seconds(30));
  REQUIRE(driver.submit_ready(1) == 1);
  // A driver before this one saw the scheduler fail 100 s ago, until moments ago.
  const auto since = std::chrono::duration_cast<std::chrono::seconds>(
                         std::chrono::system_clock::now().time_since_epoch())
                         .count() -
                     100;
  const fs::path file = s.dir.path / "scheduler-unavailable";
  write_file(file, std::to_string(since) + " 30\nslurm: squeue failed: earlier\n");
  scheduler.unavailable = "slurm: squeue failed: Unable to contact slurm controller";
  CHECK_THROWS_WITH_AS(driver.poll_once(),
                       doctest::Contains("longer than the outage budget of 30 s "
                                         "(--scheduler-outage); last failure: slurm: squeue "
                                         "failed: Unable to contact slurm controller"),
                       SchedulerError);
  // An outage file left long ago by a driver that died is not this outage.
  OnePointSweep t;
  run::SweepDriver fresh(t.store, scheduler, t.sweep);
  fresh.set_outage_budget(std::chrono::seconds(30));
  scheduler.unavailable.clear();
  REQUIRE(fresh.submit_ready(1) == 1);
  const fs::path stale = t.dir.path / "scheduler-unavailable";
  write_file(stale, std::to_string(since) + " 30\nslurm: squeue failed: long ago\n");
  fs::last_write_time(stale, fs::file_time_type::clock::now() - std::chrono::hours(1));
  scheduler.unavailable = "slurm: squeue failed: again";
  CHECK_NOTHROW(fresh.poll_once());
}

TEST_CASE("an outage is counted from its start when the runs directory is gone") {
  // The sweep's directory deleted under the driver (a test's scratch space removed, a lab taken
  // down): the outage file cannot be kept, and the driver still gives up after its budget.
  OnePointSweep s;
  ScriptedScheduler scheduler;
  run::SweepDriver driver(s.store, scheduler, s.sweep);
  driver.set_outage_budget(std::chrono::seconds(0));
  REQUIRE(driver.submit_ready(1) == 1);
  fs::remove_all(s.sweep.directory);
  scheduler.unavailable = "slurm: squeue failed: Unable to contact slurm controller";
  CHECK_NOTHROW(driver.poll_once());  // the outage begins
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));  // past the whole second
  CHECK_THROWS_AS(driver.poll_once(), SchedulerError);
}
