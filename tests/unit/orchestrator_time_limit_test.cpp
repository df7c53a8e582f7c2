// The batch time limit: derived from a point's planned time when not given (io: its scheduled
// time T times the time guard's factor k, the most a guarded run takes), the conservative
// default where no time is knowable, and the warning for a given limit shorter than the planned
// run.
#include <doctest/doctest.h>

#include "common/Deadline.hpp"
#include "sweep/PlannedTime.hpp"

using namespace pbench;

TEST_CASE("io's time limit is derived from its bound T x k, with a margin, in whole minutes") {
  sweep::SweepSpec spec;
  spec.name = "t";
  const nlohmann::json io_point = {{"worker", "io"},
                                   {"partition", 2},
                                   {"schedule_time", 60.0},
                                   {"settings", nlohmann::json::object()}};
  REQUIRE(sweep::bound_seconds("io", io_point));
  CHECK(*sweep::bound_seconds("io", io_point) == doctest::Approx(180));  // 3 x 60 s
  CHECK(sweep::derived_time_limit(*sweep::bound_seconds("io", io_point), true) ==
        480);  // 180 + 300 s -> 8 min
  // io without a schedule time runs pbench-io's default T (1800 s); an io.schedule_time setting
  // counts too.
  const nlohmann::json io_default = {{"settings", nlohmann::json::object()}};
  CHECK(*sweep::bound_seconds("io", io_default) == doctest::Approx(5400));
  CHECK(sweep::derived_time_limit(*sweep::bound_seconds("io", io_default), true) ==
        5700);  // 5700 s -> 95 min
  const nlohmann::json io_set = {{"settings", {{"schedule_time", "30"}}}};
  CHECK(*sweep::bound_seconds("io", io_set) == doctest::Approx(90));
  // No bound for logp: its plan is an estimate (plan/SweepCost.hpp, orchestrator_plan_test).
  const nlohmann::json logp_point = {{"queue_depth", 8}, {"settings", nlohmann::json::object()}};
  CHECK_FALSE(sweep::bound_seconds("logp", logp_point));
  CHECK_FALSE(sweep::time_limit_warning(spec, "io", io_point));
  // A given limit is warned about when shorter than the planned run.
  spec.time_limit_seconds = 120;
  const auto warning = sweep::time_limit_warning(spec, "io", io_default);
  REQUIRE(warning);
  CHECK(warning->find("shorter than the 5400 s io may run") != std::string::npos);
  CHECK(sweep::time_limit_warning(spec, "io", io_point));  // 180 s does not fit in 120 s
  spec.time_limit_seconds = 180;
  CHECK_FALSE(sweep::time_limit_warning(spec, "io", io_point));
  CHECK_FALSE(sweep::time_limit_warning(spec, "logp", logp_point));
}

TEST_CASE("an io.guard_factor setting sets the planned time, never below the elapsed bound") {
  sweep::SweepSpec spec;
  const nlohmann::json k2 = {{"schedule_time", 600.0}, {"settings", {{"guard_factor", "2"}}}};
  CHECK(*sweep::bound_seconds("io", k2) == doctest::Approx(1200));
  CHECK(sweep::derived_time_limit(*sweep::bound_seconds("io", k2), true) ==
        1500);  // 1200 + 300 s -> 25 min
  const nlohmann::json k1 = {{"schedule_time", 600.0}, {"settings", {{"guard_factor", "1"}}}};
  // An estimate gets half as much again before the margin: 600 s x 1.5 + 300 s = 20 min.
  CHECK(sweep::derived_time_limit(600, false) == 1200);
  CHECK(sweep::derived_time_limit(601, false) == 1260);  // 1201.5 s, rounded up to the minute
  // A guarded run that keeps to T may still take 1.10-1.15 T and stay valid.
  CHECK(*sweep::bound_seconds("io", k1) == doctest::Approx(690));
  CHECK(sweep::derived_time_limit(*sweep::bound_seconds("io", k1), true) ==
        1020);  // 990 s -> 17 min
  // A setting that is not a positive number (the worker will refuse it) counts as the default.
  const nlohmann::json bad = {{"schedule_time", 600.0}, {"settings", {{"guard_factor", "x"}}}};
  CHECK(*sweep::bound_seconds("io", bad) == doctest::Approx(1800));
}

TEST_CASE("the derived time limit leaves the deadline's margin free after the planned run") {
  // The job script sets the worker's deadline to its start + its limit; the worker stops at the
  // deadline minus its margin. A run that keeps to its plan (k T, the guard's worst case) must
  // never be cut by that.
  sweep::SweepSpec spec;
  spec.name = "t";
  for (double t : {1.0, 10.0, 60.0, 300.0, 1800.0, 7200.0}) {
    for (const char* k : {"1", "3", "10"}) {
      const nlohmann::json point = {{"schedule_time", t}, {"settings", {{"guard_factor", k}}}};
      const double planned = *sweep::bound_seconds("io", point);
      const int limit = sweep::derived_time_limit(*sweep::bound_seconds("io", point), true);
      const double margin = worker::Deadline::default_margin(limit);
      CAPTURE(t);
      CAPTURE(k);
      CHECK(planned + margin < limit);
    }
  }
}
