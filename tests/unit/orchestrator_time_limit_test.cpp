// The batch time limit: derived from a point's planned time when not given (io: its scheduled
// time T), the conservative default where no time is knowable, and the warning for a given
// limit shorter than the planned run.
#include <doctest/doctest.h>

#include "sweep/PlannedTime.hpp"

using namespace pbench;

TEST_CASE("time limits are derived from the planned time, with a margin, in whole minutes") {
  sweep::SweepSpec spec;
  spec.name = "t";
  const nlohmann::json io_point = {{"worker", "io"},
                                   {"partition", 2},
                                   {"schedule_time", 60.0},
                                   {"settings", nlohmann::json::object()}};
  REQUIRE(sweep::planned_seconds("io", io_point));
  CHECK(*sweep::planned_seconds("io", io_point) == doctest::Approx(60));
  CHECK(sweep::point_time_limit(spec, "io", io_point) == 420);  // 60 x 1.5 + 300 = 390 -> 7 min
  // io without a schedule time runs pbench-io's default T (1800 s); an io.schedule_time setting
  // counts too.
  const nlohmann::json io_default = {{"settings", nlohmann::json::object()}};
  CHECK(*sweep::planned_seconds("io", io_default) == doctest::Approx(1800));
  CHECK(sweep::point_time_limit(spec, "io", io_default) == 3000);  // 3000 s -> 50 min
  const nlohmann::json io_set = {{"settings", {{"schedule_time", "30"}}}};
  CHECK(*sweep::planned_seconds("io", io_set) == doctest::Approx(30));
  // No planned time for logp: the conservative default.
  const nlohmann::json logp_point = {{"queue_depth", 8}, {"settings", nlohmann::json::object()}};
  CHECK_FALSE(sweep::planned_seconds("logp", logp_point));
  CHECK(sweep::point_time_limit(spec, "logp", logp_point) == sweep::kDefaultTimeLimitSeconds);
  CHECK_FALSE(sweep::time_limit_warning(spec, "io", io_point));
  // A given limit wins, and is warned about when shorter than the planned run.
  spec.time_limit_seconds = 120;
  CHECK(sweep::point_time_limit(spec, "io", io_default) == 120);
  const auto warning = sweep::time_limit_warning(spec, "io", io_default);
  REQUIRE(warning);
  CHECK(warning->find("shorter than the 1800 s io is planned to run") != std::string::npos);
  CHECK_FALSE(sweep::time_limit_warning(spec, "io", io_point));  // 60 s fits in 120 s
  CHECK_FALSE(sweep::time_limit_warning(spec, "logp", logp_point));
}
