// pbench-io's plan of its time (issues 41 and 52): a guarded run measures what it cannot cut
// (opens, closes, syncs, bookkeeping, deletion) and what each kind of row costs against the
// time-driven ones, and shares out what is left of T so that all of it fits and all of T is
// used, at most twice rev 2.1's T_pattern. The account of where the time went adds up to the
// elapsed time. The termination rule with the planned sync. On numbers the tests choose (no
// clock).
#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include "io/Schedule.hpp"
#include "io/Termination.hpp"
#include "io/TimePlan.hpp"

using namespace pbench::io;

namespace {

/// T = 30 s, one partition: Usum 150, Tu = 0.2 s; 95 rows, 11 files; 40 time-driven units, 24
/// sized, 22 rewritten, 64 read.
TimePlan plan_of(bool deleting = true) {
  const Schedule schedule{30.0, 1, false};
  return TimePlan(schedule, 95, PlanUnits{40, 24, 22, 64}, 11, deleting);
}

}  // namespace

TEST_CASE("io time plan: with nothing measured the shares are rev 2.1's") {
  const TimePlan plan = plan_of();
  CHECK(plan.rev21_unit_time() == doctest::Approx(0.2));
  CHECK(plan.unit_time(0, 0) == doctest::Approx(0.2));
  CHECK(plan.share(0, 4, 0) == doctest::Approx(0.8));
  CHECK(plan.reserve(0) == 0);
  CHECK(plan.deletion_per_byte() == 0);
  CHECK(plan.sync_per_byte() == 0);
}

TEST_CASE("io time plan: time a row left unspent goes to the rows still to run") {
  TimePlan plan = plan_of();
  plan.pattern_done(0, RowCost::timed, 4, 1e6, 0.01);  // a row far under its share
  // 29.99 s for the 146 units left, every kind at the time-driven rows' cost.
  CHECK(plan.unit_time(0, 0.01) == doctest::Approx(29.99 / 146));
  CHECK(plan.unit_time(0, 0.01) > plan.rev21_unit_time());
}

TEST_CASE(
    "io time plan: the reads cost the probe's read over its write until the run's reads say") {
  TimePlan plan = plan_of(false);
  CHECK(plan.cost_ratio(RowCost::read) == 1);
  plan.probed_read(2.0, 0.5);  // written and synced in 2 s, read back in 0.5 s
  CHECK(plan.cost_ratio(RowCost::read) == doctest::Approx(0.25));
  CHECK(plan.cost_ratio(RowCost::rewrite) == 1);
  CHECK(plan.cost_ratio(RowCost::sized) == 1);
  // s * (40 + 24 + 22 + 0.25 * 64) = 30.
  CHECK(plan.unit_time(0, 0) == doctest::Approx(30.0 / (40 + 24 + 22 + 16)));
  // The time-driven rows ran at 0.25 s per unit, the sized ones at 0.5 s, the first read rows
  // at 0.025 s: ratios 2 and 0.1, the probe's no longer counts.
  plan.pattern_done(0, RowCost::timed, 40, 4e9, 10);
  plan.pattern_done(0, RowCost::sized, 24, 2e9, 12);
  plan.pattern_done(0, RowCost::rewrite, 22, 0, 5.5);
  plan.pattern_done(0, RowCost::read, 4, 0, 0.1);
  CHECK(plan.cost_ratio(RowCost::sized) == doctest::Approx(2));
  CHECK(plan.cost_ratio(RowCost::rewrite) == doctest::Approx(1));
  CHECK(plan.cost_ratio(RowCost::read) == doctest::Approx(0.1));
  // 60 read units left at 0.1: 2.4 s left gives s = 2.4 / 6 = 0.4 s.
  CHECK(plan.unit_time(0, 27.6) == doctest::Approx(0.4));
  // A row of one call (U = 0) changes no ratio.
  plan.pattern_done(0, RowCost::read, 0, 0, 3);
  CHECK(plan.cost_ratio(RowCost::read) == doctest::Approx(0.1));
}

TEST_CASE("io time plan: a share grows to at most twice T_pattern") {
  const Schedule schedule{30.0, 1, false};
  TimePlan plan(schedule, 95, PlanUnits{30, 0, 0, 120}, 11, false);
  plan.probed_read(1.0, 0.01);
  // 30 / (30 + 1.2) = 0.96 s per unit, held at 2 * 0.2 s.
  CHECK(plan.unit_time(0, 0) == doctest::Approx(kMostUnitTimeFactor * 0.2));
  CHECK(plan.share(0, 5, 0) == doctest::Approx(2.0));
  // With nothing left to run, rev 2.1's.
  TimePlan done(schedule, 1, PlanUnits{1, 0, 0, 0}, 1, false);
  done.pattern_done(0, RowCost::timed, 1, 0, 0.1);
  CHECK(done.unit_time(0, 0.1) == doctest::Approx(0.2));
}

TEST_CASE("io time plan: a run behind its schedule shrinks the shares still to come") {
  TimePlan plan = plan_of(false);
  // 40 time-driven and 10 sized units done in 20 s (planned 10 s), both at 0.4 s per unit:
  // 10 s left for 100 units.
  plan.pattern_done(0, RowCost::timed, 40, 0, 16);
  plan.pattern_done(0, RowCost::sized, 10, 0, 4);
  CHECK(plan.unit_time(0, 20) == doctest::Approx(0.1));
  // Past T: nothing left, a share of 0 (a time-driven row then makes its one call).
  CHECK(plan.unit_time(0, 31) == 0);
}

TEST_CASE("io time plan: each partition keeps to its own T / partitions, the run to T") {
  // T = 30 s, two partitions: Tn = 15 s each, Tu = 0.1 s; per partition 95 rows, 11 files and
  // 40 time-driven, 24 sized, 22 rewritten and 64 read units.
  const Schedule schedule{30.0, 2, false};
  TimePlan plan(schedule, 190, PlanUnits{80, 48, 44, 128}, 22, false);
  CHECK(plan.rev21_unit_time() == doctest::Approx(0.1));
  CHECK(plan.budget(0, 0) == doctest::Approx(15));
  CHECK(plan.unit_time(0, 0) == doctest::Approx(0.1));
  CHECK(plan.unit_time(1, 0) == doctest::Approx(0.1));
  // 1 s of set-up no partition took: 0.5 s off each budget.
  CHECK(plan.budget(1, 1) == doctest::Approx(14.5));
  // Partition 0's time-driven rows ran long: 40 units in 10 s (planned 4 s). It pays with its own
  // rows still to come, 4.5 s for its 110 units, though the run has 19 s for 260.
  plan.pattern_done(0, RowCost::timed, 40, 0, 10);
  CHECK(plan.spent(0) == doctest::Approx(10));
  CHECK(plan.unit_time(0, 11) == doctest::Approx((14.5 - 10) / 110));
  // Partition 1 keeps its own budget (14.5 s for 150 units) only as far as the run still can:
  // the run's 19 s over the 260 units left is less, and caps it, so the run keeps to T.
  CHECK(plan.unit_time(1, 11) == doctest::Approx(19.0 / 260));
  // Partition 0 past its own budget: nothing for its time-driven rows (rows with a planned count
  // are held to T_pattern by TypeRun); partition 1 gets the run's share.
  plan.pattern_done(0, RowCost::sized, 24, 0, 6);
  CHECK(plan.unit_time(0, 17) == 0);
  const double sized = (6.0 / 24) / (10.0 / 40);  // cost ratio 1
  CHECK(sized == doctest::Approx(1));
  CHECK(plan.unit_time(1, 17) == doctest::Approx(13.0 / (86 + 150)));
  // A partition never takes another's slack while that one still runs: partition 0's rows took
  // 1 s of their 4 s, partition 1's 6 s; the run has 23 s for 220 units, partition 1 its own 9 s
  // for 110, and that is its share.
  TimePlan slack(schedule, 190, PlanUnits{80, 48, 44, 128}, 22, false);
  slack.pattern_done(0, RowCost::timed, 40, 0, 1);
  slack.pattern_done(1, RowCost::timed, 40, 0, 6);
  CHECK(slack.unit_time(1, 7) == doctest::Approx(9.0 / 110));
  CHECK(slack.unit_time(0, 7) == doctest::Approx(std::min(0.2, 23.0 / 220)));
  // A partition that ended under its budget leaves the rest to those still running: partition 0
  // at 5 s of its 14.5 s (another run) gives partition 1 another 9.5 s.
  TimePlan early(schedule, 190, PlanUnits{80, 48, 44, 128}, 22, false);
  early.pattern_done(0, RowCost::timed, 150, 0, 5);
  for (int row = 1; row < 95; ++row) early.pattern_done(0, RowCost::read, 0, 0, 0);
  CHECK(early.budget(1, 6) == doctest::Approx(14.5 + 9.5));
  CHECK(early.budget(0, 6) == doctest::Approx(14.5));
  // An overrun is never passed on: partition 0 past its budget takes nothing from partition 1.
  TimePlan late(schedule, 190, PlanUnits{80, 48, 44, 128}, 22, false);
  late.pattern_done(0, RowCost::timed, 150, 0, 20);
  for (int row = 1; row < 95; ++row) late.pattern_done(0, RowCost::read, 0, 0, 0);
  CHECK(late.budget(1, 21) == doctest::Approx(14.5));
}

TEST_CASE("io time plan: the opens, closes and bookkeeping to come are held back at their mean") {
  TimePlan plan = plan_of(false);
  plan.opened(0, 0.5);
  plan.closed(0, 0.1);
  plan.bookkeeping(0.3);  // the first row's, with the communicator's first collectives
  plan.pattern_done(0, RowCost::timed, 0, 0, 0.001);
  CHECK(plan.reserve(0) == doctest::Approx(10 * 0.5 + 10 * 0.1));
  plan.bookkeeping(0.32);
  plan.pattern_done(0, RowCost::timed, 0, 0, 0.001);
  // 10 opens and 10 closes left at 0.5 s and 0.1 s, 93 rows at 0.02 s of bookkeeping each.
  CHECK(plan.reserve(0) == doctest::Approx(10 * 0.5 + 10 * 0.1 + 93 * 0.02));
  const double left = 30 - 1 - plan.reserve(0);
  CHECK(plan.unit_time(0, 1) == doctest::Approx(left / 150));
  CHECK(plan.unit_time(0, 1) < 0.2);
}

TEST_CASE("io time plan: a slow deletion seen by the probe shrinks the write shares") {
  // Deletion at 1.4 s per GB (the ext4 with discard), writing at 1 GB/s.
  TimePlan fast = plan_of();
  TimePlan slow = plan_of();
  fast.probed_deletion(32e6, 32e6 * 0.01e-9);
  slow.probed_deletion(32e6, 32e6 * 1.4e-9);
  CHECK(slow.deletion_per_byte() == doctest::Approx(1.4e-9));
  for (TimePlan* p : {&fast, &slow}) p->pattern_done(0, RowCost::timed, 4, 0.8e9, 0.8);
  // The slow plan holds back 1.12 s for the 0.8 GB written and, with U = 146 left (60 writing),
  // s = (30 - 0.8 - 1.12) / (146 + 1.4 * 60) = 0.122 s per unit.
  CHECK(slow.reserve(0) == doctest::Approx(0.8e9 * 1.4e-9));
  CHECK(slow.unit_time(0, 0.8) == doctest::Approx((30 - 0.8 - 1.12) / (146 + 1.4 * 60)));
  CHECK(slow.unit_time(0, 0.8) < 0.8 * fast.unit_time(0, 0.8));
  CHECK(fast.unit_time(0, 0.8) == doctest::Approx(0.2).epsilon(0.01));
}

TEST_CASE("io time plan: the run's own deletions replace the probe once they reach its size") {
  TimePlan plan = plan_of();
  plan.probed_deletion(32e6, 0.032);  // 1 s per GB
  plan.pattern_done(0, RowCost::timed, 40, 1.25e9, 6.25);
  plan.pattern_done(0, RowCost::sized, 24, 0.75e9, 3.75);
  plan.deleted(0, 1e6, 0.5);  // a small file: not yet at scale
  CHECK(plan.deletion_per_byte() == doctest::Approx(1e-9));
  plan.deleted(0, 99e6, 0.5);  // 100 MB in 1 s: 10 s per GB
  CHECK(plan.deletion_per_byte() == doctest::Approx(1e-8));
  // Still in the files: 2 GB - 100 MB, at 10 s per GB.
  CHECK(plan.reserve(0) == doctest::Approx(1.9e9 * 1e-8));
  // With --keep nothing is deleted, and nothing held back for it.
  TimePlan kept = plan_of(false);
  kept.probed_deletion(32e6, 1.0);
  kept.pattern_done(0, RowCost::timed, 4, 1e9, 1);
  CHECK(kept.deletion_per_byte() == 0);
  CHECK(kept.reserve(0) == 0);
}

TEST_CASE("io time plan: the sync's fixed part, its cost per byte and the write bandwidth") {
  TimePlan plan = plan_of();
  CHECK(plan.sync_fixed() == 0);
  // A sync of 2 kB in 40 ms (the disk's latency), then 100 MB in 0.44 s and 300 MB in 1.24 s:
  // 40 ms fixed, 4 ns per byte beyond it.
  plan.synced(2e3, 0.04);
  plan.synced(1e8, 0.44);
  plan.synced(3e8, 1.24);
  CHECK(plan.sync_fixed() == doctest::Approx(0.04));
  CHECK(plan.sync_per_byte() == doctest::Approx(1.6 / (4e8 + 2e3)));
  plan.pattern_done(0, RowCost::timed, 4, 4e8, 2);
  plan.pattern_done(0, RowCost::read, 2, 4e8, 100);  // a read: not writing bandwidth
  CHECK(plan.write_bandwidth() == doctest::Approx(2e8));
}

TEST_CASE("io termination with a planned sync: the calls stop where the sync still fits") {
  // 10 ms per call and 0.5 s share: rev 2.1's rule runs 50 calls; with 5 ms of sync per call
  // to come, 33 (33 * 15 ms = 0.495 s).
  std::int64_t done = 1;
  while (another_call_fits(done, 0.01 * done, 0.5)) ++done;
  CHECK(done == 50);
  done = 1;
  while (another_call_fits(done, 0.01 * done, 0.5, {0, 0.005})) ++done;
  CHECK(done == 33);
  // A fixed part (a sync's latency) comes off the budget once: 0.1 s leaves 40 calls.
  done = 1;
  while (another_call_fits(done, 0.01 * done, 0.5, {0.1, 0})) ++done;
  CHECK(done == 40);
  // The batched rule caps its next check by the same prediction.
  CHECK(next_check(32, 0.32, 0.5) == 50);
  CHECK(next_check(16, 0.16, 0.5, {0, 0.005}) == 32);
  CHECK(next_check(32, 0.32, 0.5, {0, 0.005}) == 33);
  CHECK(next_check(33, 0.33, 0.5, {0, 0.005}) == 0);
  CHECK(next_check(32, 0.32, 0.5, {0.1, 0}) == 40);
}

TEST_CASE("io time account: contiguous parts add up to the elapsed time") {
  TimeAccount account(100.0);
  account.mark(TimePart::setup, 100.5);
  account.mark(TimePart::opens, 100.75);
  account.mark(TimePart::patterns, 102.0);
  account.mark(TimePart::bookkeeping, 102.125);
  account.mark(TimePart::patterns, 103.0);
  account.mark(TimePart::closes, 103.25);
  account.mark(TimePart::deletion, 104.0);
  account.mark(TimePart::removal, 104.5);
  CHECK(account.total() == doctest::Approx(4.5));
  double sum = 0;
  for (TimePart part : kTimePartList) sum += account.seconds(part);
  CHECK(sum == doctest::Approx(account.total()));
  CHECK(account.seconds(TimePart::patterns) == doctest::Approx(2.125));
  CHECK(account.count(TimePart::patterns) == 2);
  CHECK(account.seconds(TimePart::deletion) == doctest::Approx(0.75));
  CHECK(account.seconds(TimePart::deletion_probe) == 0);
  CHECK(std::string(time_part_name(TimePart::deletion_probe)) == "deletion_probe");
}
