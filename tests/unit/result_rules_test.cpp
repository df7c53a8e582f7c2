// The rules of the result contract beyond its JSON Schema (ingest/ResultRules): the
// bad-semantics samples are schema-valid but each breaks one rule, with the expected message.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <map>
#include <string>
#include <vector>

#include "ingest/JsonSchema.hpp"
#include "ingest/ResultRules.hpp"
#include "support/ResultSamples.hpp"

using nlohmann::json;
using pbench::ingest::result_schema;
using pbench::ingest::ResultRules;
using pbench::testing::Problems;
using pbench::testing::result_samples;

TEST_CASE(
    "result schema semantics: the bad-semantics samples are schema-valid but break one rule") {
  const std::map<std::string, Problems> expected{
      {"duplicate_column_name.json",
       {R"(at /measurements/pingpong/columns/2/name: duplicate column name "round_trip" (first at column 1))"}},
      {"duplicate_metric_integral_float_label.json",
       {R"(at /summary/4: duplicate metric "g" with labels {"pattern":"blocking","size":8} (first at /summary/3))"}},
      {"duplicate_metric_name_and_labels.json",
       {R"(at /summary/1: duplicate metric "eel_median" with labels {"size":0} (first at /summary/0))"}},
      {"ended_before_started.json",
       {"at /ended_at: ended_at 2026-11-22T07:50:00.123Z is before started_at "
        "2026-11-22T07:50:00.5Z"}},
      {"ended_before_started_fraction_width.json",
       {"at /ended_at: ended_at 2026-11-22T07:50:00.09999Z is before started_at "
        "2026-11-22T07:50:00.1Z"}},
      {"row_length_mismatch.json", {"at /measurements/pingpong/rows/2: 3 values for 4 columns"}},
  };
  const auto bad = result_samples("bad-semantics");
  REQUIRE(bad.size() >= 1);
  CHECK(bad.count("row_length_mismatch.json") == 1);
  for (const auto& sample : bad) {
    // Not a structured binding: doctest captures name in a lambda, which clang 14 refuses.
    const std::string& name = sample.first;
    const json& doc = sample.second;
    INFO(name);
    REQUIRE_MESSAGE(expected.count(name) == 1, "add the expected message of " << name);
    CHECK(Problems(result_schema().problems(doc)) == Problems{});
    CHECK(Problems(ResultRules::problems(doc)) == expected.at(name));
  }
  CHECK(bad.size() == expected.size());
}

TEST_CASE("result schema semantics: timestamps compare with fractional seconds normalised") {
  auto times = [](const char* started, const char* ended) {
    return ResultRules::problems(json{{"started_at", started}, {"ended_at", ended}});
  };
  CHECK(times("2026-11-22T07:50:00Z", "2026-11-22T07:50:00Z").empty());
  CHECK(times("2026-11-22T07:50:00Z", "2026-11-22T07:50:00.000Z").empty());
  CHECK(times("2026-11-22T07:50:00.000Z", "2026-11-22T07:50:00Z").empty());
  CHECK(times("2026-11-22T07:50:00Z", "2026-11-22T07:50:00.001Z").empty());
  CHECK(times("2026-11-22T07:50:00.5Z", "2026-11-22T07:50:00.50Z").empty());
  CHECK(times("2026-11-22T07:50:00.9Z", "2026-11-22T07:50:01Z").empty());
  CHECK(times("2026-11-22T07:50:00.001Z", "2026-11-22T07:50:00Z").size() == 1);
  CHECK(times("2026-11-22T07:50:01Z", "2026-11-22T07:50:00.999Z").size() == 1);
  CHECK(times("2026-11-23T00:00:00Z", "2026-11-22T23:59:59.9Z").size() == 1);
  // What is not a timestamp (the schema refuses it) is not compared: each of these, as ended_at,
  // would be "before" the started_at if it were read as one.
  for (const char* not_a_time :
       {"2026-11-22T07:50:00", "2026-11-22T07:50:00.Z", "2026-11-22T07:50:00.5",
        "2026-11-22 07:50:00Z", "2026-11-22T07:50:0Z", "2026-11-22T07:50:00ZZ",
        "2026-11-22T07:50:00.5Zx", "2026-11-22T07:5a:00Z", "2026-11-22T07:50:00,5Z",
        "x2026-11-22T07:50:00Z", "", "Z"}) {
    INFO(not_a_time);
    CHECK(times("2999-01-01T00:00:00Z", not_a_time).empty());
  }
  CHECK(times("2999-01-01T00:00:00Z", "2026-11-22T07:50:00.5Z").size() == 1);
  const std::string long_fraction =
      "2026-11-22T07:50:00." + std::string(1000, '1') + "Z";  // 1,021 bytes
  CHECK(times("2999-01-01T00:00:00Z", long_fraction.c_str()).size() == 1);
  const std::string too_long =
      "2026-11-22T07:50:00." + std::string(1010, '1') + "Z";       // 1,031 bytes
  CHECK(times("2999-01-01T00:00:00Z", too_long.c_str()).empty());  // over 1024 bytes
}

TEST_CASE(
    "result schema semantics: documents not shaped as the schema says are skipped, not fatal") {
  CHECK(ResultRules::problems(json::array()).empty());
  CHECK(ResultRules::problems(json{{"measurements", 5}, {"summary", "x"}}).empty());
  CHECK(Problems(ResultRules::problems(json::parse(R"({
    "started_at": 1, "ended_at": "not a time",
    "measurements": {"t": {"columns": [{"name": 3}, "c"], "rows": [[1, 2], 7]}, "u": []},
    "summary": [1, {"name": "m"}, {"name": "m", "labels": 5}]
  })"))) ==
        Problems{R"(at /summary/2: duplicate metric "m" with labels {} (first at /summary/1))"});
}

TEST_CASE("rules: another worker's metrics under a worker's name are one sentence naming both") {
  json doc = {{"worker", "logp"},
              {"summary",
               json::array({{{"name", "b_eff"}, {"unit", "B/s"}},
                            {{"name", "b_ring"}, {"unit", "B/s"}},
                            {{"name", "b_random"}, {"unit", "B/s"}},
                            {{"name", "l_max"}, {"unit", "B"}}})}};
  const auto problems = ResultRules::problems(doc);
  REQUIRE(problems.size() == 1);
  CHECK(problems[0] ==
        "at /worker: it names worker \"logp\", but its metrics (b_eff, b_ring, b_random and 1 "
        "more) are worker \"comm\"'s: not one worker's result");
  // One stray metric is still named on its own line.
  doc["summary"] = json::array({{{"name", "eel"}, {"unit", "s"}}});
  const auto one = ResultRules::problems(doc);
  REQUIRE(one.size() == 1);
  CHECK(one[0].rfind("at /summary/0: unknown metric \"eel\"", 0) == 0);
}
