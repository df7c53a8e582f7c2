// The workers' shared check for figures that cannot be: each rule, the reason's wording (the
// quantity, its value and its unit), families and sums of parts.
#include <doctest/doctest.h>

#include <cmath>
#include <string>

#include "common/PhysicalLimits.hpp"

using pbench::worker::physical_value_text;
using pbench::worker::PhysicalLimits;

TEST_CASE("physical limits: possible figures give no reason, impossible ones one each, in order") {
  PhysicalLimits ok;
  ok.positive("b_eff", 1e9, "B/s")
      .non_negative("o_s", 0, "s")
      .positive_each("OL_i", {{"task 1", 1e-6}, {"task 2", 2e-6}}, "s")
      .at_least_sum_of_parts("elapsed", 3, "s", {{"write", 1}, {"read", 2}}, 0);
  CHECK(ok.reasons().empty());

  PhysicalLimits bad;
  bad.positive("OL", -4.67e-6, "s", "a broadcast cannot arrive before it is sent")
      .non_negative("o_s", -1e-7, "s")
      .positive("b_eff", 0, "B/s")
      .positive("G (q = 4)", -4e-12, "s/B");
  const auto reasons = bad.reasons();
  REQUIRE(reasons.size() == 4);
  CHECK(reasons[0] ==
        "physically impossible: OL = -4.67 us is not positive: a broadcast cannot arrive before "
        "it is sent");
  CHECK(reasons[1] == "physically impossible: o_s = -0.1 us is negative");
  CHECK(reasons[2] == "physically impossible: b_eff = 0 B/s is not positive");
  CHECK(reasons[3] == "physically impossible: G (q = 4) = -0.004 ns/B is not positive");
}

TEST_CASE("physical limits: a value that is not a finite number is never possible") {
  PhysicalLimits l;
  l.positive("bandwidth", INFINITY, "B/s").non_negative("o_r", NAN, "s");
  const auto reasons = l.reasons();
  REQUIRE(reasons.size() == 2);
  CHECK(reasons[0] == "physically impossible: bandwidth = inf B/s is not a finite number");
  CHECK(reasons[1].find("physically impossible: o_r = ") == 0);
  CHECK(reasons[1].find("is not a finite number") != std::string::npos);
}

TEST_CASE("physical limits: a family gives one reason listing its offenders, at most five") {
  PhysicalLimits l;
  l.positive_each("OL_i", {{"task 1", 3e-6}, {"task 2", -5e-6}, {"task 3", 0}}, "s", "why");
  REQUIRE(l.reasons().size() == 1);
  CHECK(l.reasons()[0] ==
        "physically impossible: OL_i is not positive for task 2 (-5 us), task 3 (0 us): why");
  std::vector<pbench::worker::LabelledValue> many;
  for (int i = 0; i < 8; ++i) many.push_back({"row " + std::to_string(i), -1.0});
  PhysicalLimits m;
  m.positive_each("time", many, "s").positive_each("nothing measured", {}, "s");
  REQUIRE(m.reasons().size() == 1);
  CHECK(m.reasons()[0].find("row 4 (-1 s) and 3 more") != std::string::npos);
  CHECK(m.reasons()[0].find("row 5") == std::string::npos);
}

TEST_CASE("physical limits: a whole shorter than its parts, beyond the slack, is impossible") {
  PhysicalLimits within;
  within.at_least_sum_of_parts("elapsed", 2.9995, "s", {{"write", 1}, {"read", 2}}, 1e-3);
  CHECK(within.reasons().empty());
  PhysicalLimits beyond;
  beyond.at_least_sum_of_parts("partition 2: elapsed", 2.5, "s", {{"write", 1}, {"read", 2}}, 1e-3,
                               "the clock");
  REQUIRE(beyond.reasons().size() == 1);
  CHECK(beyond.reasons()[0] ==
        "physically impossible: partition 2: elapsed = 2.5 s is less than the sum of its parts, "
        "3 s (write 1 s + read 2 s): the clock");
  PhysicalLimits nan_part;
  nan_part.at_least_sum_of_parts("total", 1, "s", {{"open", NAN}}, 0);
  REQUIRE(nan_part.reasons().size() == 1);
  CHECK(nan_part.reasons()[0].find("not a finite number") != std::string::npos);
}

TEST_CASE("physical limits: values in the reason's units: us below 1 ms, ns/B, else as given") {
  CHECK(physical_value_text(-4.67e-6, "s") == "-4.67 us");
  CHECK(physical_value_text(12.5, "s") == "12.5 s");
  CHECK(physical_value_text(0.5, "s") == "0.5 s");
  CHECK(physical_value_text(2e-10, "s/B") == "0.2 ns/B");
  CHECK(physical_value_text(1.5e9, "B/s") == "1.5e+09 B/s");
  CHECK(physical_value_text(3, "") == "3");
}
