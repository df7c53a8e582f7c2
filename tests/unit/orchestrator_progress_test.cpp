// pbench status's progress per partition: counts by state (cancelled and timed-out count as
// failed) and the ETA from the finished points' run times.
#include <doctest/doctest.h>

#include "plan/PartitionProgress.hpp"
#include "store/Store.hpp"

using namespace pbench;
using store::PointState;

namespace {

struct Fixture {
  store::Store store = store::Store::open_in_memory();
  store::SweepRecord sweep;
  std::vector<store::PointRecord> points;

  /// Points with these partitions, all planned; `params` (the shape asked) where given.
  explicit Fixture(const std::vector<int>& partitions,
                   const std::vector<std::string>& params = {}) {
    for (std::size_t i = 0; i < partitions.size(); ++i) {
      store::PointRecord p;
      p.key = "key" + std::to_string(i);
      p.worker = "logp";
      p.partition = partitions[i];
      p.params_json = i < params.size() ? params[i] : "{}";
      p.script_path = "/nonexistent/job.sh";
      points.push_back(p);
    }
    sweep = store.insert_sweep(
        {0, "progress", "{}", "slurm", "/nonexistent", "2026-11-22T00:00:00.000Z"}, points);
  }
  /// Ends point i in `state` after running `seconds`.
  void finish(std::size_t i, PointState state, int seconds) {
    store::AttemptRecord a;
    a.point_id = points[i].id;
    a = store.add_attempt(a);
    a.state = state;
    a.started_at = "2026-11-22T10:00:00.000Z";
    a.ended_at = "2026-11-22T10:00:" + std::string(seconds < 10 ? "0" : "") +
                 std::to_string(seconds) + ".000Z";
    store.update_attempt(a);
    store.set_point_state(points[i].id, state);
  }
  void set(std::size_t i, PointState state) { store.set_point_state(points[i].id, state); }
};

}  // namespace

TEST_CASE("progress per partition counts each state and estimates the remaining time") {
  Fixture f({1, 1, 1, 2, 2, 2, 4});
  f.finish(0, PointState::done, 10);
  f.finish(1, PointState::done, 20);
  f.set(2, PointState::running);
  f.finish(3, PointState::timeout, 50);  // counts as failed, not in the mean
  f.set(4, PointState::queued);
  f.finish(5, PointState::cancelled, 5);
  const auto report = run::partition_progress(f.store, f.sweep.id);
  REQUIRE(report.partitions.size() == 3);
  const auto& p1 = report.partitions[0];
  CHECK(p1.partition == 1);
  CHECK(p1.done == 2);
  CHECK(p1.running == 1);
  CHECK(p1.failed == 0);
  REQUIRE(p1.mean_seconds);
  CHECK(*p1.mean_seconds == doctest::Approx(15));
  const auto& p2 = report.partitions[1];
  CHECK(p2.partition == 2);
  CHECK(p2.queued == 1);
  CHECK(p2.failed == 2);
  CHECK_FALSE(p2.mean_seconds);
  CHECK(report.partitions[2].planned == 1);
  // Partition 1's running point at its mean (15 s); partitions 2 (one queued) and 4 (one
  // planned) have no finished point, so they count the sweep's mean (15 s) each.
  REQUIRE(report.eta_seconds);
  CHECK(*report.eta_seconds == doctest::Approx(45));
}

TEST_CASE("no ETA before any point finished, zero when none remains") {
  Fixture f({1, 2});
  CHECK_FALSE(run::partition_progress(f.store, f.sweep.id).eta_seconds);
  f.finish(0, PointState::done, 3);
  CHECK(*run::partition_progress(f.store, f.sweep.id).eta_seconds == doctest::Approx(3));
  f.finish(1, PointState::failed, 2);
  CHECK(*run::partition_progress(f.store, f.sweep.id).eta_seconds == doctest::Approx(0));
  CHECK(run::format_duration(5) == "5s");
  CHECK(run::format_duration(200) == "3m 20s");
  CHECK(run::format_duration(3900) == "1h 05m");
}

TEST_CASE("progress per partition: one row per shape, 4 as 4x1 and 4 as 2x2 apart") {
  Fixture f({4, 4, 4, 2}, {R"({"nodes":4,"procs_per_node":1})", R"({"nodes":2,"procs_per_node":2})",
                           R"({"nodes":2,"procs_per_node":2})", "{}"});
  f.finish(0, PointState::done, 40);
  f.finish(1, PointState::done, 10);
  const auto report = run::partition_progress(f.store, f.sweep.id);
  REQUIRE(report.partitions.size() == 3);
  CHECK(run::partition_label(report.partitions[0]) == "2");
  CHECK(report.partitions[0].nodes == 0);
  const auto& two_by_two = report.partitions[1];
  const auto& four_by_one = report.partitions[2];
  CHECK(run::partition_label(two_by_two) == "4 (2x2)");
  CHECK(two_by_two.done == 1);
  CHECK(two_by_two.planned == 1);
  CHECK(*two_by_two.mean_seconds == doctest::Approx(10));
  CHECK(run::partition_label(four_by_one) == "4 (4x1)");
  CHECK(four_by_one.done == 1);
  CHECK(*four_by_one.mean_seconds == doctest::Approx(40));
  // The 2x2 point left at its shape's mean (10 s), not the 4x1's; partition 2 at the sweep's mean.
  CHECK(*report.eta_seconds == doctest::Approx(10 + 25));
}
