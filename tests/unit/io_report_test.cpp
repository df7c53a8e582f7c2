// pbench-io: the report's validity reasons (T, shared file pointer, read check, cache check,
// partial result, rows the time guard cut, elapsed against T, the test delay) and the summary
// metrics the orchestrator reads, on synthetic measurements.
#include <doctest/doctest.h>

#include <string>

#include "common/ResultDocument.hpp"
#include "io/IoReport.hpp"

using namespace pbench::io;

namespace {

/// A complete run of one partition of 2 processes: every type moved `bytes` in 1 s.
IoMeasurements complete_run(double schedule_time, std::int64_t bytes) {
  IoMeasurements m;
  m.nprocs = 2;
  m.partitions = {2};
  m.schedule_time = schedule_time;
  m.schedule = {schedule_time, 1, false};
  m.cache_bytes = 1000;
  m.cache_source = "--cache-bytes";
  m.chunks = ChunkSizes::for_memory(1);
  m.guard_factor = kDefaultGuardFactor;
  for (Access a : kAccesses) {
    for (int t : types_of(a, false)) {
      TypeMeasurement tm;
      tm.partition = 2;
      tm.access = a;
      tm.type = t;
      tm.bytes = bytes;
      tm.total_time = 1.0;
      m.types.push_back(tm);
      PatternMeasurement pm;
      pm.partition = 2;
      pm.access = a;
      pm.type = t;
      pm.bytes = bytes;
      pm.repetitions = 1;
      pm.time.max = 1.0;
      m.patterns.push_back(pm);
    }
  }
  m.timings.push_back({2, schedule_time, 3 * schedule_time / 4, schedule_time / 3, std::nullopt});
  return m;
}

bool has_reason(const IoReport& r, const std::string& start) {
  for (const auto& reason : r.reasons()) {
    if (reason.rfind(start, 0) == 0) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("io: a complete run with Tn >= 1800 s, no errors and enough bytes is official") {
  const IoReport report(complete_run(1800, 1000000));
  CHECK(report.reasons().empty());
  REQUIRE(report.figures().system);
  CHECK(*report.figures().system == doctest::Approx(1e6));
  pbench::worker::ResultDocument doc("io");
  report.write(doc);
  const auto j = doc.to_json();
  CHECK(j["validity"]["valid"] == true);
  int found = 0;
  for (const auto& metric : j["summary"]) {
    if (metric["name"] == "b_eff_io_system") {
      CHECK(metric["labels"]["partition"] == 2);
      CHECK(metric["value"].get<double>() == doctest::Approx(1e6));
      ++found;
    }
    if (metric["name"] == "b_eff_io") ++found;
    if (metric["name"] == "b_eff_io_paper") ++found;
  }
  CHECK(found == 3);
  // The run says what its b_eff_io is and where pbench-io deliberately differs from rev 2.1.
  const auto& run = j["measurements"]["run"];
  std::size_t column = 0;
  while (run["columns"][column]["name"] != "b_eff_io_definition") ++column;
  CHECK(run["rows"][0][column].get<std::string>().rfind("b_eff_io rev 2.1: ", 0) == 0);
  CHECK(j["measurements"]["differences_from_rev_2_1"]["rows"].size() ==
        deliberate_differences(kDefaultGuardFactor, 0).size());
}

TEST_CASE("io: the official time is per partition: T = 3000 s over 2 partitions is short") {
  IoMeasurements m = complete_run(3000, 1000000);
  m.schedule.partitions = 2;
  const IoReport report(std::move(m));
  CHECK(has_reason(report,
                   "scheduled time per partition Tn = T / 2 = 1500.0 s < 1800 s: an official "
                   "b_eff_io needs Tn >= 1800 s"));
}

TEST_CASE("io: short T, a failed read check and too few bytes for the cache are all said") {
  IoMeasurements m = complete_run(60, 10000);  // 5 types x 10 kB < 20 x 1000 B for rewrite
  m.patterns.back().errors = 3;
  const IoReport report(std::move(m));
  CHECK(has_reason(report, "scheduled time per partition Tn = T / 1 = 60.0 s < 1800 s"));
  CHECK(has_reason(report, "read check: 3 chunks in 1 patterns"));
  CHECK(has_reason(report, "cache check: partition 2 moved rewrite 10000 B,"));
  CHECK_FALSE(has_reason(report, "partial result"));
  CHECK(report.figures().system);  // figures stay, flagged
}

TEST_CASE("io: a run stopped by an error is partial, without type 1 and without b_eff_io") {
  IoMeasurements m = complete_run(1800, 1000000);
  m.types.erase(m.types.begin() + 6, m.types.end());  // stopped before reading type 0
  m.failure = "write to 'x' failed: No space left on device";
  m.stopped_at = "partition 2, read, type 0, open";
  const IoReport report(std::move(m));
  CHECK(has_reason(report,
                   "partial result: the run stopped at partition 2, read, type 0, open: write to "
                   "'x' failed: No space left on device"));
  CHECK(has_reason(report, "partition 2: the shared file pointer (type 1) was not used"));
  CHECK_FALSE(report.figures().system);
}

namespace {

/// A column of a result table by name, row `row`.
nlohmann::json cell(const nlohmann::json& doc, const std::string& table, const std::string& column,
                    std::size_t row = 0) {
  const auto& t = doc["measurements"][table];
  for (std::size_t i = 0; i < t["columns"].size(); ++i) {
    if (t["columns"][i]["name"] == column) return t["rows"][row][i];
  }
  FAIL("no column " << column << " in " << table);
  return nullptr;
}

bool has_difference(const nlohmann::json& doc, const std::string& aspect) {
  for (const auto& row : doc["measurements"]["differences_from_rev_2_1"]["rows"]) {
    if (row[0] == aspect) return true;
  }
  return false;
}

}  // namespace

TEST_CASE("io: a row cut by the time guard is recorded and named in a reason") {
  IoMeasurements m = complete_run(1800, 1000000);
  PatternMeasurement cut;
  cut.partition = 2;
  cut.access = Access::write;
  cut.type = 4;
  cut.number = 38;
  cut.disk_chunk = 1024;
  cut.memory_chunk = 1024;
  cut.time_units = 1;
  cut.pattern_time = 0.04;
  cut.planned_time = 0.05;  // hand-made: the report takes the share as given
  cut.drive = Drive::size;
  cut.repetitions = 3;
  cut.planned = 5000;
  cut.cut = true;
  cut.bytes = 2 * 1024 * 3;
  cut.time.max = 0.15;
  m.patterns.push_back(cut);
  const IoReport report(std::move(m));
  CHECK(has_reason(report,
                   "time guard: partition 2, write, type 4, pattern 38 (l = 1024 B): stopped after "
                   "3 of 5000 planned repetitions, having taken 0.150 s, 3.0 x its share "
                   "0.050 s (T_pattern = 0.040 s; guard factor 3.00); the segment is partly "
                   "filled, rewrite and read replay the 3"));
  pbench::worker::ResultDocument doc("io");
  report.write(doc);
  const auto j = doc.to_json();
  CHECK(j["validity"]["valid"] == false);
  const std::size_t last = j["measurements"]["patterns"]["rows"].size() - 1;
  CHECK(cell(j, "patterns", "cut", last) == true);
  CHECK(cell(j, "patterns", "planned_repetitions", last) == 5000);
  CHECK(cell(j, "patterns", "repetitions", last) == 3);
  CHECK(cell(j, "patterns", "cut", 0) == false);
  CHECK(cell(j, "run", "cut_rows") == 1);
  CHECK(cell(j, "run", "guard_factor") == 3.0);
  CHECK(has_difference(j, "time guard"));
  CHECK(has_difference(j, "time plan"));
  CHECK(has_difference(j, "deletion of the files"));
  CHECK_FALSE(has_difference(j, "test delay"));
}

TEST_CASE("io: a cut rewrite or read says what follows, and shrunk shares are a warning") {
  IoMeasurements m = complete_run(1800, 1000000);
  PatternMeasurement row;
  row.partition = 2;
  row.type = 2;
  row.number = 20;
  row.disk_chunk = 1024;
  row.memory_chunk = 1024;
  row.time_units = 1;
  row.pattern_time = 0.04;
  row.planned_time = 0.02;
  row.drive = Drive::replay;
  row.repetitions = 7;
  row.planned = 900;
  row.cut = true;
  row.time.max = 0.07;
  row.access = Access::rewrite;
  m.patterns.push_back(row);
  row.access = Access::read;
  m.patterns.push_back(row);
  m.call_delays[{2, 2}] = 0.01;
  m.deletion_delay = 2.5;
  m.account = TimeAccount(0);
  m.account.mark(TimePart::patterns, 1500);
  m.account.mark(TimePart::deletion, 2000);
  m.elapsed = m.account.total();
  const IoReport report(std::move(m));
  CHECK(has_reason(report,
                   "time guard: partition 2, rewrite, type 2, pattern 20 (l = 1024 B): stopped "
                   "after 7 of 900 planned repetitions, having taken 0.070 s, 3.5 x its share "
                   "0.020 s (T_pattern = 0.040 s; guard factor 3.00); the rest of the row keeps "
                   "the write's data; the read replays the 7"));
  CHECK(has_reason(report,
                   "time guard: partition 2, read, type 2, pattern 20 (l = 1024 B): stopped after "
                   "7 of 900 planned repetitions, having taken 0.070 s, 3.5 x its share 0.020 s "
                   "(T_pattern = 0.040 s; guard factor 3.00); the rest of the row is not read"));
  CHECK(has_reason(report,
                   "test fault --test-call-delay slept 0.010 s before every read call "
                   "of type 2"));
  CHECK(has_reason(report, "test fault --test-deletion-delay slept 2.500 s per GB"));
  CHECK(has_reason(report,
                   "elapsed 2000.0 s > 1.10 T = 1980.0 s (T = 1800.0 s): the run overran its "
                   "scheduled time (account: patterns 1500.0 s, opens 0.0 s, closes 0.0 s, "
                   "deletion 500.0 s, the rest 0.0 s)"));
  bool warned = false;
  for (const auto& w : report.warnings()) {
    warned = warned || w.rfind(
                           "time plan: 2 rows ran with a share below rev 2.1's T_pattern "
                           "(down to 50% of it)",
                           0) == 0;
  }
  CHECK(warned);
  pbench::worker::ResultDocument doc("io");
  report.write(doc);
  const auto j = doc.to_json();
  CHECK(cell(j, "run", "test_call_delays") == "read:2=0.01");
  CHECK(cell(j, "run", "test_deletion_delay") == 2.5);
  CHECK(cell(j, "time_account", "part", 5) == "deletion");
  CHECK(cell(j, "time_account", "time", 5) == 500.0);
  CHECK(cell(j, "time_account", "time", 3) == 1500.0);
  const std::size_t last = j["measurements"]["patterns"]["rows"].size() - 1;
  CHECK(cell(j, "patterns", "planned_time", last) == 0.02);
}

TEST_CASE("io: elapsed beyond 1.10 T (T >= 60 s) or 1.15 T + 3 s is a reason of its own") {
  IoMeasurements m = complete_run(6, 1000000);
  m.elapsed = 10.0;
  const IoReport over(std::move(m));
  CHECK(has_reason(over,
                   "elapsed 10.0 s > 1.15 T + 3 s = 9.9 s (T = 6.0 s): the run overran its "
                   "scheduled time"));
  m = complete_run(6, 1000000);
  m.elapsed = 9.8;
  const IoReport within(std::move(m));
  CHECK_FALSE(has_reason(within, "elapsed"));
  pbench::worker::ResultDocument doc("io");
  within.write(doc);
  const auto j = doc.to_json();
  CHECK(cell(j, "run", "schedule_time") == 6.0);
  CHECK(cell(j, "run", "elapsed") == 9.8);
  CHECK(cell(j, "run", "elapsed_limit").get<double>() == doctest::Approx(9.9));
  m = complete_run(1800, 1000000);
  m.elapsed = 1990;
  CHECK(has_reason(IoReport(std::move(m)),
                   "elapsed 1990.0 s > 1.10 T = 1980.0 s (T = 1800.0 s): the run overran"));
}

TEST_CASE("io: the test delay makes a result not valid, and --unguarded drops the guard's row") {
  IoMeasurements m = complete_run(1800, 1000000);
  m.guard_factor.reset();
  m.collective_write_delay = 0.05;
  const IoReport report(std::move(m));
  CHECK(has_reason(report,
                   "test fault --test-collective-write-delay slept 0.050 s before every "
                   "collective write call of type 4"));
  pbench::worker::ResultDocument doc("io");
  report.write(doc);
  const auto j = doc.to_json();
  CHECK(has_difference(j, "test delay"));
  CHECK_FALSE(has_difference(j, "time guard"));
  CHECK(cell(j, "run", "guard_factor").is_null());
  CHECK(cell(j, "run", "test_collective_write_delay") == 0.05);
}

TEST_CASE("io: the run table records where the I/O buffer started, said when not rev 2.1's") {
  pbench::worker::ResultDocument doc("io");
  IoReport(complete_run(1800, 1000000)).write(doc);
  auto j = doc.to_json();
  CHECK(cell(j, "run", "buffer_offset") == 16);
  CHECK_FALSE(has_difference(j, "I/O buffer"));
  IoMeasurements m = complete_run(1800, 1000000);
  m.buffer_offset = 0;
  pbench::worker::ResultDocument moved("io");
  IoReport(std::move(m)).write(moved);
  j = moved.to_json();
  CHECK(cell(j, "run", "buffer_offset") == 0);
  CHECK(has_difference(j, "I/O buffer"));
}

TEST_CASE("io: a zero bandwidth is physically impossible: not valid, its reason first") {
  IoMeasurements m = complete_run(1800, 1000000);
  for (auto& t : m.types) {
    if (t.access == Access::read && t.type == 2) t.bytes = 0;  // 0 B in 1 s: 0 B/s
  }
  const IoReport report(m);
  REQUIRE_FALSE(report.reasons().empty());
  CHECK(report.reasons()[0] ==
        "physically impossible: type bandwidth is not positive for partition 2, read, type 2 "
        "(0 B/s)");
  pbench::worker::ResultDocument doc("io");
  report.write(doc);
  CHECK_FALSE(doc.to_json()["validity"]["valid"].get<bool>());

  // A type that took no time has no bandwidth at all (b_eff_io is null), and the reason says why.
  for (auto& t : m.types) {
    if (t.access == Access::read && t.type == 2) {
      t.bytes = 1000000;
      t.total_time = 0;
    }
  }
  const IoReport timeless(std::move(m));
  CHECK_FALSE(timeless.figures().system);
  REQUIRE_FALSE(timeless.reasons().empty());
  CHECK(timeless.reasons()[0] ==
        "physically impossible: type time (open, patterns, close) is not positive for partition "
        "2, read, type 2 (0 us)");
}

TEST_CASE("io: a time shorter than the sum of its parts is physically impossible") {
  IoMeasurements m = complete_run(1800, 1000000);
  // Two processes per pattern: each write pattern took 0.9 s on average, type 0's total 1 s.
  for (auto& p : m.patterns) {
    p.time = {0.8, 0.9, 1.0, 0.1, 2};
  }
  CHECK(IoReport(m).reasons().empty());
  m.types.front().total_time = 0.5;  // write type 0: 0.5 s for a 0.9 s pattern
  m.timings.front().elapsed = 5;     // 11 patterns of 0.9 s each in 5 s
  const IoReport report(std::move(m));
  REQUIRE(report.reasons().size() == 2);
  CHECK(report.reasons()[0] ==
        "physically impossible: partition 2, write, type 0: type time = 0.5 s is less than the "
        "sum of its parts, 0.9 s (pattern 0 0.9 s): the time of a pattern type from open to "
        "close includes its patterns");
  CHECK(report.reasons()[1].find("physically impossible: partition 2: elapsed = 5 s is less than "
                                 "the sum of its parts, 9.9 s (write patterns 4.5 s + rewrite "
                                 "patterns 0.9 s + read patterns 4.5 s)") == 0);
}
