// The sweep driver on a recording fake scheduler: the throttle, one poll call per cycle for
// all active jobs, terminal states recorded with exit status and stderr tail, retries that
// keep earlier attempts, cancel; and the collector on top.
#include <doctest/doctest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>

#include "collect/Collector.hpp"
#include "drive/SweepDriver.hpp"
#include "plan/SweepPlanner.hpp"
#include "schedulers/SlurmScheduler.hpp"
#include "store/Store.hpp"
#include "support/ResultFixtures.hpp"
#include "util/Error.hpp"

using namespace pbench;
using namespace pbench::schedulers;
using store::PointState;
namespace fs = std::filesystem;

namespace {

/// Records submissions and poll calls; jobs end when the test says so.
class FakeScheduler : public Scheduler {
 public:
  std::string name() const override { return "fake"; }
  std::string submit(const JobSubmission& job) override {
    if (refuse_next) {
      refuse_next = false;
      throw SchedulerError(refusal);
    }
    const std::string id = std::to_string(100 + submitted.size());
    submitted.push_back(job);
    states[id] = {id, JobState::queued, "PENDING", {}, {}, {}, {}};
    return id;
  }
  std::vector<JobStatus> poll(const std::vector<JobRef>& jobs) override {
    ++poll_calls;
    polled_per_call.push_back(jobs.size());
    std::vector<JobStatus> out;
    for (const auto& j : jobs) out.push_back(states.at(j.job_id));
    return out;
  }
  void cancel(const std::vector<JobRef>& jobs) override {
    for (const auto& j : jobs) {
      cancelled.push_back(j.job_id);
      states[j.job_id].state = JobState::cancelled;
      states[j.job_id].native_state = "CANCELLED";
    }
  }
  void finish(const std::string& id, int status, const JobSubmission& job, bool write_result) {
    states[id].state = status == 0 ? JobState::completed : JobState::failed;
    states[id].native_state = status == 0 ? "COMPLETED" : "FAILED";
    states[id].exit_status = status;
    if (write_result) {
      std::ofstream(fs::path(job.job_dir) / "result.json")
          << testing::logp_document(2, 8, 1e-6, 2e-7, 1e-10).dump();
    }
  }

  std::map<std::string, std::string> unavailable_nodes(
      const std::vector<std::string>& hosts) override {
    asked_nodes.push_back(hosts);
    std::map<std::string, std::string> out;
    for (const auto& h : hosts)
      if (down.count(h) > 0) out[h] = down[h];
    return out;
  }

  std::vector<JobSubmission> submitted;
  std::map<std::string, JobStatus> states;
  std::map<std::string, std::string> down;  ///< node -> "state: reason"
  std::vector<std::vector<std::string>> asked_nodes;
  std::vector<std::string> cancelled;
  int poll_calls = 0;
  std::vector<std::size_t> polled_per_call;
  bool refuse_next = false;
  std::string refusal = "fake: submission refused (QOSMaxSubmitJobPerUserLimit)";
};

struct Fixture {
  fs::path dir;
  store::Store store = store::Store::open_in_memory();
  FakeScheduler scheduler;
  store::SweepRecord sweep;

  explicit Fixture(int npoints) {
    dir = fs::temp_directory_path() / ("pbench-driver-test-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    std::vector<store::PointRecord> points;
    for (int i = 0; i < npoints; ++i) {
      store::PointRecord p;
      p.key = "k" + std::to_string(i);
      p.worker = "logp";
      p.partition = 2;
      p.params_json = "{\"queue_depth\":" + std::to_string(i + 1) + "}";
      p.script_path = (dir / "points" / p.key / "job.sh").string();
      fs::create_directories(fs::path(p.script_path).parent_path());
      points.push_back(p);
    }
    sweep = store.insert_sweep({0, "s", "{}", "fake", dir.string(), "t"}, points);
  }
  ~Fixture() { fs::remove_all(dir); }
};

}  // namespace

TEST_CASE("collect names the nodes of a failed job of many nodes, and the ones now down") {
  Fixture f(2);
  run::SweepDriver driver(f.store, f.scheduler, f.sweep);
  driver.submit_ready(2);
  // Both jobs recorded their allocation (job.env's node list); both failed.
  for (std::size_t i = 0; i < 2; ++i) {
    const auto& job = f.scheduler.submitted[i];
    const std::string list = i == 0 ? "node[1-16]" : "node[1-4,9]";
    std::ofstream(fs::path(job.job_dir) / "job.env", std::ios::binary)
        << "PBENCH_NODE_LIST=" << list << '\0';
    std::ofstream(job.stderr_path) << "mpirun: lost communication with a remote daemon\n";
    f.scheduler.finish(std::to_string(100 + i), 1, job, false);
  }
  driver.poll_once();
  f.scheduler.down["node7"] = "down*: Not responding";
  const auto report = run::collect(f.store, f.sweep, &f.scheduler);
  // One question for every failed point's nodes.
  REQUIRE(f.scheduler.asked_nodes.size() == 1);
  CHECK(f.scheduler.asked_nodes[0].size() == 16);
  REQUIRE(report.messages.size() == 2);
  CHECK(report.messages[0] ==
        "logp p=2 q=1 [k0]: failed, exit status 1, on node[1-16]; node7 down*: Not responding: "
        "mpirun: lost communication with a remote daemon");
  CHECK(report.messages[1] ==
        "logp p=2 q=2 [k1]: failed, exit status 1, on node[1-4,9]: "
        "mpirun: lost communication with a remote daemon");
}

TEST_CASE("Slurm: the nodes sinfo says cannot run jobs, with the state and reason") {
  const auto nodes = schedulers::parse_unavailable_nodes(
      "node1|idle|none\nnode2|down*|Not responding\nnode3|drained|maintenance\n"
      "node4|allocated*|none\nnode5|mixed|none\nnode6|fail|bad disk\n");
  CHECK(nodes == std::map<std::string, std::string>{{"node2", "down*: Not responding"},
                                                    {"node3", "drained: maintenance"},
                                                    {"node4", "allocated*"},
                                                    {"node6", "fail: bad disk"}});
}

TEST_CASE("the driver submits within the throttle and polls all active jobs in one call") {
  Fixture f(5);
  run::SweepDriver driver(f.store, f.scheduler, f.sweep);
  CHECK(driver.submit_ready(2) == 2);
  CHECK(driver.submit_ready(2) == 0);
  CHECK(driver.progress().count(PointState::queued) == 2);
  CHECK(driver.progress().count(PointState::planned) == 3);
  driver.poll_once();
  CHECK(f.scheduler.poll_calls == 1);
  CHECK(f.scheduler.polled_per_call.back() == 2);
  f.scheduler.finish("100", 0, f.scheduler.submitted[0], true);
  driver.poll_once();
  CHECK(driver.progress().count(PointState::done) == 1);
  CHECK(driver.submit_ready(2) == 1);
  CHECK(f.scheduler.submitted.size() == 3);
  // Each attempt runs in its own directory under the point's.
  CHECK(f.scheduler.submitted[0].job_dir == (f.dir / "points/k0/attempt-1").string());
}

TEST_CASE(
    "a failed job is recorded with its exit status and stderr tail, and retry keeps attempts") {
  Fixture f(1);
  run::SweepDriver driver(f.store, f.scheduler, f.sweep);
  driver.submit_ready(1);
  const auto job = f.scheduler.submitted[0];
  std::ofstream(job.stderr_path) << "starting\npbench-logp: error: boom (rank 1)\n";
  f.scheduler.finish("100", 3, job, false);
  driver.poll_once();
  const auto point = f.store.points(f.sweep.id)[0];
  CHECK(point.state == PointState::failed);
  auto attempt = f.store.latest_attempt(point.id);
  CHECK(attempt->exit_status == 3);
  CHECK(attempt->native_state == "FAILED");
  CHECK(attempt->stderr_tail->find("boom (rank 1)") != std::string::npos);
  CHECK(attempt->ended_at.has_value());

  const auto report = run::collect(f.store, f.sweep);
  CHECK(report.failed == 1);
  REQUIRE(report.messages.size() == 1);
  CHECK(report.messages[0] ==
        "logp p=2 q=1 [k0]: failed, exit status 3: pbench-logp: error: boom (rank 1)");

  CHECK(driver.requeue_failed() == 1);
  driver.submit_ready(1);
  f.scheduler.finish("101", 0, f.scheduler.submitted[1], true);
  driver.poll_once();
  CHECK(f.store.points(f.sweep.id)[0].state == PointState::done);
  const auto attempts = f.store.attempts(point.id);
  REQUIRE(attempts.size() == 2);
  CHECK(attempts[0].state == PointState::failed);
  CHECK(attempts[1].state == PointState::done);
  CHECK(attempts[1].job_dir != attempts[0].job_dir);
}

TEST_CASE("a job that exits 0 without a result document is failed, not done") {
  Fixture f(1);
  run::SweepDriver driver(f.store, f.scheduler, f.sweep);
  driver.submit_ready(1);
  f.scheduler.finish("100", 0, f.scheduler.submitted[0], false);
  driver.poll_once();
  CHECK(f.store.points(f.sweep.id)[0].state == PointState::failed);
  CHECK(f.store.latest_attempt(f.store.points(f.sweep.id)[0].id)
            ->stderr_tail->find("wrote no result document") != std::string::npos);
}

TEST_CASE("a refused submission keeps the point planned with the scheduler's message") {
  Fixture f(1);
  run::SweepDriver driver(f.store, f.scheduler, f.sweep);
  f.scheduler.refuse_next = true;
  CHECK(driver.submit_ready(1) == 0);
  const auto point = f.store.points(f.sweep.id)[0];
  CHECK(point.state == PointState::planned);
  auto rejected = f.store.latest_attempt(point.id);
  CHECK(rejected->native_state == "rejected");
  CHECK(rejected->stderr_tail->find("QOSMaxSubmitJobPerUserLimit") != std::string::npos);
  // Tried again next time as the same attempt (it never ran), and then it is submitted.
  CHECK(driver.submit_ready(1) == 1);
  CHECK(f.store.attempts(point.id).size() == 1);
  CHECK(f.store.latest_attempt(point.id)->job_id == "100");
}

TEST_CASE("a refusal of a request the cluster can never meet fails the point, quoting it") {
  Fixture f(2);
  run::SweepDriver driver(f.store, f.scheduler, f.sweep);
  f.scheduler.refuse_next = true;
  f.scheduler.refusal =
      "sbatch: error: Batch job submission failed: Requested node configuration is not available";
  // The first point is refused for good; the next one is still submitted.
  CHECK(driver.submit_ready(2) == 1);
  const auto points = f.store.points(f.sweep.id);
  CHECK(points[0].state == PointState::failed);
  CHECK(points[1].state == PointState::queued);
  const auto refused = f.store.latest_attempt(points[0].id);
  CHECK(refused->native_state == "refused");
  CHECK(*refused->stderr_tail == f.scheduler.refusal);
  CHECK_FALSE(refused->job_id);
  CHECK(run::asks_the_impossible("qsub: Job exceeds queue resource limits MSG=cannot satisfy"));
  CHECK_FALSE(run::asks_the_impossible("sbatch: error: invalid partition specified: x"));
}

TEST_CASE("a cycle reports a refusal when nothing else is in the queue") {
  Fixture f(2);
  run::SweepDriver driver(f.store, f.scheduler, f.sweep);
  f.scheduler.refuse_next = true;
  CHECK_THROWS_WITH_AS(driver.cycle(2),
                       "fake: submission refused (QOSMaxSubmitJobPerUserLimit) (2 points stay "
                       "planned)",
                       SchedulerError);
  CHECK(driver.progress().count(PointState::planned) == 2);
  // With a job in the queue, a refusal (a queue limit) waits for the next cycle instead.
  CHECK(driver.submit_ready(1) == 1);
  f.scheduler.refuse_next = true;
  const auto p = driver.cycle(2);
  CHECK(p.count(PointState::queued) == 1);
  CHECK(p.count(PointState::planned) == 1);
  CHECK(driver.cycle(2).count(PointState::queued) == 2);
}

TEST_CASE("cancel sends one cancel for the active jobs and cancels planned points") {
  Fixture f(3);
  run::SweepDriver driver(f.store, f.scheduler, f.sweep);
  driver.submit_ready(1);
  CHECK(driver.cancel_all() == 1);
  CHECK(f.scheduler.cancelled == std::vector<std::string>{"100"});
  driver.poll_once();
  const auto p = driver.progress();
  CHECK(p.count(PointState::cancelled) == 3);
  CHECK_FALSE(p.unfinished());
}

TEST_CASE("collect stores each finished point's result once and rejects invalid ones") {
  Fixture f(2);
  run::SweepDriver driver(f.store, f.scheduler, f.sweep);
  driver.submit_ready(2);
  f.scheduler.finish("100", 0, f.scheduler.submitted[0], true);
  f.scheduler.finish("101", 0, f.scheduler.submitted[1], false);
  std::ofstream(fs::path(f.scheduler.submitted[1].job_dir) / "result.json") << "{\"truncated\":";
  driver.poll_once();
  auto report = run::collect(f.store, f.sweep);
  CHECK(report.stored == 1);
  CHECK(report.rejected == 1);
  CHECK(f.store.points(f.sweep.id)[1].state == PointState::failed);
  report = run::collect(f.store, f.sweep);
  CHECK(report.stored == 0);
  auto count = f.store.db().prepare("SELECT count(*) FROM results");
  count.step();
  CHECK(count.int64(0) == 1);
}

TEST_CASE(
    "collect stores a failed point's partial result (not valid) and nothing that claims to be "
    "valid") {
  Fixture f(3);
  run::SweepDriver driver(f.store, f.scheduler, f.sweep);
  driver.submit_ready(3);
  auto partial = testing::logp_document(2, 8, 1e-6, 2e-7, 1e-10);
  partial["validity"] = {{"valid", false},
                         {"reasons", {"partial result: the run stopped at queue depth 8"}}};
  std::ofstream(fs::path(f.scheduler.submitted[0].job_dir) / "result.json") << partial.dump();
  f.scheduler.finish("100", 3, f.scheduler.submitted[0], false);
  f.scheduler.finish("101", 3, f.scheduler.submitted[1], true);   // says it is valid
  f.scheduler.finish("102", 3, f.scheduler.submitted[2], false);  // wrote nothing
  driver.poll_once();
  auto report = run::collect(f.store, f.sweep);
  CHECK(report.failed == 3);
  CHECK(report.partial == 1);
  CHECK(report.stored == 0);
  REQUIRE(report.messages.size() == 3);
  CHECK(report.messages[0] ==
        "logp p=2 q=1 [k0]: failed, exit status 3; its partial result (not valid) is stored");
  CHECK(report.messages[1] ==
        "logp p=2 q=2 [k1]: failed, exit status 3; its result document says it is valid, so it "
        "was not stored");
  CHECK(report.messages[2] == "logp p=2 q=3 [k2]: failed, exit status 3");
  for (const auto& p : f.store.points(f.sweep.id)) CHECK(p.state == PointState::failed);
  auto stored = f.store.db().prepare("SELECT point_id, valid FROM results");
  REQUIRE(stored.step());
  CHECK(stored.int64(0) == f.store.points(f.sweep.id)[0].id);
  CHECK(stored.int64(1) == 0);
  CHECK_FALSE(stored.step());
  report = run::collect(f.store, f.sweep);  // collected once
  CHECK(report.partial == 0);
  CHECK(report.messages[0] == "logp p=2 q=1 [k0]: failed, exit status 3");
}
