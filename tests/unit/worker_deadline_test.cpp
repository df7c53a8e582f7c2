// The deadline every worker keeps to (workers/common/Deadline): parsing the given end, the
// margin, and rank 0's decision at clean points (the broadcast is covered by the integration
// tests under mpiexec).
#include <doctest/doctest.h>

#include "common/Deadline.hpp"
#include "common/ResultDocument.hpp"

using pbench::worker::Deadline;
using pbench::worker::DeadlineDecision;

namespace {
constexpr double kNow = 1'800'000'000.0;  // 2027-01-15T08:00:00Z
}

TEST_CASE("deadline: none given is no deadline and never stops") {
  std::string problem;
  const auto d = Deadline::from(std::nullopt, std::nullopt, -1, kNow, problem);
  REQUIRE(d);
  CHECK_FALSE(d->set());
  CHECK_FALSE(d->stop_before(kNow + 1e9, 1e9));
  DeadlineDecision decision(*d, [] { return kNow + 1e9; });
  CHECK_FALSE(decision.stop_here());
}

TEST_CASE("deadline: --time-left counts from now, --deadline is an epoch time, the earlier wins") {
  std::string problem;
  auto d = Deadline::from(std::nullopt, 100.0, -1, kNow, problem);
  REQUIRE(d);
  CHECK(d->end() == doctest::Approx(kNow + 100));
  d = Deadline::from(kNow + 50, std::nullopt, -1, kNow, problem);
  REQUIRE(d);
  CHECK(d->end() == doctest::Approx(kNow + 50));
  d = Deadline::from(kNow + 50, 30.0, -1, kNow, problem);
  REQUIRE(d);
  CHECK(d->end() == doctest::Approx(kNow + 30));
  d = Deadline::from(kNow + 20, 30.0, -1, kNow, problem);
  REQUIRE(d);
  CHECK(d->end() == doctest::Approx(kNow + 20));
}

TEST_CASE("deadline: the default margin is a tenth of the time left, 1 to 60 s") {
  CHECK(Deadline::default_margin(5) == doctest::Approx(1));
  CHECK(Deadline::default_margin(100) == doctest::Approx(10));
  CHECK(Deadline::default_margin(3600) == doctest::Approx(60));
  std::string problem;
  auto d = Deadline::from(std::nullopt, 200.0, -1, kNow, problem);
  REQUIRE(d);
  CHECK(d->margin() == doctest::Approx(20));
  CHECK(d->stop_by() == doctest::Approx(kNow + 180));
  d = Deadline::from(std::nullopt, 200.0, 5, kNow, problem);
  REQUIRE(d);
  CHECK(d->margin() == doctest::Approx(5));
}

TEST_CASE("deadline: bad input is refused with a message naming it") {
  std::string problem;
  CHECK_FALSE(Deadline::from(kNow - 10, std::nullopt, -1, kNow, problem));
  CHECK(problem ==
        "--deadline (PBENCH_DEADLINE) 1799999990 = 2027-01-15T07:59:50Z is not in the future "
        "(now 2027-01-15T08:00:00Z): the job's time is over");
  CHECK_FALSE(Deadline::from(kNow, std::nullopt, -1, kNow, problem));
  CHECK(problem.find("is not in the future") != std::string::npos);
  CHECK_FALSE(Deadline::from(std::nullopt, 0.0, -1, kNow, problem));
  CHECK(problem == "--time-left must be more than 0 seconds, got 0");
  CHECK_FALSE(Deadline::from(std::nullopt, -5.0, -1, kNow, problem));
  CHECK(problem == "--time-left must be more than 0 seconds, got -5");
  CHECK_FALSE(Deadline::from(std::nullopt, 10.0, 10, kNow, problem));
  CHECK(problem ==
        "--deadline-margin 10 s leaves no time before the deadline 2027-01-15T08:00:10Z (10 s "
        "left)");
}

TEST_CASE(
    "deadline: rank 0 stops where the next step, as long as the longest so far, would pass "
    "the deadline minus the margin") {
  const Deadline d(kNow + 100, 10);  // stop by kNow + 90
  CHECK_FALSE(d.stop_before(kNow + 80, 9));
  CHECK(d.stop_before(kNow + 80, 11));
  CHECK(d.stop_before(kNow + 91, 0));

  double clock = kNow;
  DeadlineDecision decision(d, [&] { return clock; });
  CHECK_FALSE(decision.stop_here());  // the start: no step seen yet
  clock += 20;
  CHECK_FALSE(decision.stop_here());  // 20 s step, next would end at 60
  clock += 5;
  CHECK_FALSE(decision.stop_here());  // the longest stays 20: next would end at 45
  CHECK(decision.longest_step() == doctest::Approx(20));
  clock += 30;  // now kNow + 55, longest 30: next would end at 85
  CHECK_FALSE(decision.stop_here());
  clock += 10;  // kNow + 65 + 30 = 95 > 90
  CHECK(decision.stop_here());
  clock -= 1000;  // once stopped, it stays stopped
  CHECK(decision.stop_here());
}

TEST_CASE("deadline: a time left shorter than the margin allows stops at the first clean point") {
  std::string problem;
  const auto d = Deadline::from(std::nullopt, 2.0, 1.5, kNow, problem);
  REQUIRE(d);
  double clock = kNow + 0.6;
  DeadlineDecision decision(*d, [&] { return clock; });
  CHECK(decision.stop_here());
}

TEST_CASE("deadline: a partial result is not valid, names the deadline and carries the marker") {
  const Deadline d(kNow + 100, 10);
  const std::string reason = d.reason("flood repetition 2 of 5");
  CHECK(reason ==
        "partial: stopped before the deadline 2027-01-15T08:01:40Z (keeping 10 s to write the "
        "result), at flood repetition 2 of 5; what follows was not measured");
  pbench::worker::ResultDocument result("logp");
  CHECK_FALSE(result.validity().contains("partial"));
  result.mark_partial(reason, pbench::worker::epoch_text(d.end()));
  result.mark_partial(reason, pbench::worker::epoch_text(d.end()));
  const auto validity = result.to_json()["validity"];
  CHECK(validity["valid"] == false);
  CHECK(validity["reasons"].size() == 1);
  CHECK(validity["reasons"][0] == reason);
  CHECK(validity["partial"]["reason"] == reason);
  CHECK(validity["partial"]["deadline"] == "2027-01-15T08:01:40Z");
}
