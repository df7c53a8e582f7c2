// A plan a centre can book by (issue 50): planned time is the expected time and the limit the
// bound, io at this machine's elapsed/T or the stated share; a guess gets the site's longest
// limit; history only of the same machine; nothing overflows; --set values in their range; the
// machine's figures from the site profile; a budget refused with what fits.
#include <doctest/doctest.h>

#include <algorithm>

#include "plan/SweepBudget.hpp"
#include "plan/SweepCost.hpp"
#include "plan/SweepPlanner.hpp"
#include "plan/WorkerSettings.hpp"
#include "site/MachineFigures.hpp"
#include "site/PartitionMaxTime.hpp"
#include "site/SiteProfile.hpp"
#include "store/Store.hpp"
#include "sweep/MethodCost.hpp"
#include "sweep/PlannedTime.hpp"
#include "support/PlanSpecs.hpp"
#include "util/Error.hpp"

using namespace pbench;
using testing::no_description;
using testing::spec_of;

namespace {

run::PastRun past(const sweep::Point& point, double seconds) {
  run::PastRun r;
  r.sweep = "earlier";
  r.point_key = point.key;
  r.worker = point.worker;
  r.partition = point.partition;
  r.params = point.params;
  r.seconds = seconds;
  r.ended_at = "2026-11-27T10:00:00.000Z";
  return r;
}

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

}  // namespace

TEST_CASE("io is planned at the stated share of T, its limit from its bound T x k") {
  auto spec = spec_of("slurm", {"io"}, {4});
  spec.set_values("schedule_time", nlohmann::json::array({600}));
  const auto points = sweep::expand(spec);
  REQUIRE(points.size() == 1);
  const auto plan = run::plan_cost(spec, points, {}, no_description);
  const auto& p = plan.points[0];
  CHECK(p.seconds == sweep::launch_seconds({}, 4) + sweep::kIoExpectedShare * 600);
  CHECK(p.time_limit == sweep::derived_time_limit(3 * 600, true));  // 1,800 + 300 s
  CHECK(p.limit_from == "bound");
  CHECK(has(p.why, "x 1 (the stated share of T a guarded run takes), at most T x 3"));
}

TEST_CASE("io is planned at this machine's elapsed/T times its T, exactly") {
  auto spec = spec_of("slurm", {"io"}, {4, 8});
  spec.set_values("schedule_time", nlohmann::json::array({100}));
  auto points = sweep::expand(spec);
  REQUIRE(points.size() == 2);
  // io at 4 ran 62 s (start-up included) at T 100 s; the point at 8 runs T 100 s too.
  auto ran = past(points[0], 62);
  const double measured = 62 - sweep::launch_seconds({}, 4);
  const auto plan = run::plan_cost(spec, points, {ran}, no_description);
  CHECK(plan.points[0].basis == run::PlanBasis::history);
  CHECK(plan.points[0].seconds == 62);
  const auto& scaled = plan.points[1];
  CHECK(scaled.basis == run::PlanBasis::scaled);
  const double start = sweep::launch_seconds({}, 8) * (62 - measured) / sweep::launch_seconds({}, 4);
  CHECK(scaled.seconds == doctest::Approx(start + measured / 100 * 100).epsilon(1e-12));
  CHECK(has(scaled.why, "the elapsed/T of this machine's io at 4"));
  // Its limit stays its bound: the worker keeps to T x k whatever it ran before.
  CHECK(scaled.time_limit == sweep::derived_time_limit(300, true));
  // At another T the share carries over: T 1,000 s plans 10 times the measured part.
  auto longer = spec_of("slurm", {"io"}, {8});
  longer.set_values("schedule_time", nlohmann::json::array({1000}));
  const auto at_1000 = run::plan_cost(longer, sweep::expand(longer), {ran}, no_description);
  CHECK(at_1000.points[0].seconds == doctest::Approx(start + measured * 10).epsilon(1e-12));
}

TEST_CASE("a guess gets the site's longest limit, history tightens it, the longest cuts it") {
  auto spec = spec_of("slurm", {"logp"}, {2});
  spec.settings["logp"] = {{"eel_runs", "2"}, {"eel_roundtrips", "100"}, {"max_size", "64"}};
  const auto points = sweep::expand(spec);
  // No run, no longest stated: at least an hour, never a few minutes under a plan of seconds.
  const auto guessed = run::plan_cost(spec, points, {}, no_description);
  CHECK(guessed.points[0].guessed);
  CHECK(guessed.points[0].limit_from == "guess");
  CHECK(guessed.points[0].time_limit == 3600);
  // The site's longest: the guess gets all of it.
  run::PlanMachine site;
  site.max_time_limit = 86400;
  site.max_time_source = "sinfo: MaxTime of partition batch";
  const auto generous = run::plan_cost(spec, points, {}, no_description, site);
  CHECK(generous.points[0].time_limit == 86400);
  // A run of this point: its time x 1.5 + 5 min.
  const auto learned = run::plan_cost(spec, points, {past(points[0], 600)}, no_description, site);
  CHECK_FALSE(learned.points[0].guessed);
  CHECK(learned.points[0].limit_from == "plan");
  CHECK(learned.points[0].time_limit == sweep::derived_time_limit(600, false));
  // Past the longest: cut to it, and said.
  site.max_time_limit = 900;
  const auto cut = run::plan_cost(spec, points, {past(points[0], 3600)}, no_description, site);
  CHECK(cut.points[0].time_limit == 900);
  CHECK(cut.points[0].limit_from == "maximum");
  REQUIRE(cut.warnings.size() == 1);
  CHECK(has(cut.warnings[0], "is past the longest the site allows, 15m 00s (sinfo: MaxTime"));
  // The local scheduler: no limit at all.
  const auto local = spec_of("local", {"logp"}, {2});
  CHECK(run::plan_cost(local, sweep::expand(local), {}, no_description).points[0].time_limit == 0);
}

TEST_CASE("a cluster's plan in a store of lab runs is the plan of an empty store") {
  auto lab = spec_of("slurm", {"logp", "comm", "bcast", "links"}, {8, 128});
  lab.settings["bcast"]["sizes"] = "8";
  auto cluster = lab;
  cluster.name = "big";
  cluster.partitions = {sweep::Partition::shape(1024, 1), 64};
  cluster.machine = site::MachineFigures{1.5, 20, 25, 100, 50000, 0.001, "big"}.to_json();
  // Lab runs: 128 ranks 64 to a core, every point of the lab sweep.
  nlohmann::json lab_cores = nlohmann::json::array();
  for (int i = 1; i <= 16; ++i) {
    lab_cores.push_back({{"host", "node" + std::to_string(i)}, {"ranks", 8}, {"cores", 8},
                         {"machine", "ab12"}, {"machine_cpus", 2}});
  }
  std::vector<run::PastRun> history;
  for (const auto& point : sweep::expand(lab)) {
    auto r = past(point, 400);
    r.share = run::CoreShare::of_node_cores(lab_cores);
    history.push_back(r);
  }
  const auto points = sweep::expand(cluster);
  const auto empty = run::plan_cost(cluster, points, {}, no_description,
                                    run::plan_machine(cluster));
  const auto in_lab_store = run::plan_cost(cluster, points, history, no_description,
                                           run::plan_machine(cluster));
  REQUIRE(empty.points.size() == in_lab_store.points.size());
  for (std::size_t i = 0; i < empty.points.size(); ++i) {
    CAPTURE(empty.points[i].why);
    CHECK(in_lab_store.points[i].seconds == empty.points[i].seconds);
    CHECK(in_lab_store.points[i].basis == run::PlanBasis::method);
    CHECK(in_lab_store.points[i].why == empty.points[i].why);
    CHECK(in_lab_store.points[i].time_limit == empty.points[i].time_limit);
  }
  CHECK(in_lab_store.node_hours == empty.node_hours);
  CHECK(std::any_of(in_lab_store.notes.begin(), in_lab_store.notes.end(), [](const auto& n) {
    return has(n, "ran on another machine (cluster 'big' is this sweep's");
  }));
  // The same machine's runs do teach it.
  for (auto& r : history) r.cluster = "big";
  const auto own = run::plan_cost(lab, sweep::expand(lab), history, no_description);
  CHECK(own.points[0].basis == run::PlanBasis::method);  // lab's cluster "" != "big"
  auto lab_named = lab;
  lab_named.machine = nlohmann::json{{"cluster", "big"}};
  const auto same = run::plan_cost(lab_named, sweep::expand(lab_named), history, no_description);
  CHECK(same.points[0].basis == run::PlanBasis::history);
}

TEST_CASE("a plan that would overflow is refused, naming the point") {
  auto spec = spec_of("slurm", {"logp"}, {2});
  spec.settings["logp"]["eel_runs"] = "1000000000";  // in range, but a century of round trips
  const auto points = sweep::expand(spec);
  CHECK_THROWS_WITH_AS(run::plan_cost(spec, points, {}, no_description),
                       doctest::Contains(("point " + points[0].key + " (logp at 2) is planned at").c_str()),
                       UsageError);
  CHECK_THROWS_WITH_AS(run::plan_cost(spec, points, {}, no_description),
                       doctest::Contains("a plan holds for one point: the sweep is refused"),
                       UsageError);
  // The derived limit of anything stays a positive int.
  CHECK(sweep::derived_time_limit(1e300, false) > 0);
  CHECK(sweep::derived_time_limit(-5, false) == 300);
}

TEST_CASE("every --set number has a range and is refused outside it, the range named") {
  const nlohmann::json count = {{"name", "eel_runs"}, {"unit", "count"}};
  CHECK_THROWS_WITH_AS(
      run::check_setting_range("logp", "eel_runs", "99999999999999999999", count),
      "--set logp.eel_runs=99999999999999999999: '99999999999999999999' is outside its range: "
      "-1e+09 to 1e+09",
      UsageError);
  CHECK_NOTHROW(run::check_setting_range("logp", "eel_runs", "10", count));
  const nlohmann::json size = {{"name", "max_size"}, {"unit", "B"}};
  CHECK_NOTHROW(run::check_setting_range("logp", "max_size", "64KiB", size));
  CHECK_THROWS_WITH_AS(run::check_setting_range("logp", "max_size", "2000000000000000", size),
                       doctest::Contains("outside its range: 0 to 1.1259e+15 B"), UsageError);
  CHECK_THROWS_AS(run::check_setting_range("logp", "max_size", "99999999999999999999", size),
                  UsageError);
  // Every number of a list; words are the worker's to read.
  const nlohmann::json depths = {{"name", "queue_depths"}, {"unit", "messages"}};
  CHECK_THROWS_AS(run::check_setting_range("logp", "queue_depths", "1,8,1e12", depths),
                  UsageError);
  CHECK_NOTHROW(run::check_setting_range("bcast", "impl", "linear", {{"unit", ""}}));
  const nlohmann::json seconds = {{"name", "max_time"}, {"unit", "s"}};
  CHECK_THROWS_AS(run::check_setting_range("comm", "max_time", "1e12", seconds), UsageError);
  // The worker's own range wins where it states one.
  const nlohmann::json stated = {{"name", "x"}, {"unit", "count"}, {"minimum", 1}, {"maximum", 5}};
  CHECK_THROWS_WITH_AS(run::check_setting_range("logp", "x", "6", stated),
                       doctest::Contains("its range: 1 to 5"), UsageError);
}

TEST_CASE("the site profile's [machine] figures plan before any run, each named by its source") {
  const std::string text =
      "[machine]\ncluster = \"big\"\nlatency_us = 1.5\nprocess_bandwidth_gb_s = 20\n"
      "fs_bandwidth_gb_s = 100\n";
  const auto profile = site::parse_site_profile(text, "/etc/site.toml");
  REQUIRE(profile.machine);
  CHECK(profile.machine->latency_us == 1.5);
  CHECK(profile.machine->cluster == "big");
  CHECK_FALSE(profile.machine->node_bandwidth_gb_s);
  CHECK_THROWS_WITH_AS(site::parse_site_profile("[machine]\nlatency_us = -1\n", "p.toml"),
                       doctest::Contains("latency_us: -1 is outside its range"), UsageError);
  CHECK_THROWS_WITH_AS(site::parse_site_profile("[machine]\nlatncy_us = 1\n", "p.toml"),
                       doctest::Contains("machine.latncy_us: unknown key"), UsageError);
  CHECK_THROWS_AS(site::parse_site_profile("[machine]\nprocess_bandwidth_gb_s = 1e9\n", "p.toml"),
                  UsageError);
  auto spec = spec_of("slurm", {"logp"}, {2});
  spec.machine = profile.machine->to_json();
  spec.site = {{"path", "/etc/site.toml"}, {"sha256", "x"}};
  const auto plan = run::plan_cost(spec, sweep::expand(spec), {}, no_description,
                                   run::plan_machine(spec));
  REQUIRE_FALSE(plan.notes.empty());
  CHECK(has(plan.notes[0], "latency 1.5 us (site profile /etc/site.toml [machine])"));
  CHECK(has(plan.notes[0], "file system 1e+05 MB/s (site profile /etc/site.toml [machine])"));
  CHECK(has(plan.notes[0], "ms per file operation (stated default)"));
  CHECK(has(plan.points[0].why, "with the machine's figures"));
  // Faster figures, a shorter plan than the stated defaults.
  const auto defaults = run::plan_cost(spec_of("slurm", {"logp"}, {2}),
                                       sweep::expand(spec_of("slurm", {"logp"}, {2})), {},
                                       no_description);
  CHECK(plan.points[0].seconds < defaults.points[0].seconds);
}

TEST_CASE("the scheduler's longest limit: sinfo's MaxTime, qstat's resource_max.walltime") {
  const std::string sinfo = "debug* 30:00\nbatch 1-00:00:00\nlong infinite\n";
  CHECK(site::max_time_of_sinfo(sinfo, "")->seconds == 1800);
  CHECK(site::max_time_of_sinfo(sinfo, "batch")->seconds == 86400);
  CHECK(site::max_time_of_sinfo(sinfo, "batch")->source == "sinfo: MaxTime of partition batch");
  CHECK_FALSE(site::max_time_of_sinfo(sinfo, "long"));
  CHECK_FALSE(site::max_time_of_sinfo(sinfo, "nosuch"));
  const std::string qstat = "Queue: workq\n    resource_max.walltime = 48:00:00\n";
  CHECK(site::max_time_of_qstat(qstat, "workq")->seconds == 48 * 3600);
  CHECK_FALSE(site::max_time_of_qstat("Queue: workq\n", "workq"));
  // The profile's longest and the partition's: the shorter counts.
  auto spec = spec_of("slurm", {"logp"}, {2});
  spec.max_time_limit_seconds = 7200;
  CHECK(run::plan_machine(spec).max_time_limit == 7200);
  CHECK(run::plan_machine(spec, 1800, "sinfo").max_time_limit == 1800);
  CHECK(run::plan_machine(spec, 86400, "sinfo").max_time_limit == 7200);
}

TEST_CASE("a budget refuses a plan over it with its costliest points and what fits") {
  auto spec = spec_of("slurm", {"logp", "bcast"}, {8, 64});
  spec.settings["bcast"]["sizes"] = "8";
  std::vector<run::PastRun> history;
  const auto points = sweep::expand(spec);
  // logp: 1 h at each partition; bcast: 1 h at 8, 10 h at 64 (one node per process).
  for (const auto& point : points) {
    const bool big = point.worker == "bcast" && point.partition.processes == 64;
    history.push_back(past(point, big ? 36000 : 3600));
  }
  const auto plan = run::plan_cost(spec, points, history, no_description);
  CHECK(plan.node_hours == doctest::Approx(8 + 8 + 64 + 640));
  CHECK_FALSE(run::over_budget("b", plan, run::parse_budget("1000", "")));
  const auto over = run::over_budget("b", plan, run::parse_budget("100", ""));
  REQUIRE(over);
  CHECK(has(*over, "sweep b is over its budget of 100 node-hours: planned 720 node-hours, 13h 00m"));
  CHECK(has(*over, "costliest: bcast at 64 640 node-hours (10h 00m on 64 nodes, history); "
                   "logp at 64 64 node-hours"));
  CHECK(has(*over, "without partition 64 it fits: 16 node-hours, 2h 00m (--partitions 8)"));
  CHECK(has(*over, "Nothing was written or submitted"));
  // Wall time alone.
  const auto wall = run::over_budget("b", plan, run::parse_budget("", "5:00:00"));
  REQUIRE(wall);
  CHECK(has(*wall, "over its budget of 5h 00m of wall time"));
  // Bad budgets, their range named.
  CHECK_THROWS_WITH_AS(run::parse_budget("-3", ""),
                       "--budget: '-3' is not a node-hour budget (a number more than 0, at most "
                       "1e9)",
                       UsageError);
  CHECK_THROWS_AS(run::parse_budget("1e99", ""), UsageError);
  CHECK_THROWS_AS(run::parse_budget("nan", ""), UsageError);
  CHECK_THROWS_AS(run::parse_budget("", "soon"), UsageError);
}

TEST_CASE("a run stops submitting when what it charged and the next point would pass its budget") {
  auto store = store::Store::open_in_memory();
  auto spec = spec_of("slurm", {"links"}, {2, 4, 8});
  std::vector<store::PointRecord> records;
  for (const auto& point : sweep::expand(spec)) {
    records.push_back(run::point_record(point, "/nonexistent/" + point.key + ".sh"));
  }
  const auto sweep = store.insert_sweep(
      {0, "g", spec.to_json().dump(), "slurm", "/nonexistent", "2026-11-27T09:00:00.000Z"},
      records);
  records = store.points(sweep.id);
  // Planned: 1 h each (2, 4 and 8 nodes: 14 node-hours); budget 15.
  run::CostPlan plan;
  for (const auto& r : records) {
    run::PointPlan p;
    p.key = r.key;
    p.worker = r.worker;
    p.nodes = r.partition;
    p.seconds = 3600;
    plan.points.push_back(p);
  }
  const auto gate = run::budget_gate(store, sweep, 1, plan, run::parse_budget("15", ""));
  std::string why;
  CHECK(gate(records[0], why));
  CHECK(gate(records[1], why));  // 2 + 4 committed, 6 of 15
  // Point 2 ran 5 h, not 1 (10 node-hours charged); point 4 is running (4 committed): point 8
  // (8 more) would pass 15.
  store::AttemptRecord a;
  a.point_id = records[0].id;
  a.job_dir = "/nonexistent";
  a = store.add_attempt(a);
  a.state = store::PointState::done;
  a.started_at = "2026-11-27T10:00:00.000Z";
  a.ended_at = "2026-11-27T15:00:00.000Z";
  store.update_attempt(a);
  store.set_point_state(records[0].id, store::PointState::done);
  store.set_point_state(records[1].id, store::PointState::running);
  CHECK_FALSE(gate(records[2], why));
  CHECK(has(why, "stopped submitting: 10 node-hours charged and 4 committed, with point " +
                     records[2].key + " (links, planned 8) the run would pass its budget of 15 "
                                      "node-hours"));
  // No node-hour budget: every point goes.
  CHECK(run::budget_gate(store, sweep, 1, plan, run::parse_budget("", "1:00:00"))(records[2], why));
}
