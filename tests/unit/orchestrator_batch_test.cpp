// The Slurm and PBS schedulers on recorded output of squeue, sbatch, qstat and qsub (from the
// project's local Slurm lab and from Torque's documented format): odd ids and states, one poll
// command for all jobs, "gone" jobs settled by their exit marker, refusals with the scheduler's
// message, and directives checked as sets.
#include <doctest/doctest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "drive/PollBackoff.hpp"
#include "drive/SweepDriver.hpp"
#include "jobs/JobTemplate.hpp"
#include "plan/SweepPlanner.hpp"
#include "schedulers/BatchSupport.hpp"
#include "schedulers/PbsScheduler.hpp"
#include "schedulers/SlurmScheduler.hpp"
#include "store/Store.hpp"
#include "support/RecordingRunner.hpp"
#include "support/ScratchDir.hpp"
#include "support/ScriptLines.hpp"
#include "sweep/SweepFile.hpp"
#include "sweep/SweepSpec.hpp"
#include "sweepdir/Envelope.hpp"
#include "util/Error.hpp"

using namespace pbench;
using namespace pbench::schedulers;
using pbench::testing::lines_starting;
namespace fs = std::filesystem;

namespace {

struct TempDir : testing::ScratchDir {
  TempDir() : ScratchDir("pbench-batch-test") {}
  std::string job(const std::string& name) const {
    fs::create_directories(path / name);
    return (path / name).string();
  }
};

/// Puts stand-ins for the scheduler commands first on PATH (pbench checks that they exist; the
/// recording runner answers for them), so the tests need no Slurm installed.
struct FakeCommandsOnPath {
  fs::path dir;
  std::string saved;
  FakeCommandsOnPath() {
    dir = fs::temp_directory_path() / ("pbench-fake-bin-" + std::to_string(::getpid()));
    fs::create_directories(dir);
    for (const char* c :
         {"sbatch", "squeue", "scancel", "sacct", "qsub", "qstat", "qdel", "pbsnodes"}) {
      std::ofstream(dir / c) << "#!/bin/sh\nexit 99\n";
      fs::permissions(dir / c, fs::perms::owner_all);
    }
    saved = std::getenv("PATH") ? std::getenv("PATH") : "";
    ::setenv("PATH", (dir.string() + ":" + saved).c_str(), 1);
  }
  ~FakeCommandsOnPath() {
    ::setenv("PATH", saved.c_str(), 1);
    fs::remove_all(dir);
  }
};

void write_marker(const std::string& dir, const std::string& json) {
  std::ofstream(fs::path(dir) / "exit.json") << json << "\n";
}

std::set<std::string> as_set(const std::vector<std::string>& lines) {
  return {lines.begin(), lines.end()};
}

const JobStatus& status_of(const std::vector<JobStatus>& statuses, const std::string& id) {
  for (const auto& s : statuses) {
    if (s.job_id == id) return s;
  }
  throw std::logic_error("no status for " + id);
}

}  // namespace

TEST_CASE("Slurm states map to the canonical set, long and short forms") {
  CHECK(slurm_state("PENDING") == JobState::queued);
  CHECK(slurm_state("PD") == JobState::queued);
  CHECK(slurm_state("REQUEUED") == JobState::queued);
  CHECK(slurm_state("REQUEUE_HOLD") == JobState::queued);
  CHECK(slurm_state("RUNNING") == JobState::running);
  CHECK(slurm_state("COMPLETING") == JobState::running);
  CHECK(slurm_state("SUSPENDED") == JobState::running);
  CHECK(slurm_state("COMPLETED") == JobState::completed);
  CHECK(slurm_state("CD") == JobState::completed);
  CHECK(slurm_state("FAILED") == JobState::failed);
  CHECK(slurm_state("NODE_FAIL") == JobState::failed);
  CHECK(slurm_state("BOOT_FAIL") == JobState::failed);
  CHECK(slurm_state("OUT_OF_MEMORY") == JobState::failed);
  CHECK(slurm_state("OOM") == JobState::failed);
  CHECK(slurm_state("PREEMPTED") == JobState::failed);
  CHECK(slurm_state("CANCELLED") == JobState::cancelled);
  CHECK(slurm_state("CANCELLED by 1000") == JobState::cancelled);
  CHECK(slurm_state("TIMEOUT") == JobState::timeout);
  CHECK(slurm_state("TO") == JobState::timeout);
  CHECK(slurm_state("DEADLINE") == JobState::timeout);
  // Unknown states stay in the queue's hands rather than ending a point.
  CHECK(slurm_state("SOMETHING_NEW") == JobState::queued);
}

TEST_CASE("squeue lines of plain, array and heterogeneous jobs") {
  // Recorded from the lab: squeue -h -t all -j 3,4,5,7 -o '%i|%T|%r', plus a het job.
  const auto lines = parse_squeue(
      "3|COMPLETED|None\n5_1|COMPLETED|None\n5_2|RUNNING|None\n5_[3-4]|PENDING|JobArrayTaskLimit\n"
      "4|FAILED|NonZeroExitCode\n7_1|COMPLETED|None\n7_2|FAILED|NonZeroExitCode\n"
      "7_3|TIMEOUT|TimeLimit\n12+0|RUNNING|None\n12+1|PENDING|Resources\n"
      "13|PENDING|BeginTime\n14|REQUEUED|NodeDown\n15|PREEMPTED|None\n16|NODE_FAIL|NodeDown\n"
      "17|OUT_OF_MEMORY|OutOfMemory\n18|TIMEOUT|TimeLimit\n");
  REQUIRE(lines.size() == 16);
  CHECK(slurm_status("3", lines)->state == JobState::completed);
  CHECK(slurm_status("3", lines)->native_state == "COMPLETED");
  CHECK(slurm_status("4", lines)->state == JobState::failed);
  CHECK(slurm_status("4", lines)->native_state == "FAILED (NonZeroExitCode)");
  // An array: running while any element runs; one element asked for by its own id.
  CHECK(slurm_status("5", lines)->state == JobState::running);
  CHECK(slurm_status("5_1", lines)->state == JobState::completed);
  CHECK(slurm_status("5_2", lines)->state == JobState::running);
  // A finished array ends as its worst element.
  CHECK(slurm_status("7", lines)->state == JobState::failed);
  CHECK(slurm_status("7", lines)->native_state == "COMPLETED x1, FAILED x1, TIMEOUT x1");
  CHECK(slurm_status("12", lines)->state == JobState::running);
  CHECK(slurm_status("12+1", lines)->state == JobState::queued);
  CHECK(slurm_status("13", lines)->native_state == "PENDING (BeginTime)");
  CHECK(slurm_status("14", lines)->state == JobState::queued);
  CHECK(slurm_status("15", lines)->state == JobState::failed);
  CHECK(slurm_status("16", lines)->state == JobState::failed);
  CHECK(slurm_status("17", lines)->state == JobState::failed);
  CHECK(slurm_status("18", lines)->state == JobState::timeout);
  // "1" is not the base of "12+0" or "13": not listed.
  CHECK_FALSE(slurm_status("1", lines).has_value());
  CHECK_THROWS_AS(parse_squeue("garbage without bars\n"), SchedulerError);
}

TEST_CASE("Slurm polls all jobs in one squeue call, and gone jobs are settled by their marker") {
  FakeCommandsOnPath commands;
  TempDir tmp;
  testing::RecordingRunner runner;
  SlurmScheduler slurm(runner);
  const std::string done = tmp.job("done"), failed = tmp.job("failed"),
                    gone_ok = tmp.job("gone_ok"), gone_bad = tmp.job("gone_bad"),
                    vanished = tmp.job("vanished"), timeout = tmp.job("timeout");
  write_marker(done,
               R"({"status": 0, "signal": "", "reason": "", "started_at": "a", "ended_at": "b"})");
  write_marker(failed,
               R"({"status": 3, "signal": "", "reason": "", "started_at": "a", "ended_at": "b"})");
  write_marker(gone_ok,
               R"({"status": 0, "signal": "", "reason": "", "started_at": "a", "ended_at": "b"})");
  write_marker(gone_bad,
               R"({"status": 2, "signal": "", "reason": "", "started_at": "a", "ended_at": "b"})");
  write_marker(
      timeout,
      R"({"status": 143, "signal": "TERM", "reason": "time_limit", "started_at": "a", "ended_at": "b"})");
  runner.reply(
      0,
      "21|COMPLETED|None\n22|FAILED|NonZeroExitCode\n26|TIMEOUT|TimeLimit\n27|PENDING|Priority\n");
  // Jobs squeue no longer lists: sacct is asked once, and says accounting is off (the lab).
  runner.reply(1, "", "Slurm accounting storage is disabled\n");
  const auto statuses = slurm.poll({{"21", done},
                                    {"22", failed},
                                    {"23", gone_ok},
                                    {"24", gone_bad},
                                    {"25", vanished},
                                    {"26", timeout},
                                    {"27", tmp.job("q")}});
  REQUIRE(runner.commands.size() == 2);
  CHECK(runner.commands[1] == std::vector<std::string>{"sacct", "-n", "-P", "-X", "-j", "23,24,25",
                                                       "-o", "JobID,State,ExitCode"});
  CHECK(runner.commands[0] == std::vector<std::string>{"squeue", "-h", "-r", "-t", "all", "-j",
                                                       "21,22,23,24,25,26,27", "-o", "%i|%T|%r"});
  CHECK(status_of(statuses, "21").state == JobState::completed);
  CHECK(status_of(statuses, "21").exit_status == 0);
  CHECK(status_of(statuses, "22").state == JobState::failed);
  CHECK(status_of(statuses, "22").exit_status == 3);
  CHECK(status_of(statuses, "23").state == JobState::completed);
  CHECK(status_of(statuses, "24").state == JobState::failed);
  CHECK(status_of(statuses, "24").exit_status == 2);
  CHECK(status_of(statuses, "25").state == JobState::failed);
  CHECK(status_of(statuses, "25").native_state == "gone from squeue without an exit marker");
  CHECK(status_of(statuses, "26").state == JobState::timeout);
  CHECK(status_of(statuses, "26").signal == "TERM");
  CHECK(status_of(statuses, "27").state == JobState::queued);

  // "Invalid job id specified" (rc 1): squeue knows none of them any more.
  runner.reply(1, "", "slurm_load_jobs error: Invalid job id specified\n");
  const auto gone = slurm.poll({{"21", done}, {"25", vanished}});
  CHECK(runner.commands.size() == 3);  // accounting is off: sacct is not asked again
  CHECK(status_of(gone, "21").state == JobState::completed);
  CHECK(status_of(gone, "25").state == JobState::failed);
}

TEST_CASE("a failing squeue or an unreachable sbatch says the scheduler is unavailable") {
  FakeCommandsOnPath commands;
  TempDir tmp;
  testing::RecordingRunner runner;
  SlurmScheduler slurm(runner);
  // Recorded with slurmctld stopped (Slurm 22.05).
  runner.reply(1, "",
               "slurm_load_jobs error: Unable to contact slurm controller (connect failure)\n");
  CHECK_THROWS_WITH_AS(slurm.poll({{"5", tmp.job("a")}}),
                       "slurm: squeue failed: slurm_load_jobs error: Unable to contact slurm "
                       "controller (connect failure)",
                       SchedulerUnavailable);
  runner.reply(0, "5|RUNNING|None\n");
  CHECK(slurm.poll({{"5", tmp.job("a")}}).size() == 1);
  const std::string dir = tmp.job("attempt-1");
  runner.reply(1, "",
               "sbatch: error: Batch job submission failed: Unable to contact slurm controller "
               "(connect failure)\n");
  CHECK_THROWS_AS(slurm.submit({"/s/job.sh", dir, dir + "/o", dir + "/e"}), SchedulerUnavailable);
  PbsScheduler pbs(runner);
  runner.reply(1, "", "qstat: cannot connect to server\n");
  CHECK_THROWS_AS(pbs.poll({{"7.server", tmp.job("b")}}), SchedulerUnavailable);
}

TEST_CASE("sbatch submits into the attempt directory, and a refusal carries Slurm's message") {
  FakeCommandsOnPath commands;
  TempDir tmp;
  testing::RecordingRunner runner;
  SlurmScheduler slurm(runner);
  const std::string dir = tmp.job("attempt-1");
  runner.reply(0, "4242;cluster\n");
  CHECK(slurm.submit({"/s/job.sh", dir, dir + "/stdout.log", dir + "/100%.log"}) == "4242");
  const auto& argv = runner.commands.at(0);
  CHECK(argv.front() == "sbatch");
  CHECK(argv.back() == "/s/job.sh");
  const std::set<std::string> options(argv.begin() + 1, argv.end() - 1);
  CHECK(options == std::set<std::string>{"--parsable", "--chdir=" + dir,
                                         "--output=" + dir + "/stdout.log",
                                         "--error=" + dir + "/100%%.log"});
  runner.reply(1, "",
               "sbatch: error: Batch job submission failed: Invalid account or account/partition "
               "combination specified\n");
  CHECK_THROWS_WITH_AS(slurm.submit({"/s/job.sh", dir, dir + "/o", dir + "/e"}),
                       "sbatch refused /s/job.sh: sbatch: error: Batch job submission failed: "
                       "Invalid account or account/partition combination specified",
                       SchedulerError);
  runner.reply(0, "Submitted batch job 12\n");
  CHECK_THROWS_AS(slurm.submit({"/s/job.sh", dir, dir + "/o", dir + "/e"}), SchedulerError);
}

TEST_CASE("scancel gets every job in one call") {
  FakeCommandsOnPath commands;
  testing::RecordingRunner runner;
  SlurmScheduler slurm(runner);
  runner.reply(0, "");
  slurm.cancel({{"7", "/x"}, {"8_2", "/y"}});
  CHECK(runner.commands.at(0) == std::vector<std::string>{"scancel", "7", "8_2"});
  runner.reply(1, "", "scancel: error: Kill job error on job id 9: Invalid job id specified\n");
  CHECK_NOTHROW(slurm.cancel({{"9", "/x"}}));
  runner.reply(1, "", "scancel: error: Unable to contact slurm controller\n");
  CHECK_THROWS_AS(slurm.cancel({{"9", "/x"}}), SchedulerError);
}

TEST_CASE("Slurm and PBS directives, checked as sets") {
  testing::RecordingRunner runner;
  JobResources r;
  r.job_name = "pb-0123456789ab";
  r.nodes = 2;
  r.ntasks = 6;
  r.procs_per_node = 3;
  r.time_limit_seconds = 5400;
  r.account = "proj1";
  r.queue = "short";
  r.extra = {"--constraint=ib"};
  CHECK(as_set(SlurmScheduler(runner).directives(r)) ==
        std::set<std::string>{"#SBATCH --job-name=pb-0123456789ab", "#SBATCH --nodes=2",
                              "#SBATCH --ntasks=6", "#SBATCH --ntasks-per-node=3",
                              "#SBATCH --time=01:30:00", "#SBATCH --account=proj1",
                              "#SBATCH --partition=short", "#SBATCH --constraint=ib"});
  CHECK(as_set(PbsScheduler(runner).directives(r)) ==
        std::set<std::string>{"#PBS -N pb-0123456789ab", "#PBS -l nodes=2:ppn=3",
                              "#PBS -l walltime=01:30:00", "#PBS -A proj1", "#PBS -q short",
                              "#PBS --constraint=ib"});
  JobResources plain;
  plain.job_name = "x";
  plain.ntasks = 2;
  CHECK(as_set(SlurmScheduler(runner).directives(plain)) ==
        std::set<std::string>{"#SBATCH --job-name=x", "#SBATCH --ntasks=2"});
  CHECK(as_set(PbsScheduler(runner).directives(plain)) ==
        std::set<std::string>{"#PBS -N x", "#PBS -l nodes=1:ppn=2"});
}

TEST_CASE("qstat rows from the Slurm wrapper and from Torque") {
  // Recorded from the lab's qstat (slurm-wlm-torque), and Torque's format with server suffixes.
  const auto wrapper = parse_qstat(
      "Job id              Name             Username        Time Use S Queue          \n"
      "------------------- ---------------- --------------- -------- - ---------------\n"
      "8                   bad.sh           root            00:00:00 C lab            \n"
      "9                   pb-0123456789ab  root            00:00:01 R lab            \n");
  REQUIRE(wrapper.size() == 2);
  CHECK(wrapper[0].id == "8");
  CHECK(wrapper[0].state == "C");
  CHECK(wrapper[1].state == "R");
  const auto torque = parse_qstat(
      "Job ID                    Name             User            Time Use S Queue\n"
      "------------------------- ---------------- --------------- -------- - -----\n"
      "123.server                my job           alice           00:00:00 Q batch\n"
      "124[].server              arr              alice                  0 B batch\n");
  REQUIRE(torque.size() == 2);
  CHECK(find_qstat_row("123.server", torque)->state == "Q");
  CHECK(find_qstat_row("123", torque)->state == "Q");
  CHECK(find_qstat_row("124[].server", torque)->state == "B");
  CHECK_FALSE(find_qstat_row("12", torque).has_value());
  CHECK(find_qstat_row("8.lab-host", wrapper)->state == "C");
  CHECK(pbs_state("Q") == JobState::queued);
  CHECK(pbs_state("H") == JobState::queued);
  CHECK(pbs_state("R") == JobState::running);
  CHECK(pbs_state("E") == JobState::running);
  CHECK(pbs_state("B") == JobState::running);
  CHECK_THROWS_AS(parse_qstat("Job id\n---\n8 x\n"), SchedulerError);
}

TEST_CASE("PBS: finished jobs are settled by the exit marker, cancels by pbench's request") {
  FakeCommandsOnPath commands;
  TempDir tmp;
  testing::RecordingRunner runner;
  PbsScheduler pbs(runner);
  const std::string ok = tmp.job("ok"), bad = tmp.job("bad"), killed = tmp.job("killed"),
                    limit = tmp.job("limit"), lost = tmp.job("lost"), run = tmp.job("run");
  write_marker(ok,
               R"({"status": 0, "signal": "", "reason": "", "started_at": "a", "ended_at": "b"})");
  write_marker(bad,
               R"({"status": 3, "signal": "", "reason": "", "started_at": "a", "ended_at": "b"})");
  write_marker(
      limit,
      R"({"status": 143, "signal": "TERM", "reason": "time_limit", "started_at": "a", "ended_at": "b"})");
  runner.reply(0, "");  // qdel
  pbs.cancel({{"33", killed}});
  CHECK(runner.commands.back() == std::vector<std::string>{"qdel", "33"});
  CHECK(fs::exists(fs::path(killed) / kCancelRequestFile));
  const std::string table =
      "Job id              Name             Username        Time Use S Queue          \n"
      "------------------- ---------------- --------------- -------- - ---------------\n"
      "30                  pb-a             root            00:00:00 C lab            \n"
      "31                  pb-b             root            00:00:00 C lab            \n"
      "33                  pb-d             root            00:00:00 C lab            \n"
      "34                  pb-e             root            00:00:00 C lab            \n"
      "36                  pb-g             root            00:00:00 R lab            \n";
  runner.reply(0, table);
  const auto s =
      pbs.poll({{"30", ok}, {"31", bad}, {"32", limit}, {"33", killed}, {"34", lost}, {"36", run}});
  CHECK(runner.commands.back() ==
        std::vector<std::string>{"qstat", "30", "31", "32", "33", "34", "36"});
  CHECK(status_of(s, "30").state == JobState::completed);
  CHECK(status_of(s, "31").state == JobState::failed);
  CHECK(status_of(s, "31").exit_status == 3);
  CHECK(status_of(s, "32").state == JobState::timeout);
  CHECK(status_of(s, "33").state == JobState::cancelled);
  CHECK(status_of(s, "34").state == JobState::failed);
  CHECK(status_of(s, "34").native_state == "gone from qstat (C) without an exit marker");
  CHECK(status_of(s, "36").state == JobState::running);
  // qstat's 153: none of the jobs is known any more.
  runner.reply(153, "");
  CHECK(status_of(pbs.poll({{"30", ok}}), "30").state == JobState::completed);
}

TEST_CASE("PBS names the down nodes of a failed job from pbsnodes -l") {
  // Slurm's wrapper (tab-separated, the note with -n), Torque's and PBS Pro's lists.
  const auto nodes = parse_pbsnodes_list(
      "node3\t\tdown\t\tNot responding\nnode4.cluster   offline\n"
      "node5  state-unknown,down  hardware check failed\n\n");
  CHECK(nodes == std::map<std::string, std::string>{
                     {"node3", "down: Not responding"},
                     {"node4.cluster", "offline"},
                     {"node5", "state-unknown,down: hardware check failed"}});

  FakeCommandsOnPath commands;
  testing::RecordingRunner runner;
  PbsScheduler pbs(runner);
  // -n refused (a PBS without notes): asked again without it; hosts match whole or short.
  runner.reply(2, "", "pbsnodes: invalid option -- 'n'\n");
  runner.reply(0, "node3 down\nnode4.cluster offline\nnode9 down\n");
  const auto down = pbs.unavailable_nodes({"node1", "node3.cluster", "node4"});
  CHECK(down == std::map<std::string, std::string>{{"node3.cluster", "down"},
                                                   {"node4", "offline"}});
  REQUIRE(runner.commands.size() == 2);
  CHECK(runner.commands[0] == std::vector<std::string>{"pbsnodes", "-l", "-n"});
  CHECK(runner.commands[1] == std::vector<std::string>{"pbsnodes", "-l"});
  // pbsnodes failing altogether: nothing named, nothing thrown (collect still reports the point).
  runner.reply(1, "", "cannot connect\n");
  runner.reply(1, "", "cannot connect\n");
  CHECK(pbs.unavailable_nodes({"node3"}).empty());
}

TEST_CASE("qsub runs in the attempt directory and its refusal is shown") {
  FakeCommandsOnPath commands;
  TempDir tmp;
  testing::RecordingRunner runner;
  PbsScheduler pbs(runner);
  const std::string dir = tmp.job("attempt-1");
  runner.reply(0, "17\n");
  CHECK(pbs.submit({"/s/job.sh", dir, dir + "/stdout.log", dir + "/stderr.log"}) == "17");
  CHECK(runner.commands.at(0) == std::vector<std::string>{"env", "-C", dir, "qsub", "-o",
                                                          dir + "/stdout.log", "-e",
                                                          dir + "/stderr.log", "/s/job.sh"});
  runner.reply(0, "123.server.example.org\n");
  CHECK(pbs.submit({"/s/job.sh", dir, dir + "/o", dir + "/e"}) == "123.server.example.org");
  runner.reply(1, "sbatch: error: invalid partition specified: nope\n");
  CHECK_THROWS_WITH_AS(pbs.submit({"/s/job.sh", dir, dir + "/o", dir + "/e"}),
                       "qsub refused /s/job.sh: sbatch: error: invalid partition specified: nope",
                       SchedulerError);
  CHECK_THROWS_AS(pbs.submit({"/s/my job.sh", dir, dir + "/o", dir + "/e"}), SchedulerError);
}

TEST_CASE("a missing scheduler command is named with a pointer to the lab") {
  TempDir tmp;
  const std::string saved = std::getenv("PATH") ? std::getenv("PATH") : "";
  ::setenv("PATH", tmp.path.c_str(), 1);
  testing::RecordingRunner runner;
  SlurmScheduler slurm(runner);
  std::string message;
  try {
    slurm.submit({"/s/job.sh", "/d", "/d/o", "/d/e"});
  } catch (const SchedulerError& e) {
    message = e.what();
  }
  PbsScheduler pbs(runner);
  CHECK_THROWS_AS(pbs.poll({{"1", "/d"}}), SchedulerError);
  ::setenv("PATH", saved.c_str(), 1);
  CHECK(message ==
        "slurm: command 'sbatch' not found on PATH; on a machine without slurm, start the local "
        "lab with 'eval \"$(tests/slurm-lab/up)\"'");
  CHECK(runner.commands.empty());
}

TEST_CASE("time limits in Slurm's forms") {
  CHECK(sweep::parse_time_limit("30", "--time-limit") == 1800);
  CHECK(sweep::parse_time_limit("1:30", "--time-limit") == 90);
  CHECK(sweep::parse_time_limit("2:00:05", "--time-limit") == 7205);
  CHECK(sweep::parse_time_limit("1-00:00:00", "--time-limit") == 86400);
  CHECK(format_hms(7205) == "02:00:05");
  CHECK(format_hms(100 * 3600) == "100:00:00");
  CHECK_THROWS_WITH_AS(sweep::parse_time_limit("1h", "--time-limit"),
                       "--time-limit: '1h' is not a time limit (MINUTES, MINUTES:SECONDS, "
                       "HOURS:MINUTES:SECONDS or DAYS-HOURS:MINUTES:SECONDS)",
                       UsageError);
  CHECK_THROWS_AS(sweep::parse_time_limit("0", "--time-limit"), UsageError);
  CHECK_THROWS_AS(sweep::parse_time_limit("1:75", "--time-limit"), UsageError);
}

TEST_CASE("batch options are validated before anything is planned") {
  sweep::SweepSpec spec;
  spec.name = "b";
  spec.partitions = {1, 2, 8};
  spec.nodes = 2;
  CHECK_THROWS_WITH_AS(spec.validate(),
                       "--nodes applies to a batch scheduler (--scheduler slurm or pbs), not local",
                       UsageError);
  spec.scheduler = "slurm";
  CHECK_THROWS_WITH_AS(spec.validate(), "--nodes 2 is more than partition 1 has processes",
                       UsageError);
  spec.nodes = 1;
  spec.procs_per_node = 4;
  CHECK_THROWS_WITH_AS(spec.validate(),
                       "partition 8 needs 8 processes, but --nodes 1 x --procs-per-node 4 gives "
                       "only 4",
                       UsageError);
  spec.nodes = 0;
  CHECK_NOTHROW(spec.validate());  // 2 nodes of 4 for partition 8
  CHECK(sweep::node_shape(spec, 8).nodes == 2);
  CHECK(sweep::node_shape(spec, 2).nodes == 1);
  spec.account = "a;rm -rf";
  CHECK_THROWS_AS(spec.validate(), UsageError);
  spec.account = "";
  spec.directives = {"--x\n#SBATCH --y"};
  CHECK_THROWS_AS(spec.validate(), UsageError);
  spec.directives = {"--constraint=ib"};
  CHECK_NOTHROW(spec.validate());
  // The batch options survive the stored JSON; a sweep without them keeps its old JSON.
  CHECK(sweep::SweepSpec::from_json(spec.to_json()).to_json() == spec.to_json());
  sweep::SweepSpec local;
  local.name = "l";
  CHECK_FALSE(local.to_json().contains("nodes"));
}

TEST_CASE("a planned Slurm and PBS sweep renders the directives into each script") {
  ::setenv("PBENCH_WORKER_DIR", PBENCH_BINARY_DIR "/workers/logp", 1);
  sweep::SweepSpec spec;
  spec.name = "sl";
  spec.partitions = {2};
  spec.set_values("queue_depth", nlohmann::json::array({1}));
  spec.scheduler = "slurm";
  spec.launcher = "srun";
  spec.time_limit_seconds = 600;
  spec.queue = "lab";
  const auto plan = run::make_plan(spec, {});
  REQUIRE(plan.points.size() == 1);
  const auto& script = plan.points[0].script;
  CHECK(lines_starting(script, "#SBATCH") ==
        std::set<std::string>{"#SBATCH --job-name=pb-" + plan.points[0].point.key.substr(0, 12),
                              "#SBATCH --ntasks=2", "#SBATCH --exclusive",
                              "#SBATCH --time=00:10:00", "#SBATCH --partition=lab"});
  CHECK(lines_starting(script, "srun ").size() == 1);
  CHECK(script.find("srun --mpi=pmi2 -n 2 ") != std::string::npos);
  CHECK(script.find("pbench_time_limit_s=600") != std::string::npos);
  spec.scheduler = "pbs";
  spec.launcher = "mpiexec";
  spec.time_limit_seconds = 0;
  const auto pbs = run::make_plan(spec, {});
  // Without --time-limit: the limit derived from the point's planned time.
  CHECK(lines_starting(pbs.points[0].script, "#PBS -l") ==
        std::set<std::string>{
            "#PBS -l nodes=1:ppn=2", "#PBS -l naccesspolicy=singlejob",
            "#PBS -l walltime=" + schedulers::format_hms(pbs.cost.points[0].time_limit)});
  ::unsetenv("PBENCH_WORKER_DIR");
}

TEST_CASE("polling backs off while nothing changes, with jitter, and resets on a change") {
  using std::chrono::milliseconds;
  run::PollBackoff backoff(milliseconds(200), milliseconds(15000));
  milliseconds wait{0};
  for (int i = 0; i < 30; ++i) wait = backoff.next(false);
  CHECK(wait >= milliseconds(12000));
  CHECK(wait <= milliseconds(15000));
  const auto after_change = backoff.next(true);
  CHECK(after_change >= milliseconds(200));
  CHECK(after_change <= milliseconds(240));
  // Grows by about half each quiet cycle, never beyond the jitter band.
  const auto second = backoff.next(false);
  CHECK(second >= milliseconds(240));
  CHECK(second <= milliseconds(360));
  std::set<long> seen;
  for (int i = 0; i < 20; ++i) seen.insert(backoff.next(true).count());
  CHECK(seen.size() > 1);  // jittered, not in lockstep
}

TEST_CASE("PBENCH_POLL_MAX sets the longest wait between polls, and a bad value is named") {
  using std::chrono::milliseconds;
  const milliseconds slurm(15000);
  CHECK(run::poll_ceiling(slurm, std::nullopt) == slurm);
  CHECK(run::poll_ceiling(slurm, std::string()) == slurm);
  CHECK(run::poll_ceiling(slurm, std::string("2")) == milliseconds(2000));
  CHECK(run::poll_ceiling(slurm, std::string("0.5")) == milliseconds(500));
  CHECK(run::poll_ceiling(slurm, std::string("60")) == milliseconds(60000));
  for (const char* bad : {"0", "0.1", "3601", "2s", "fast", "nan", "-1", " 2"}) {
    CAPTURE(bad);
    std::string message;
    try {
      run::poll_ceiling(slurm, std::string(bad));
    } catch (const UsageError& e) {
      message = e.what();
    }
    CHECK(message.find(std::string("PBENCH_POLL_MAX '") + bad +
                       "' is not a number of seconds from 0.2 to 3600") == 0);
  }
  // The backoff grows to the ceiling given and no further.
  run::PollBackoff backoff(milliseconds(200), run::poll_ceiling(slurm, std::string("2")));
  milliseconds wait{0};
  for (int i = 0; i < 30; ++i) wait = backoff.next(false);
  CHECK(wait >= milliseconds(1600));
  CHECK(wait <= milliseconds(2000));
}

TEST_CASE("directive lines go into a template as they are, but never a line break") {
  jobs::JobTemplate t("t", "#!/bin/sh\n{{directives}}\n{{command}}\n");
  const auto text =
      t.render({{"directives", jobs::VerbatimLines{{"#SBATCH --a=1", "#SBATCH -b 'x y'"}}},
                {"command", std::vector<std::string>{"true"}}},
               {"command"});
  CHECK(text == "#!/bin/sh\n#SBATCH --a=1\n#SBATCH -b 'x y'\ntrue\n");
  CHECK_THROWS_AS(t.render({{"directives", jobs::VerbatimLines{{"#SBATCH --a=1\nrm -rf /"}}},
                            {"command", std::vector<std::string>{"true"}}},
                           {"command"}),
                  UsageError);
  CHECK(jobs::JobTemplate::builtin().placeholders().count("directives") == 1);
  CHECK(jobs::JobTemplate::builtin().placeholders().count("time_limit_seconds") == 1);
}

namespace {
/// A scheduler whose queue holds `others` jobs of the user besides the ones submitted here.
class CountingScheduler : public Scheduler {
 public:
  std::string name() const override { return "counting"; }
  std::string submit(const JobSubmission&) override {
    ++submitted;
    return std::to_string(submitted);
  }
  std::vector<JobStatus> poll(const std::vector<JobRef>& jobs) override {
    std::vector<JobStatus> out;
    for (const auto& j : jobs)
      out.push_back({j.job_id, JobState::running, "RUNNING", {}, {}, {}, {}});
    return out;
  }
  void cancel(const std::vector<JobRef>&) override {}
  std::optional<int> user_jobs_in_queue() override {
    ++counted;
    if (unknown) return std::nullopt;
    return others + submitted;
  }
  int submitted = 0;
  int others = 0;
  int counted = 0;
  bool unknown = false;
};
}  // namespace

TEST_CASE("--max-queued counts the user's other jobs and submits only up to the limit") {
  TempDir tmp;
  auto store = store::Store::open_in_memory();
  std::vector<store::PointRecord> points;
  for (int i = 0; i < 6; ++i) {
    store::PointRecord p;
    p.key = "k" + std::to_string(i);
    p.worker = "logp";
    p.partition = 1;
    p.params_json = "{}";
    p.script_path = (tmp.path / p.key / "job.sh").string();
    points.push_back(p);
  }
  const auto sweep = store.insert_sweep({0, "q", "{}", "counting", tmp.path.string(), "t"}, points);
  CountingScheduler scheduler;
  scheduler.others = 3;
  run::SweepDriver driver(store, scheduler, sweep);
  driver.set_max_queued(5);
  CHECK(driver.submit_ready(10) == 2);  // 3 others + 2 = 5
  CHECK(driver.submit_ready(10) == 0);
  scheduler.others = 0;
  CHECK(driver.submit_ready(10) == 3);  // 2 + 3 = 5
  scheduler.others = 0;
  scheduler.unknown = true;  // the count failed: submit nothing this cycle
  CHECK(driver.submit_ready(10) == 0);
  // Without the limit no count is asked for.
  const int counted = scheduler.counted;
  driver.set_max_queued(0);
  CHECK(driver.submit_ready(10) == 1);
  CHECK(scheduler.counted == counted);
}

TEST_CASE("the user's queue is counted with one squeue or qstat") {
  FakeCommandsOnPath commands;
  testing::RecordingRunner runner;
  SlurmScheduler slurm(runner);
  runner.reply(0, "41\n42_[1-3]\n43\n");
  CHECK(slurm.user_jobs_in_queue() == 3);
  const auto& argv = runner.commands.back();
  CHECK(argv.at(0) == "squeue");
  CHECK(argv.at(2) == "-u");
  runner.reply(1, "", "squeue: error: Unable to contact slurm controller\n");
  CHECK_FALSE(slurm.user_jobs_in_queue().has_value());
  PbsScheduler pbs(runner);
  runner.reply(0,
               "Job id              Name             Username        Time Use S Queue\n"
               "------------------- ---------------- --------------- -------- - -----\n"
               "8                   a                root            00:00:00 C lab\n"
               "9                   b                root            00:00:01 R lab\n"
               "10                  c                root            00:00:00 Q lab\n");
  CHECK(pbs.user_jobs_in_queue() == 2);
  CHECK(runner.commands.back().at(1) == "-u");
}

TEST_CASE("the envelope takes the job's record and only the batch and pbench environment") {
  TempDir tmp;
  const std::string dir = tmp.job("attempt-1");
  const std::string env = std::string("PBENCH_HOST=n1\0PBENCH_NODE_LIST=n[1-2]\0", 39) +
                          std::string("SLURM_JOB_ID=77\0PBS_O_WORKDIR=/w\0", 33) +
                          std::string("PBENCH_NOTE=a=b\nc\0HOME=/root\0", 29);
  std::ofstream(fs::path(dir) / "job.env", std::ios::binary) << env;
  store::SweepRecord sweep{1, "s", "{}", "slurm", tmp.path.string(), "t"};
  store::PointRecord point;
  point.key = "k1";
  point.script_path = "/s/job.sh";
  store::AttemptRecord attempt;
  attempt.attempt_no = 2;
  attempt.job_id = "77";
  attempt.state = store::PointState::timeout;
  attempt.native_state = "TIMEOUT (TimeLimit)";
  attempt.job_dir = dir;
  REQUIRE(run::write_envelope(sweep, point, attempt));
  std::ifstream in(fs::path(dir) / "envelope.json");
  const auto e = nlohmann::json::parse(in);
  CHECK(e["job_id"] == "77");
  CHECK(e["state"] == "timeout");
  CHECK(e["attempt"] == 2);
  CHECK(e["host"] == "n1");
  CHECK(e["node_list"] == "n[1-2]");
  CHECK(e["worker_sha256"].is_null());
  CHECK(e["environment"] == nlohmann::json{{"PBENCH_HOST", "n1"},
                                           {"PBENCH_NODE_LIST", "n[1-2]"},
                                           {"SLURM_JOB_ID", "77"},
                                           {"PBS_O_WORKDIR", "/w"},
                                           {"PBENCH_NOTE", "a=b\nc"}});
}

TEST_CASE("a sweep file reads into the same specification as the command line") {
  TempDir tmp;
  const auto file = (tmp.path / "sweep.toml").string();
  std::ofstream(file) << R"(workers = ["logp"]
partitions = [1, 2]
queue_depths = [1, 8]
launcher = "srun"
[settings.logp]
eel_roundtrips = 500
flood_messages = "100"
[scheduler]
name = "slurm"
nodes = 1
procs_per_node = 2
time_limit = "10:00"
queue = "lab"
directives = ["--constraint=ib"]
)";
  const auto spec = sweep::read_sweep_file(file, "f");
  sweep::SweepSpec expected;
  expected.name = "f";
  expected.partitions = {1, 2};
  expected.set_values("queue_depth", nlohmann::json::array({1, 8}));
  expected.launcher = "srun";
  expected.settings["logp"] = {{"eel_roundtrips", "500"}, {"flood_messages", "100"}};
  expected.scheduler = "slurm";
  expected.nodes = 1;
  expected.procs_per_node = 2;
  expected.time_limit_seconds = 600;
  expected.queue = "lab";
  expected.directives = {"--constraint=ib"};
  CHECK(spec.to_json() == expected.to_json());
  CHECK_NOTHROW(spec.validate());

  std::ofstream(file) << "partitions = [1, 2]\n[scheduler]\nname = \"slurm\"\nnode = 2\n";
  CHECK_THROWS_WITH_AS(sweep::read_sweep_file(file, "f"),
                       ("sweep file " + file +
                        ": scheduler.node: unknown key (known: account, directives, name, nodes, "
                        "procs_per_node, queue, share_nodes, time_limit)")
                           .c_str(),
                       UsageError);
  std::ofstream(file) << "partitions = [1, \"two\"]\n";
  CHECK_THROWS_WITH_AS(
      sweep::read_sweep_file(file, "f"),
      ("sweep file " + file +
       ": partitions[1]: 'two' is not a partition (P processes, or NxP: N nodes x P processes "
       "per node, e.g. 8 or 2x4)")
          .c_str(),
      UsageError);
  std::ofstream(file) << "workers = [\"logp\"\n";
  CHECK_THROWS_AS(sweep::read_sweep_file(file, "f"), UsageError);
  // Validation is the command line's: an unknown scheduler is refused the same way.
  std::ofstream(file) << "[scheduler]\nname = \"lsf\"\n";
  CHECK_THROWS_WITH_AS(sweep::read_sweep_file(file, "f").validate(),
                       "unknown scheduler 'lsf' (known: local, slurm, pbs)", UsageError);
}

TEST_CASE("a job array runs each job's script in its own directory, throttled") {
  FakeCommandsOnPath commands;
  TempDir tmp;
  testing::RecordingRunner runner;
  SlurmScheduler slurm(runner);
  std::vector<JobSubmission> jobs;
  for (const char* key : {"k0", "k1", "k2"}) {
    const std::string dir = tmp.job(std::string(key) + "/attempt-1");
    const std::string script = tmp.path.string() + "/" + key + "/job.sh";
    std::ofstream(script) << "#!/usr/bin/env bash\n#SBATCH --nodes=1\n#SBATCH --ntasks=2\nset -u\n";
    jobs.push_back({script, dir, dir + "/stdout.log", dir + "/stderr.log"});
  }
  runner.reply(0, "55\n");
  const auto ids = slurm.submit_array(jobs, 2, (tmp.path / "arrays").string());
  CHECK(ids == std::vector<std::string>{"55_0", "55_1", "55_2"});
  const auto& argv = runner.commands.at(0);
  CHECK(argv.at(0) == "sbatch");
  CHECK(std::find(argv.begin(), argv.end(), "--array=0-2%2") != argv.end());
  std::ifstream in(argv.back());
  const std::string script((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK(lines_starting(script, "#SBATCH") ==
        std::set<std::string>{"#SBATCH --nodes=1", "#SBATCH --ntasks=2"});
  CHECK(lines_starting(script, "  1) cd ") ==
        std::set<std::string>{"  1) cd " + jobs[1].job_dir + " && exec bash " +
                              jobs[1].script_path + " >>" + jobs[1].stdout_path + " 2>>" +
                              jobs[1].stderr_path + " ;;"});
  // A scheduler without arrays says so.
  testing::RecordingRunner other;
  PbsScheduler pbs(other);
  CHECK_THROWS_WITH_AS(pbs.submit_array(jobs, 2, tmp.path.string()),
                       "pbs: no job arrays (use --scheduler slurm)", SchedulerError);
}

TEST_CASE("job ids go to squeue and sacct in lists the kernel accepts, arrays by their id") {
  const std::vector<JobRef> few{{"12_0", ""}, {"12_1", ""}, {"13", ""}, {"12_2", ""}, {"14+0", ""}};
  CHECK(job_id_lists(few, 1024, true) == std::vector<std::string>{"12,13,14+0"});
  CHECK(job_id_lists(few, 1024, false) == std::vector<std::string>{"12_0,12_1,13,12_2,14+0"});
  // A list ends before it would pass the limit; an id longer than the limit has its own list.
  CHECK(job_id_lists(few, 9, false) ==
        std::vector<std::string>{"12_0,12_1", "13,12_2", "14+0"});
  CHECK(job_id_lists({{"123456", ""}, {"7", ""}}, 3, false) ==
        std::vector<std::string>{"123456", "7"});
  CHECK(job_id_lists({}, 1024, true).empty());
  // An element id that is not all digits after the bar is not an array element.
  CHECK(job_id_lists({{"12_x", ""}, {"12_", ""}}, 1024, true) ==
        std::vector<std::string>{"12_x,12_"});
}

TEST_CASE("10,000 array elements and 10,000 plain jobs: one squeue per 64 KiB of ids") {
  FakeCommandsOnPath commands;
  TempDir tmp;
  testing::RecordingRunner runner;
  SlurmScheduler slurm(runner);
  const std::string dir = tmp.job("j");
  std::vector<JobRef> jobs;
  std::string array_lines;
  for (int i = 0; i < 10000; ++i) {
    jobs.push_back({"900_" + std::to_string(i), dir});
    array_lines += "900_" + std::to_string(i) + "|RUNNING|None\n";
  }
  std::string plain_lines;
  for (int i = 0; i < 10000; ++i) {
    jobs.push_back({std::to_string(100000 + i), dir});
    plain_lines += std::to_string(100000 + i) + "|PENDING|Priority\n";
  }
  // 10,001 ids of 3 and 6 digits with their commas: 70,003 bytes, two lists.
  runner.reply(0, array_lines + plain_lines.substr(0, plain_lines.size() / 2));
  runner.reply(0, plain_lines.substr(plain_lines.size() / 2));
  const auto statuses = slurm.poll(jobs);
  REQUIRE(runner.commands.size() == 2);
  std::size_t ids = 0;
  for (const auto& argv : runner.commands) {
    REQUIRE(argv.at(0) == "squeue");
    CHECK(argv.at(6).size() <= 64 * 1024);
    ids += static_cast<std::size_t>(std::count(argv.at(6).begin(), argv.at(6).end(), ',')) + 1;
  }
  CHECK(runner.commands[0].at(6).rfind("900,100000,", 0) == 0);
  CHECK(ids == 10001);
  REQUIRE(statuses.size() == 20000);
  CHECK(status_of(statuses, "900_9999").state == JobState::running);
  CHECK(status_of(statuses, "109999").state == JobState::queued);
}

TEST_CASE("past MinJobAge, sacct tells how vanished jobs ended, in one call") {
  FakeCommandsOnPath commands;
  TempDir tmp;
  testing::RecordingRunner runner;
  SlurmScheduler slurm(runner);
  const std::string marked = tmp.job("marked");
  write_marker(
      marked,
      R"({"status": 143, "signal": "TERM", "reason": "", "started_at": "a", "ended_at": "b"})");
  runner.reply(1, "", "slurm_load_jobs error: Invalid job id specified\n");
  // Recorded shape: sacct -n -P -X -j ... -o JobID,State,ExitCode with slurmdbd.
  runner.reply(0,
               "31|COMPLETED|0:0\n32|FAILED|3:0\n33|CANCELLED by 0|0:15\n34|TIMEOUT|0:0\n"
               "35_1|OUT_OF_MEMORY|0:125\n36+0|NODE_FAIL|0:0\n37|PREEMPTED|0:0\n");
  const auto s = slurm.poll({{"31", tmp.job("a")},
                             {"32", tmp.job("b")},
                             {"33", tmp.job("c")},
                             {"34", marked},
                             {"35_1", tmp.job("e")},
                             {"36+0", tmp.job("f")},
                             {"37", tmp.job("g")},
                             {"38", tmp.job("h")}});
  CHECK(runner.commands.size() == 2);
  CHECK(status_of(s, "31").state == JobState::completed);
  CHECK(status_of(s, "32").state == JobState::failed);
  CHECK(status_of(s, "32").exit_status == 3);
  CHECK(status_of(s, "33").state == JobState::cancelled);
  CHECK(status_of(s, "33").signal == "TERM");
  CHECK(status_of(s, "33").exit_status == 143);
  CHECK(status_of(s, "34").state == JobState::timeout);  // sacct's word, the marker's times
  CHECK(status_of(s, "34").started_at == "a");
  CHECK(status_of(s, "35_1").state == JobState::failed);
  CHECK(status_of(s, "36+0").state == JobState::failed);
  CHECK(status_of(s, "37").state == JobState::failed);
  CHECK(status_of(s, "37").native_state == "PREEMPTED (sacct)");
  // Neither squeue nor sacct knows 38, and it left no marker.
  CHECK(status_of(s, "38").state == JobState::failed);
  CHECK(status_of(s, "38").native_state == "gone from squeue without an exit marker");
  CHECK_THROWS_AS(parse_sacct("31 COMPLETED\n"), SchedulerError);
}
