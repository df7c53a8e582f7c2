// pbench-io: T shared out as b_eff_io rev 2.1 does it (T for all partitions, Tn = T / partitions,
// Tu = Tn / Usum, Usum = 150 or 192 with every type rewritten), pinned for every row of the
// table; and the reference code's default partition sizes.
#include <doctest/doctest.h>

#include <vector>

#include "io/IoParameters.hpp"
#include "io/PatternTable.hpp"
#include "io/Schedule.hpp"

using namespace pbench::io;

namespace {

/// The scheduled time of each of the 43 rows, in table order.
std::vector<double> row_times(const Schedule& schedule) {
  std::vector<double> out;
  const PatternTable table(2 * kMiB);  // named: rows() of a temporary would dangle in the loop
  for (const auto& r : table.rows()) out.push_back(schedule.pattern_time(r.time_units));
  return out;
}

void check_rows(const std::vector<double>& got, const std::vector<double>& want) {
  REQUIRE(got.size() == want.size());
  for (std::size_t i = 0; i < got.size(); ++i) {
    CAPTURE(i);
    CHECK(got[i] == doctest::Approx(want[i]));
  }
}

}  // namespace

TEST_CASE("io schedule: Usum sums U over write, rewrite (type 0 or all) and read") {
  CHECK(PatternTable(2 * kMiB).total_time_units() == 64);
  CHECK(PatternTable(2 * kMiB).time_units_of_type(0) == kType0TimeUnits);
  CHECK(Schedule{30, 1, false}.time_units_sum() == 64 + 22 + 64);
  CHECK(Schedule{30, 1, true}.time_units_sum() == 64 + 64 + 64);
}

TEST_CASE("io schedule: T = 30 s over 2 partitions, rewrite type 0: Tn = 15 s, Tu = 0.1 s") {
  const Schedule s{30, 2, false};
  CHECK(s.partition_time() == doctest::Approx(15.0));
  CHECK(s.unit_time() == doctest::Approx(0.1));
  // U per row: type 0 0,4,4,4,2,2,2,2,2; type 1 0,4,2,1,1,1,1,2; type 2 0,2,2,1,1,1,1,2;
  // types 3 and 4 as type 2 and the fill row 0. Each second is 0.1 s per unit.
  check_rows(row_times(s), {0, 0.4, 0.4, 0.4, 0.2, 0.2, 0.2, 0.2, 0.2,  // type 0
                            0, 0.4, 0.2, 0.1, 0.1, 0.1, 0.1, 0.2,       // type 1
                            0, 0.2, 0.2, 0.1, 0.1, 0.1, 0.1, 0.2,       // type 2
                            0, 0.2, 0.2, 0.1, 0.1, 0.1, 0.1, 0.2, 0,    // type 3
                            0, 0.2, 0.2, 0.1, 0.1, 0.1, 0.1, 0.2, 0});  // type 4
}

TEST_CASE("io schedule: T = 30 s on one partition gives a U = 2 row 0.4 s (pbench had 0.3125 s)") {
  const Schedule s{30, 1, false};
  CHECK(s.pattern_time(2) == doctest::Approx(0.4));
  CHECK(s.pattern_time(4) == doctest::Approx(0.8));
  CHECK(s.pattern_time(0) == 0);
}

TEST_CASE("io schedule: T = 60 s over 3 partitions with every type rewritten: Tu = 20/192 s") {
  const Schedule s{60, 3, true};
  CHECK(s.partition_time() == doctest::Approx(20.0));
  const double tu = 20.0 / 192;
  check_rows(row_times(s),
             {0, 4 * tu, 4 * tu, 4 * tu, 2 * tu, 2 * tu, 2 * tu, 2 * tu, 2 * tu,  // type 0
              0, 4 * tu, 2 * tu, tu,     tu,     tu,     tu,     2 * tu,          // type 1
              0, 2 * tu, 2 * tu, tu,     tu,     tu,     tu,     2 * tu,          // type 2
              0, 2 * tu, 2 * tu, tu,     tu,     tu,     tu,     2 * tu, 0,       // type 3
              0, 2 * tu, 2 * tu, tu,     tu,     tu,     tu,     2 * tu, 0});     // type 4
  // The write's time-driven rows (types 0-2) get 44 of the 192 units of Tn.
  double write = 0;
  const PatternTable table(2 * kMiB);
  for (const auto& r : table.rows()) {
    if (r.type <= 2) write += s.pattern_time(r.time_units);
  }
  CHECK(write == doctest::Approx(20.0 * 44 / 192));
}

TEST_CASE("io schedule: the reference code's default partitions") {
  CHECK(default_partitions(1) == std::vector<int>{1});
  CHECK(default_partitions(2) == std::vector<int>{1, 2});
  CHECK(default_partitions(3) == std::vector<int>{1, 2, 3});
  CHECK(default_partitions(4) == std::vector<int>{2, 3, 4});
  CHECK(default_partitions(5) == std::vector<int>{2, 4, 5});
  CHECK(default_partitions(8) == std::vector<int>{2, 4, 8});
  CHECK(default_partitions(12) == std::vector<int>{2, 8, 12});
  CHECK(default_partitions(32) == std::vector<int>{4, 16, 32});
  CHECK(default_partitions(1024) == std::vector<int>{16, 128, 1024});
}
