// pbench-io's time guard (issue 14): a size-driven row stops once it has used k times its
// share, checking after 1, 2, 4, ... calls and after every call once the limit is predicted
// near; a row that keeps to its share runs its planned count with a handful of checks. On a fake
// clock (each call costs what the test says), as IoRun's loop drives it. Also the bound on the
// whole run's elapsed time, and the parameters' checks.
#include <doctest/doctest.h>

#include <functional>
#include <vector>

#include "io/IoParameters.hpp"
#include "io/TimeGuard.hpp"

using namespace pbench::io;

namespace {

struct RowRun {
  std::int64_t done = 0;
  double elapsed = 0;
  bool cut = false;
  std::vector<std::int64_t> checks;  ///< the call counts after which the guard was asked
};

/// IoRun's size-driven loop on a fake clock: call i (1-based) costs cost(i) seconds.
RowRun run_row(const TimeGuard& guard, const std::function<double(std::int64_t)>& cost) {
  RowRun r;
  std::int64_t target = 1;
  while (true) {
    ++r.done;
    r.elapsed += cost(r.done);
    if (r.done >= guard.planned()) break;
    if (r.done >= target) {
      r.checks.push_back(r.done);
      const std::int64_t next = guard.next_check(r.done, r.elapsed);
      if (next == 0) {
        r.cut = true;
        break;
      }
      REQUIRE(next > r.done);
      REQUIRE(next <= guard.planned());
      target = next;
    }
  }
  return r;
}

}  // namespace

TEST_CASE("io time guard: a row within its share runs its planned count, checked geometrically") {
  // 1000 calls of 1 ms against a share of 1.5 s: 1 s, well inside 3 x 1.5 s.
  const TimeGuard guard(3.0, 1.5, 1000);
  CHECK(guard.limit() == doctest::Approx(4.5));
  const RowRun r = run_row(guard, [](std::int64_t) { return 0.001; });
  CHECK_FALSE(r.cut);
  CHECK(r.done == 1000);
  CHECK(r.checks == std::vector<std::int64_t>{1, 2, 4, 8, 16, 32, 64, 128, 256, 512});
}

TEST_CASE("io time guard: a row far over its share stops one call past the limit") {
  // The case in small: a collective 1 kB row planned for 5000 calls of 0.1 s with a
  // share of 0.04 s (T = 6 s on one partition, U = 1): unguarded 500 s.
  const TimeGuard guard(3.0, 0.04, 5000);
  const RowRun r = run_row(guard, [](std::int64_t) { return 0.1; });
  CHECK(r.cut);
  CHECK(r.done == 2);  // 0.1 s < 0.12 s after one call, 0.2 s >= 0.12 s after two
  CHECK(r.elapsed >= guard.limit());
  CHECK(r.elapsed <= guard.limit() + 0.1);
}

TEST_CASE("io time guard: the cut falls at the limit, not at a doubling past it") {
  // 10 ms per call, 310 planned, share 1 s, k = 3: the row needs 3.1 s and is cut at about 3 s;
  // 290 calls (2.9 s) would not be cut.
  const TimeGuard over(3.0, 1.0, 310);
  const RowRun r = run_row(over, [](std::int64_t) { return 0.01; });
  CHECK(r.cut);
  CHECK(r.done >= 300);
  CHECK(r.done <= 301);
  CHECK(r.elapsed <= over.limit() + 0.01 + 1e-9);
  const TimeGuard under(3.0, 1.0, 290);
  const RowRun s = run_row(under, [](std::int64_t) { return 0.01; });
  CHECK_FALSE(s.cut);
  CHECK(s.done == 290);
}

TEST_CASE("io time guard: a row that slows down abruptly overshoots by at most its calls so far") {
  // Fast first calls (a cache absorbs them), then 50 ms each. The check after the 64 fast calls
  // predicts thousands more, but the next check comes at twice the calls done (the batched
  // termination rule's step): 64 slow calls run before the guard sees them. That is the price
  // of not synchronising after every call (which would change what types 3 and 4 measure);
  // the run's elapsed bound is the backstop.
  const TimeGuard guard(3.0, 0.1, 100000);
  const RowRun r = run_row(guard, [](std::int64_t call) { return call <= 64 ? 0.0001 : 0.05; });
  CHECK(r.cut);
  CHECK(r.done == 128);
  CHECK(r.elapsed == doctest::Approx(64 * 0.0001 + 64 * 0.05));
  CHECK(r.checks == std::vector<std::int64_t>{1, 2, 4, 8, 16, 32, 64, 128});
}

TEST_CASE("io time guard: the factor scales the limit, and a planned count of 1 is never asked") {
  const TimeGuard tight(1.0, 0.5, 10);
  const RowRun r = run_row(tight, [](std::int64_t) { return 0.2; });
  CHECK(r.cut);
  CHECK(r.done == 3);  // 0.2, 0.4 < 0.5; 0.6 >= 0.5
  const TimeGuard one(3.0, 0.01, 1);
  const RowRun s = run_row(one, [](std::int64_t) { return 10.0; });
  CHECK_FALSE(s.cut);
  CHECK(s.checks.empty());
  // A zero-cost call (a coarse clock) does not divide by zero: the doubling goes on.
  CHECK(TimeGuard(3.0, 1.0, 100).next_check(4, 0.0) == 8);
}

TEST_CASE("io elapsed bound: 1.10 T from 60 s, 1.15 T + 3 s below") {
  CHECK(elapsed_limit(60) == doctest::Approx(66));
  CHECK(elapsed_limit(300) == doctest::Approx(330));
  CHECK(elapsed_limit(1800) == doctest::Approx(1980));
  CHECK(elapsed_limit(20) == doctest::Approx(26));
  CHECK(elapsed_limit(6) == doctest::Approx(9.9));
  CHECK(elapsed_limit(59) == doctest::Approx(70.85));
}

TEST_CASE("io time guard parameters: k > 0, --unguarded drops the guard, the test delay >= 0") {
  char* env[] = {nullptr};
  IoOptions o;
  IoConfig c = IoConfig::check(o, env);
  REQUIRE(c.guard_factor);
  CHECK(*c.guard_factor == doctest::Approx(kDefaultGuardFactor));
  CHECK(c.collective_write_delay == 0);
  o.guard_factor = 0;
  CHECK_THROWS_WITH(IoConfig::check(o, env), doctest::Contains("--guard-factor: must be > 0"));
  o.guard_factor = -2;
  CHECK_THROWS_WITH(IoConfig::check(o, env), doctest::Contains("--guard-factor: must be > 0"));
  o.guard_factor = 1.5;
  c = IoConfig::check(o, env);
  CHECK(*c.guard_factor == doctest::Approx(1.5));
  o.unguarded = true;
  CHECK_FALSE(IoConfig::check(o, env).guard_factor);
  o = IoOptions{};
  o.test_collective_write_delay = -0.1;
  CHECK_THROWS_WITH(IoConfig::check(o, env),
                    doctest::Contains("--test-collective-write-delay: must be >= 0"));
  o.test_collective_write_delay = 0.05;
  CHECK(IoConfig::check(o, env).collective_write_delay == doctest::Approx(0.05));
}

TEST_CASE("io test delays: --test-call-delay ACCESS:TYPE=SECONDS and --test-deletion-delay") {
  char* env[] = {nullptr};
  IoOptions o;
  o.test_call_delay = {"read:2=0.05", "write:0=100ms", "rewrite:4=0"};
  const IoConfig c = IoConfig::check(o, env);
  CHECK(c.call_delays.size() == 3);
  CHECK(c.call_delays.at({2, 2}) == doctest::Approx(0.05));
  CHECK(c.call_delays.at({0, 0}) == doctest::Approx(0.1));
  CHECK(c.call_delays.at({1, 4}) == 0);
  for (const char* bad : {"read:5=0.1", "append:0=0.1", "read:0", "read=0.1:0", "read:0=-1",
                          "read:0=x", "read:01=1"}) {
    o.test_call_delay = {bad};
    CHECK_THROWS_WITH(IoConfig::check(o, env),
                      doctest::Contains("is not ACCESS:TYPE=SECONDS (write, rewrite or read; "
                                        "type 0-4; seconds 0 to 3600)"));
  }
  o = IoOptions{};
  o.test_deletion_delay = -1;
  CHECK_THROWS_WITH(IoConfig::check(o, env),
                    doctest::Contains("--test-deletion-delay: must be >= 0 seconds per GB"));
  o.test_deletion_delay = 2;
  CHECK(IoConfig::check(o, env).deletion_delay == doctest::Approx(2));
}
