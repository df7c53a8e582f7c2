// What a sweep costs before it runs (issue 37): each worker's cost by its method's rules, the
// plan that learns from this machine's runs (history, scaled, retry), the time limits derived
// from it per scheduler, node-hours, and the job script's limit lengthened on retry.
#include <doctest/doctest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

#include "plan/ScriptTimeLimit.hpp"
#include "plan/SweepCost.hpp"
#include "plan/SweepPlanner.hpp"
#include "schedulers/BatchSupport.hpp"
#include "support/PlanSpecs.hpp"
#include "support/ScriptLines.hpp"
#include "sweep/MethodCost.hpp"
#include "sweep/PlannedTime.hpp"
#include "util/Error.hpp"

using namespace pbench;
using testing::lines_starting;
using testing::no_description;
using testing::spec_of;
namespace fs = std::filesystem;

namespace {

double cost(const std::string& worker, const nlohmann::json& settings, int processes,
            int nodes = 1) {
  const sweep::WorkerValues values({}, {{"settings", settings}});
  return sweep::method_cost(worker, values, {processes, nodes}, {}).seconds;
}

run::PastRun past(const sweep::Point& point, double seconds, bool timed_out = false) {
  return {"earlier",
          1,
          point.key,
          point.worker,
          point.partition,
          point.params,
          seconds,
          timed_out,
          "2026-11-27T10:00:00.000Z"};
}

}  // namespace

TEST_CASE("every worker has a planned time counted from its method's loops and settings") {
  const auto empty = nlohmann::json::object();
  for (const char* worker : {"logp", "comm", "io", "bcast", "links"}) {
    CAPTURE(worker);
    CHECK(cost(worker, empty, 4, 2) > 0);
  }
  // logp: twice the EEL runs, more time; the pairs measure at once, so P does not count.
  CHECK(cost("logp", {{"eel_runs", "20"}}, 2) > cost("logp", {{"eel_runs", "10"}}, 2));
  CHECK(cost("logp", empty, 64) == doctest::Approx(cost("logp", empty, 2)));
  // comm: the loop's window per measurement; fewer repetitions and random patterns, less.
  CHECK(cost("comm", {{"repetitions", "1"}, {"random_patterns", "2"}}, 8) <
        cost("comm", empty, 8) / 2);
  CHECK(cost("comm", {{"max_time", "10"}}, 8) == doctest::Approx(10));
  // bcast: OL_i (below 16 processes) is one measurement series per task, so it grows at least
  // with P; the synchronized-clock method from 16 (--method auto) is one series for every task,
  // cheaper at 64 than OL_i there.
  CHECK(cost("bcast", {{"method", "oli"}}, 64) > 4 * cost("bcast", {{"method", "oli"}}, 8));
  CHECK(cost("bcast", empty, 64) < cost("bcast", {{"method", "oli"}}, 64) / 4);
  CHECK(cost("bcast", {{"sizes", "8"}}, 8) < cost("bcast", {{"sizes", "8,256"}}, 8));
  // links: P - 1 shifts between nodes (one rank per node), or between ranks on one node.
  CHECK(cost("links", empty, 16, 16) == doctest::Approx(cost("links", empty, 16, 1)));
  CHECK(cost("links", empty, 32, 16) < cost("links", empty, 32, 1));
  // io: about T (the stated share), at most T x k, its bound; the consortium suite: its bytes
  // through the file system.
  const sweep::WorkerValues io({}, {{"schedule_time", 60.0}, {"settings", empty}});
  const auto io_cost = sweep::method_cost("io", io, {2, 1}, {});
  CHECK(io_cost.bounded());
  CHECK(io_cost.seconds == 60 * sweep::kIoExpectedShare);
  CHECK(io_cost.bound_seconds == doctest::Approx(180));
  const nlohmann::json suite = {{"suite", "consortium"}};
  const nlohmann::json bigger = {{"suite", "consortium"}, {"block_size", "64MiB"}};
  CHECK(cost("io", bigger, 4) > 3 * cost("io", suite, 4));
  CHECK(cost("io", suite, 8) > 1.9 * cost("io", suite, 4));
  // One process: no pair for logp, no task for bcast.
  CHECK(cost("logp", empty, 1) == 0);
  CHECK(cost("bcast", empty, 1) == 0);
  CHECK_THROWS_AS(sweep::method_cost("nosuch", {}, {1, 1}, {}), UsageError);
}

TEST_CASE("a worker's own defaults (its parameter description) are what the plan counts") {
  const nlohmann::json description = {{"parameters",
                                       {{{"name", "eel_runs"}, {"default", "40"}},
                                        {{"name", "queue_depths"}, {"default", "[1,2]"}}}}};
  const sweep::WorkerValues described(description, {{"settings", nlohmann::json::object()}});
  const sweep::WorkerValues set(description, {{"settings", {{"eel_runs", "10"}}}});
  CHECK(described.number("eel_runs", 0) == 40);
  CHECK(set.number("eel_runs", 0) == 10);
  CHECK(described.numbers("queue_depths", {}) == std::vector<double>{1, 2});
  // The point's queue depth is its run's only depth.
  const sweep::WorkerValues point(description, {{"queue_depth", 8}, {"settings", {}}});
  CHECK(point.numbers("queue_depths", {}) == std::vector<double>{8});
  CHECK(sweep::WorkerValues({}, {{"settings", {{"max_size", "64KiB"}}}}).number("max_size", 0) ==
        65536);
}

TEST_CASE("the plan learns: history of the point, scaled by the worker's nearest run, retry") {
  auto spec = spec_of("slurm", {"bcast"}, {2, 8});
  spec.settings["bcast"]["sizes"] = "8";
  const auto points = sweep::expand(spec);
  REQUIRE(points.size() == 2);
  // Nothing stored: the method rule with the stated defaults, said in the notes.
  const auto fresh = run::plan_cost(spec, points, {}, no_description);
  CHECK(fresh.points[0].basis == run::PlanBasis::method);
  CHECK(fresh.points[1].seconds > fresh.points[0].seconds);
  REQUIRE_FALSE(fresh.notes.empty());
  CHECK(fresh.notes[0].find("latency 5 us") != std::string::npos);
  // Point 2 ran before: it is planned at its time; point 8 is scaled from it by the rule.
  const auto learned = run::plan_cost(spec, points, {past(points[0], 40)}, no_description);
  CHECK(learned.points[0].basis == run::PlanBasis::history);
  CHECK(learned.points[0].seconds == doctest::Approx(40));
  CHECK(learned.points[1].basis == run::PlanBasis::scaled);
  const double rule_ratio = (fresh.points[1].seconds - sweep::launch_seconds({}, 8)) /
                            (fresh.points[0].seconds - sweep::launch_seconds({}, 2));
  CHECK(learned.points[1].seconds > 40 * rule_ratio * 0.9);
  CHECK(learned.points[1].why.find("bcast at 2 (sweep earlier run 1") != std::string::npos);
  // A point that ran out of time is planned twice as long as it ran, and its limit follows.
  const auto retried = run::plan_cost(spec, points, {past(points[0], 600, true)}, no_description);
  CHECK(retried.points[0].basis == run::PlanBasis::retry);
  CHECK(retried.points[0].seconds == doctest::Approx(1200));
  CHECK(retried.points[0].time_limit == sweep::derived_time_limit(1200, false));
  CHECK(retried.points[0].why.find("ran out of time after 10m 00s") != std::string::npos);
  // A negative limit is refused, saying so.
  CHECK_THROWS_WITH_AS(sweep::parse_time_limit("-5", "--time-limit"),
                       "--time-limit: '-5' is negative: a time limit must be more than 0",
                       UsageError);
  // A given limit is kept as given.
  spec.time_limit_seconds = 120;
  const auto given = run::plan_cost(spec, points, {}, no_description);
  CHECK(given.points[0].time_limit == 120);
  CHECK(given.points[0].limit_given);
}

TEST_CASE("how a run's ranks shared their cores, from its node_cores") {
  // The lab: 8 nodes, namespaces of one 2-core machine, 2 ranks each.
  nlohmann::json lab = nlohmann::json::array();
  for (int i = 1; i <= 8; ++i) {
    lab.push_back({{"host", "node" + std::to_string(i)}, {"ranks", 2}, {"cores", 2},
                   {"machine", "ab12"}, {"machine_cpus", 2}});
  }
  const auto shared = run::CoreShare::of_node_cores(lab);
  CHECK(shared.one_machine);
  CHECK(shared.cores == 2);
  CHECK(shared.ranks_per_core == doctest::Approx(8));
  CHECK(shared.ranks_per_core_at(128, 16) == doctest::Approx(64));
  // Nodes of their own machines (or older documents without one): per node.
  const nlohmann::json cluster = {{{"host", "a"}, {"ranks", 4}, {"cores", 8}, {"machine", "1"}},
                                  {{"host", "b"}, {"ranks", 4}, {"cores", 8}}};
  const auto apart = run::CoreShare::of_node_cores(cluster);
  CHECK_FALSE(apart.one_machine);
  CHECK(apart.ranks_per_core == doctest::Approx(0.5));
  CHECK(apart.ranks_per_core_at(64, 4) == doctest::Approx(2));
  CHECK(run::sharing_factor(0.5) == 1);
  CHECK(run::sharing_factor(4) == 4);
  // Nothing to go by.
  CHECK_FALSE(run::CoreShare::of_node_cores(nullptr).known());
  CHECK_FALSE(run::CoreShare::of_node_cores(nlohmann::json::array()).known());
  CHECK_FALSE(run::CoreShare::of_node_cores({{{"host", "a"}, {"ranks", 0}, {"cores", 2}}}).known());
  CHECK_FALSE(run::CoreShare::of_node_cores({{{"host", "a"}, {"ranks", "x"}}}).known());
}

TEST_CASE("the plan knows ranks wait for cores: scaled from a shared run, and on this machine") {
  auto spec = spec_of("slurm", {"bcast"}, {8, 32});
  spec.settings["bcast"]["sizes"] = "8";
  const auto points = sweep::expand(spec);
  REQUIRE(points.size() == 2);
  // The 8-process point ran 1,000 s with its ranks 4 to a core on one machine (the lab): at 32
  // processes on the same machine, 16 to a core, four times as long as the rule scales it.
  auto ran = past(points[0], 1000);
  ran.point_key = "another";  // not the same point: scaled, not history
  const auto plain = run::plan_cost(spec, points, {ran}, no_description);
  nlohmann::json lab = nlohmann::json::array();
  for (int i = 1; i <= 4; ++i) {
    lab.push_back({{"host", "node" + std::to_string(i)}, {"ranks", 2}, {"cores", 2},
                   {"machine", "ab12"}, {"machine_cpus", 2}});
  }
  ran.share = run::CoreShare::of_node_cores(lab);
  const auto shared = run::plan_cost(spec, points, {ran}, no_description);
  REQUIRE(shared.points[1].basis == run::PlanBasis::scaled);
  CHECK(shared.points[1].seconds / plain.points[1].seconds == doctest::Approx(4).epsilon(0.01));
  CHECK(shared.points[1].why.find(", x4 for 16 ranks per core here against 4 there") !=
        std::string::npos);
  // At 8 processes, as many to a core as the run had: the same plan with the share as without.
  CHECK(shared.points[0].seconds == doctest::Approx(plain.points[0].seconds));
  // The local scheduler runs every rank on this machine: 8 ranks on 2 cores, four times the
  // rule's time; on 8 cores, the rule's.
  auto local = spec_of("local", {"bcast"}, {8});
  local.settings["bcast"]["sizes"] = "8";
  sweep::MachineConstants two;
  two.local_cores = 2;
  sweep::MachineConstants eight;
  eight.local_cores = 8;
  const auto on_two = run::plan_cost(local, sweep::expand(local), {}, no_description, two);
  const auto on_eight = run::plan_cost(local, sweep::expand(local), {}, no_description, eight);
  const double start = sweep::launch_seconds({}, 8);
  CHECK((on_two.points[0].seconds - start) / (on_eight.points[0].seconds - start) ==
        doctest::Approx(4));
  CHECK(on_two.points[0].why.find(", x4 for 8 ranks on this machine's 2 cores") !=
        std::string::npos);
  CHECK(on_eight.points[0].why.find("ranks on this machine") == std::string::npos);
}

TEST_CASE("node-hours count exclusive nodes whole, per partition and for the sweep") {
  auto spec = spec_of("slurm", {"links"}, {sweep::Partition::shape(4, 2), 2});
  spec.procs_per_node = 0;
  const auto points = sweep::expand(spec);
  const auto plan =
      run::plan_cost(spec, points, {past(points[0], 3600), past(points[1], 1800)}, no_description);
  REQUIRE(plan.partitions.size() == 2);
  CHECK(plan.partitions[0].partition == "4x2");
  CHECK(plan.partitions[0].node_hours == doctest::Approx(4));    // 4 nodes x 1 h
  CHECK(plan.partitions[1].node_hours == doctest::Approx(1.0));  // 2 processes: 2 nodes x 0.5 h
  CHECK(plan.node_hours == doctest::Approx(5));
  CHECK(plan.seconds == doctest::Approx(5400));
  CHECK(plan.summary().rfind("about 1h 30m, 5 node-hours (2 points", 0) == 0);
  // The local scheduler: one machine, no batch time limit.
  const auto local = spec_of("local", {"links"}, {2});
  const auto local_plan = run::plan_cost(local, sweep::expand(local), {}, no_description);
  CHECK(local_plan.points[0].nodes == 1);
  CHECK(local_plan.points[0].time_limit == 0);
}

TEST_CASE("Slurm's --time and PBS's walltime follow each point's plan") {
  ::setenv("PBENCH_WORKER_DIR", PBENCH_BINARY_DIR "/workers/logp", 1);
  for (const std::string scheduler : {"slurm", "pbs"}) {
    CAPTURE(scheduler);
    auto spec = spec_of(scheduler, {"logp", "bcast"}, {2});
    if (scheduler == "pbs") spec.launcher = "mpiexec";
    spec.settings["bcast"]["sizes"] = "8";
    const auto plan = run::make_plan(spec, {});
    REQUIRE(plan.points.size() == 2);
    const std::string directive = scheduler == "slurm" ? "#SBATCH --time=" : "#PBS -l walltime=";
    for (std::size_t i = 0; i < plan.points.size(); ++i) {
      const auto& cost = plan.cost.points[i];
      // No run to go by: a guess, whose limit is the site's longest, at least an hour.
      CHECK(cost.limit_from == "guess");
      CHECK(cost.time_limit == std::max(3600, sweep::derived_time_limit(cost.seconds, false)));
      CHECK(lines_starting(plan.points[i].script, directive) ==
            std::set<std::string>{directive + schedulers::format_hms(cost.time_limit)});
      CHECK(lines_starting(plan.points[i].script, "pbench_time_limit_s=") ==
            std::set<std::string>{"pbench_time_limit_s=" + std::to_string(cost.time_limit)});
    }
    // A point this machine ran for two hours gets a limit of 2 h x 1.5 + 5 min.
    run::PlanOptions options;
    options.history = {past(plan.points[0].point, 7200)};
    const auto learned = run::make_plan(spec, options);
    CHECK(lines_starting(learned.points[0].script, directive) ==
          std::set<std::string>{directive + "03:05:00"});
  }
  ::unsetenv("PBENCH_WORKER_DIR");
}

TEST_CASE("a job script's time limit is read and lengthened in place") {
  const fs::path dir = fs::temp_directory_path() / ("pbench-plan-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const std::string script = (dir / "job.sh").string();
  std::ofstream(script) << "#!/usr/bin/env bash\n#SBATCH --ntasks=2\n#SBATCH --time=00:10:00\n"
                           "#PBS -l walltime=00:10:00\nset -u\npbench_time_limit_s=600\nrun\n";
  fs::permissions(script, fs::perms::owner_exec, fs::perm_options::add);
  CHECK(run::script_time_limit(script) == 600);
  run::set_script_time_limit(script, 1500);
  CHECK(run::script_time_limit(script) == 1500);
  std::ifstream in(script);
  std::stringstream text;
  text << in.rdbuf();
  CHECK(text.str() ==
        "#!/usr/bin/env bash\n#SBATCH --ntasks=2\n#SBATCH --time=00:25:00\n"
        "#PBS -l walltime=00:25:00\nset -u\npbench_time_limit_s=1500\nrun\n");
  CHECK((fs::status(script).permissions() & fs::perms::owner_exec) != fs::perms::none);
  CHECK_FALSE(run::script_time_limit((dir / "none.sh").string()));
  // A user's template with the directive alone.
  std::ofstream(dir / "user.sh") << "#SBATCH --time=01:02:03\nrun\n";
  CHECK(run::script_time_limit((dir / "user.sh").string()) == 3723);
  CHECK_THROWS_AS(run::set_script_time_limit((dir / "none.sh").string(), 60), UsageError);
  fs::remove_all(dir);
}

TEST_CASE("a point that ran out of time gets a longer limit in its script on retry, and says so") {
  const fs::path dir = fs::temp_directory_path() / ("pbench-retry-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  auto store = store::Store::open_in_memory();
  auto spec = spec_of("slurm", {"links"}, {2, 4});
  std::vector<store::PointRecord> records;
  for (const auto& point : sweep::expand(spec)) {
    const auto r = run::point_record(point, (dir / (point.key + ".sh")).string());
    std::ofstream(r.script_path) << "#SBATCH --time=00:10:00\npbench_time_limit_s=600\n";
    records.push_back(r);
  }
  const auto sweep = store.insert_sweep(
      {0, "r", spec.to_json().dump(), "slurm", dir.string(), "2026-11-27T09:00:00.000Z"}, records);
  // Point 2 ran out of its 10 minutes; point 4 finished.
  for (std::size_t i = 0; i < records.size(); ++i) {
    store::AttemptRecord a;
    a.point_id = records[i].id;
    a.job_dir = dir.string();
    a = store.add_attempt(a);
    a.state = i == 0 ? store::PointState::timeout : store::PointState::done;
    a.started_at = "2026-11-27T10:00:00.000Z";
    a.ended_at = "2026-11-27T10:10:00.000Z";
    store.update_attempt(a);
    store.set_point_state(records[i].id, a.state);
  }
  const auto said = run::lengthen_timed_out(store, sweep, no_description);
  REQUIRE(said.size() == 1);
  CHECK(said[0] == "point " + records[0].key +
                       " (links at 2) ran out of time after 10m 00s (sweep r run 1): planned "
                       "twice that: time limit 10m 00s -> 35m 00s on retry");
  CHECK(run::script_time_limit(records[0].script_path) == 2100);  // 1200 s x 1.5 + 300 s
  CHECK(run::script_time_limit(records[1].script_path) == 600);
  // Said once: the script's limit is long enough now.
  CHECK(run::lengthen_timed_out(store, sweep, no_description).empty());
  fs::remove_all(dir);
}
