// The result contract's schema, checked by valijson (ingest/JsonSchema): the embedded schema is
// the file on disk, the sample documents under tests/data/results/ get exactly the expected
// verdicts and one-line messages naming the JSON pointer and what was expected, and the cases
// draft 7 needs care for (integral floats, long strings under a pattern, escaped pointers).
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "ingest/JsonSchema.hpp"
#include "ingest/ResultRules.hpp"
#include "pbench_schema.hpp"
#include "support/ResultSamples.hpp"
#include "util/Error.hpp"

using nlohmann::json;
using pbench::ValidationError;
using pbench::ingest::JsonSchema;
using pbench::ingest::result_schema;
using pbench::ingest::ResultRules;
using pbench::testing::Problems;
using pbench::testing::read_text;
using pbench::testing::result_samples;

namespace {

Problems check(const char* schema, const json& document) {
  return JsonSchema(json::parse(schema)).problems(document);
}

}  // namespace

TEST_CASE("schema: the embedded result schema is schema/result.schema.json and compiles") {
  const std::string on_disk =
      read_text(std::filesystem::path(PBENCH_SOURCE_DIR) / "schema" / "result.schema.json");
  CHECK(std::string(pbench::schema::result_schema_json()) == on_disk);
  CHECK_NOTHROW(result_schema());
  CHECK(&result_schema() == &result_schema());
}

TEST_CASE("result schema: the good samples are valid and pass the semantic checks") {
  const auto good = result_samples("good");
  REQUIRE(good.size() >= 2);
  CHECK(good.count("logp.json") == 1);
  CHECK(good.count("null_metric_value.json") == 1);
  for (const auto& sample : good) {
    // Not a structured binding: doctest captures name in a lambda, which clang 14 refuses.
    const std::string& name = sample.first;
    const json& doc = sample.second;
    INFO(name);
    CHECK(Problems(result_schema().problems(doc)) == Problems{});
    CHECK(Problems(ResultRules::problems(doc)) == Problems{});
  }
}

TEST_CASE("result schema: each bad sample breaks exactly the one rule it is named after") {
  const std::map<std::string, Problems> expected{
      {"bad_timestamp.json",
       {R"(at /started_at: expected to match pattern ^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?Z$, got "2026-11-22 07:50:00Z")"}},
      {"column_extra_key.json",
       {"at /measurements/pingpong/columns/0/description: unexpected property"}},
      {"cost_negative_loops.json", {"at /cost/loops: expected >= 0, got -1"}},
      {"empty_hosts.json", {"at /hosts: expected >= 1 items, got 0"}},
      {"empty_worker_version.json", {"at /worker_version: expected length >= 1, got 0"}},
      {"extra_top_level_key.json", {"at /comment: unexpected property"}},
      {"label_value_boolean.json",
       {"at /summary/0/labels/eager: expected integer or string, got boolean"}},
      {"metric_missing_samples.json", {"at /summary/2/samples: missing required property"}},
      {"metric_name_with_capitals.json",
       {R"(at /summary/0/name: expected to match pattern ^[a-z][a-z0-9_]*$, got "Latency")"}},
      {"metric_value_string.json", {"at /summary/1/value: expected number or null, got string"}},
      {"missing_field_warnings.json", {"at /warnings: missing required property"}},
      {"negative_seed.json", {"at /seeds/shuffle: expected >= 0, got -1"}},
      {"node_cores_zero_cores.json", {"at /node_cores/1/cores: expected >= 1, got 0"}},
      {"not_an_object.json", {"at (root): expected object, got array"}},
      {"nprocs_fractional.json", {"at /nprocs: expected integer, got 2.5"}},
      {"nprocs_zero.json", {"at /nprocs: expected >= 1, got 0"}},
      {"parameter_bad_source.json",
       {R"(at /parameters/sizes/source: expected one of ["default","environment","command_line"], got "config_file")"}},
      {"rank_hosts_empty_name.json", {"at /rank_hosts/1: expected length >= 1, got 0"}},
      {"row_value_wrong_type.json",
       {"at /measurements/pingpong/rows/1/2: expected number, string, boolean or null, got "
        "array"}},
      {"table_without_columns.json",
       {"at /measurements/pingpong/columns: expected >= 1 items, got 0"}},
      {"unknown_worker.json",
       {R"(at /worker: expected one of ["logp","comm","io","bcast","links"], got "ior")"}},
      {"validity_valid_not_boolean.json", {"at /validity/valid: expected boolean, got string"}},
      {"warning_not_string.json", {"at /warnings/0: expected string, got number"}},
      {"wrong_schema_version.json", {"at /schema_version: expected 1, got 2"}},
  };
  const auto bad = result_samples("bad");
  REQUIRE(bad.size() >= 10);
  for (const auto& sample : bad) {
    // Not a structured binding: doctest captures name in a lambda, which clang 14 refuses.
    const std::string& name = sample.first;
    const json& doc = sample.second;
    INFO(name);
    REQUIRE_MESSAGE(expected.count(name) == 1, "add the expected message of " << name);
    CHECK(Problems(result_schema().problems(doc)) == expected.at(name));
  }
  CHECK(bad.size() == expected.size());
}

namespace {

/// A good sample with one value replaced (JSON pointer `at`), or removed when `value` is unset.
json good_with(const char* at, const json& value) {
  json doc = result_samples("good").at("logp.json");
  doc[json::json_pointer(at)] = value;
  return doc;
}

}  // namespace

TEST_CASE("result schema: an integer may be written 4.0, but not 4.5 or \"4\"") {
  CHECK(Problems(result_schema().problems(good_with("/nprocs", 4.0))) == Problems{});
  CHECK(Problems(result_schema().problems(good_with("/summary/0/samples", 1e6))) == Problems{});
  CHECK(Problems(result_schema().problems(good_with("/nprocs", 4.5))) ==
        Problems{"at /nprocs: expected integer, got 4.5"});
  // A wrong type gets only the type message, not also those of multipleOf and minimum.
  CHECK(Problems(result_schema().problems(good_with("/nprocs", "4"))) ==
        Problems{"at /nprocs: expected integer, got string"});
  // One problem per value: the first that valijson finds.
  CHECK(Problems(result_schema().problems(good_with("/nprocs", -1.5))) ==
        Problems{"at /nprocs: expected >= 1, got -1.5"});
  CHECK(Problems(result_schema().problems(good_with("/summary/0/labels/q", 2.0))) == Problems{});
  CHECK(Problems(result_schema().problems(good_with("/summary/0/labels/q", "0.5"))) == Problems{});
  CHECK(Problems(result_schema().problems(good_with("/summary/0/labels/q", 0.5))) ==
        Problems{"at /summary/0/labels/q: expected integer, got 0.5"});
  CHECK(Problems(result_schema().problems(good_with("/summary/0/labels/q", json::array()))) ==
        Problems{"at /summary/0/labels/q: expected integer or string, got array"});
}

TEST_CASE("result schema: a 64-bit seed above INT64_MAX is a valid non-negative integer") {
  // valijson's adapter reads such an unsigned value as a negative signed one; pbench-io draws
  // its consortium seeds from all 64 bits.
  CHECK(Problems(result_schema().problems(
            good_with("/seeds/shuffle", std::uint64_t{18446744073709551615ULL}))) == Problems{});
  CHECK(Problems(result_schema().problems(
            good_with("/seeds/shuffle", std::uint64_t{13664932655501856264ULL}))) == Problems{});
  CHECK(Problems(result_schema().problems(good_with("/seeds/shuffle", -1))) ==
        Problems{"at /seeds/shuffle: expected >= 0, got -1"});
}

TEST_CASE("result schema: a long string under a pattern is refused as too long, not crashed") {
  // std::regex recurses once per character: a megabyte-long name would overflow the stack.
  const std::string long_name(1 << 20, 'a');
  CHECK(Problems(result_schema().problems(good_with("/summary/0/name", long_name))) ==
        Problems{"at /summary/0/name: expected length <= 1024, got 1048576"});
  CHECK(Problems(result_schema().problems(good_with("/started_at", long_name))) ==
        Problems{"at /started_at: expected length <= 1024, got 1048576"});
  CHECK(Problems(result_schema().problems(good_with("/summary/0/name", std::string(1024, 'a')))) ==
        Problems{});
}

TEST_CASE("result schema: problems name the JSON pointer, escaped as RFC 6901 says") {
  CHECK(Problems(result_schema().problems(good_with("/a~1b~0c", 1))) ==
        Problems{"at /a~1b~0c: unexpected property"});
  CHECK(Problems(result_schema().problems(good_with("/seeds/x~1y", -1))) ==
        Problems{"at /seeds/x~1y: expected >= 0, got -1"});
  json doc = result_samples("good").at("logp.json");
  doc["validity"].erase("reasons");
  CHECK(Problems(result_schema().problems(doc)) ==
        Problems{"at /validity/reasons: missing required property"});
  CHECK(Problems(result_schema().problems(json::array())) ==
        Problems{"at (root): expected object, got array"});
}

TEST_CASE("result schema: schema_version 1 may be written 1.0, and every problem is reported") {
  CHECK(Problems(result_schema().problems(good_with("/schema_version", 1.0))) == Problems{});
  json doc = good_with("/nprocs", 0);
  doc["worker"] = "ior";
  doc.erase("warnings");
  CHECK(Problems(result_schema().problems(doc)).size() == 3);
}

TEST_CASE("schema: a schema valijson cannot compile is refused with its reason") {
  CHECK_THROWS_AS(JsonSchema(json::parse(R"({"$ref": "#/definitions/missing"})")), ValidationError);
  CHECK_THROWS_AS(JsonSchema(json::parse(R"({"minLength": "three"})")), ValidationError);
  CHECK(check(R"({"type": "string", "minLength": 2})", "a") ==
        Problems{"at (root): expected length >= 2, got 1"});
}

namespace {

/// Every JSON pointer of `value`, the document itself included; of a table's rows only the
/// first two and the last (the others are alike).
void pointers(const json& value, const json::json_pointer& at,
              std::vector<json::json_pointer>& out) {
  out.push_back(at);
  if (value.is_object()) {
    for (const auto& [key, item] : value.items()) pointers(item, at / key, out);
  } else if (value.is_array()) {
    const bool rows = !at.empty() && at.back() == "rows";
    for (std::size_t i = 0; i < value.size(); ++i) {
      if (rows && i >= 2 && i + 1 < value.size()) continue;
      pointers(value[i], at / i, out);
    }
  }
}

/// Values of every JSON type, and the edges of the result schema's constraints: integral and
/// fractional numbers, empty, long and pattern-breaking strings, nested arrays and objects.
std::vector<json> probes() {
  return {nullptr,
          true,
          0,
          -1,
          1.5,
          4.0,
          std::uint64_t{18446744073709551615ULL},
          "",
          "a",
          "Latency",
          "bad name",
          "2026-11-22T07:50:00Z",
          "2026-11-22 07:50:00Z",
          std::string(1024, 'a'),
          std::string(1024, 'A'),
          std::string(1025, 'a'),
          std::string(1025, 'A'),
          std::string("a\0B", 3),
          json::array(),
          json::array({1, "a", nullptr, true}),
          json::array({json::array()}),
          json::array({json::object()}),
          json::array({"x", 2}),
          json::object(),
          json::object({{"a", 1}})};
}

}  // namespace

TEST_CASE("result schema: the fast form accepts exactly what the schema as written accepts") {
  // problems() checks a document on a form of the schema with two idioms restated as pbench's
  // own constraints ("items" of only a "type"; "if" maxLength "then" pattern). Each good sample
  // with each value replaced by each probe, or removed, and each value of each probe appended
  // to each array, gets the same verdict from both forms.
  const JsonSchema::Form as_written = JsonSchema::Form::as_written;
  const JsonSchema::Form fast = JsonSchema::Form::fast;
  std::size_t accepted = 0;
  std::size_t refused = 0;
  auto compare = [&](const json& doc, const std::string& what) {
    const bool expected = result_schema().accepts(doc, as_written);
    const bool got = result_schema().accepts(doc, fast);
    if (expected != got) FAIL_CHECK(what << ": as written " << expected << ", fast " << got);
    ++(expected ? accepted : refused);
  };
  const auto good = result_samples("good");
  for (const auto& sample : good) {
    const json& doc = sample.second;
    compare(doc, sample.first);
    std::vector<json::json_pointer> at;
    pointers(doc, json::json_pointer(), at);
    for (const auto& pointer : at) {
      const std::string where = sample.first + " at " + pointer.to_string();
      for (const auto& probe : probes()) {
        json changed = doc;
        changed[pointer] = probe;
        compare(changed, where + " = " + probe.dump().substr(0, 40));
        if (doc.at(pointer).is_array()) {
          json appended = doc;
          appended[pointer].push_back(probe);
          compare(appended, where + " + " + probe.dump().substr(0, 40));
        }
      }
      if (!pointer.empty() && doc.at(pointer.parent_pointer()).is_object()) {
        json removed = doc;
        removed.at(pointer.parent_pointer()).erase(pointer.back());
        compare(removed, where + " removed");
      }
    }
  }
  for (const auto& sample : result_samples("bad")) compare(sample.second, sample.first);
  // Both verdicts occur, many times: the comparison is not vacuous.
  CHECK(accepted > 1000);
  CHECK(refused > 1000);
}

TEST_CASE("schema: the restated idioms keep their meaning in any schema") {
  auto both = [](const char* schema, const json& document) {
    const JsonSchema compiled(json::parse(schema));
    const bool as_written = compiled.accepts(document, JsonSchema::Form::as_written);
    CHECK(compiled.accepts(document, JsonSchema::Form::fast) == as_written);
    return as_written;
  };
  const char* integers = R"({"type": "array", "items": {"type": "integer"}})";
  CHECK(both(integers, json::parse("[1, 2, -3]")));
  CHECK_FALSE(both(integers, json::parse("[1, 2.0]")));  // valijson's strong types
  CHECK_FALSE(both(integers, json::parse(R"([1, "2"])")));
  CHECK_FALSE(both(integers, json::object()));
  CHECK(both(R"({"items": {"type": "integer"}})", json::object()));  // "items" lets it pass
  // Nested, as a table's rows: the inner items are checked on the items that are arrays.
  const char* rows = R"({"items": {"type": ["array", "null"], "items": {"type": "number"}}})";
  CHECK(both(rows, json::parse("[[1, 2.5], [], null, [3]]")));
  CHECK_FALSE(both(rows, json::parse(R"([[1, 2], [3, "4"]])")));
  CHECK_FALSE(both(rows, json::parse("[[1], 5]")));
  CHECK_FALSE(both(rows, json::parse("[[[1]]]")));
  CHECK(check(rows, json::parse(R"([[1, "a"], true])")) ==
        Problems{"at /0/1: expected number, got string",
                 "at /1: expected array or null, got boolean"});
  const char* containers = R"({"items": {"type": ["array", "object"]}})";
  CHECK(both(containers, json::parse("[[], {}]")));
  CHECK_FALSE(both(containers, json::parse("[[], null]")));
  // A guarded pattern: checked on strings of at most 3 code points, searched, not anchored.
  const char* guarded = R"({"if": {"maxLength": 3}, "then": {"pattern": "b"}})";
  CHECK(both(guarded, "abc"));
  CHECK_FALSE(both(guarded, "acd"));
  CHECK(both(guarded, "acde"));                     // too long to be checked
  CHECK_FALSE(both(guarded, "\xC3\xA9\xC3\xA9x"));  // three code points, six bytes
  CHECK(both(guarded, 7));
  CHECK(both(guarded, json::array({"x"})));
  // Not the idioms: compiled as written in both forms.
  CHECK_FALSE(both(R"({"items": {"type": "string", "minLength": 2}})", json::array({"a"})));
  CHECK_FALSE(both(R"({"if": {"maxLength": 3}, "then": {"pattern": "b"}, "else": false})", "acde"));
  CHECK(check(R"({"items": {"type": "string"}})", json::array({"a", 2, "b", nullptr})) ==
        Problems{"at /1: expected string, got number", "at /3: expected string, got null"});
}
