// The result contract's validator: each supported JSON Schema keyword accepts and rejects,
// unsupported keywords are refused when the schema is compiled, problems name their JSON
// pointer, the embedded schema is the file on disk, and the sample documents under
// tests/data/results/ get exactly the expected verdicts and messages.
#include <doctest/doctest.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <ostream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "ingest/SchemaValidator.hpp"
#include "pbench_schema.hpp"
#include "util/Error.hpp"

using nlohmann::json;
using pbench::ValidationError;
using pbench::ingest::check_result_semantics;
using pbench::ingest::result_schema_validator;
using pbench::ingest::SchemaValidator;

namespace {

/// A list of problems that doctest prints when a check fails.
struct Problems : std::vector<std::string> {
  using std::vector<std::string>::vector;
  Problems(std::vector<std::string> v) : std::vector<std::string>(std::move(v)) {}
};

std::ostream& operator<<(std::ostream& out, const Problems& problems) {
  out << "{";
  for (const auto& p : problems) out << "\n  " << p;
  return out << (problems.empty() ? "}" : "\n}");
}

Problems check(const char* schema, const json& document) {
  return SchemaValidator(json::parse(schema)).validate(document);
}

/// The message of the ValidationError that compiling `schema` throws ("" when none).
std::string refusal(const char* schema) {
  try {
    SchemaValidator validator(json::parse(schema));
  } catch (const ValidationError& e) {
    return e.what();
  }
  return "";
}

std::string read_text(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  REQUIRE_MESSAGE(in, "cannot read " << path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

const std::filesystem::path kSamples =
    std::filesystem::path(PBENCH_SOURCE_DIR) / "tests" / "data" / "results";

/// The sample files of one folder, by file name.
std::map<std::string, json> samples(const std::string& folder) {
  std::map<std::string, json> out;
  for (const auto& entry : std::filesystem::directory_iterator(kSamples / folder)) {
    if (entry.path().extension() == ".json") {
      out.emplace(entry.path().filename().string(), json::parse(read_text(entry.path())));
    }
  }
  return out;
}

}  // namespace

TEST_CASE("schema type: one name or several, integer includes integral floats") {
  CHECK(check(R"({"type": "string"})", "x").empty());
  CHECK(check(R"({"type": "string"})", 5) == Problems{"at (root): expected string, got number"});
  CHECK(check(R"({"type": "integer"})", 3).empty());
  CHECK(check(R"({"type": "integer"})", 1.0).empty());
  CHECK(check(R"({"type": "integer"})", -7.0).empty());
  CHECK(check(R"({"type": "integer"})", 1.5) ==
        Problems{"at (root): expected integer, got number"});
  CHECK(check(R"({"type": "integer"})", true) ==
        Problems{"at (root): expected integer, got boolean"});
  CHECK(check(R"({"type": "number"})", 1.5).empty());
  CHECK(check(R"({"type": "number"})", 2U).empty());
  CHECK(check(R"({"type": "number"})", false) ==
        Problems{"at (root): expected number, got boolean"});
  CHECK(check(R"({"type": "null"})", nullptr).empty());
  CHECK(check(R"({"type": "boolean"})", 0) == Problems{"at (root): expected boolean, got number"});
  CHECK(check(R"({"type": "object"})", json::array()) ==
        Problems{"at (root): expected object, got array"});
  CHECK(check(R"({"type": "array"})", json::object()) ==
        Problems{"at (root): expected array, got object"});
  CHECK(check(R"({"type": ["integer", "string"]})", "a").empty());
  CHECK(check(R"({"type": ["integer", "string"]})", 4).empty());
  CHECK(check(R"({"type": ["integer", "string"]})", 4.5) ==
        Problems{"at (root): expected integer or string, got number"});
  CHECK(check(R"({"type": ["number", "string", "boolean", "null"]})", json::array()) ==
        Problems{"at (root): expected number, string, boolean or null, got array"});
}

TEST_CASE("schema type: a wrong type gets only the type message") {
  CHECK(check(R"({"type": "string", "enum": ["a"], "minLength": 3})", 5) ==
        Problems{"at (root): expected string, got number"});
}

TEST_CASE("schema properties, required and additionalProperties") {
  const char* schema = R"({
    "type": "object",
    "required": ["a", "b"],
    "properties": {"a": {"type": "integer"}, "b": {}},
    "additionalProperties": false
  })";
  CHECK(check(schema, json{{"a", 1}, {"b", "anything"}}).empty());
  CHECK(check(schema, json{{"a", "1"}, {"b", nullptr}}) ==
        Problems{"at /a: expected integer, got string"});
  CHECK(check(schema, json{{"b", 1}}) == Problems{"at /a: missing required property"});
  CHECK(check(schema, json::object()) ==
        Problems{"at /a: missing required property", "at /b: missing required property"});
  CHECK(check(schema, json{{"a", 1}, {"b", 2}, {"c", 3}}) ==
        Problems{"at /c: unexpected property"});
  // Keywords for objects do not apply to other types.
  CHECK(check(R"({"required": ["a"], "additionalProperties": false})", 5).empty());

  const char* open_map = R"({"additionalProperties": {"type": "integer", "minimum": 0}})";
  CHECK(check(open_map, json{{"x", 1}, {"y", 0}}).empty());
  CHECK(check(open_map, json{{"x", 1}, {"y", -1}}) == Problems{"at /y: expected >= 0, got -1"});
  CHECK(check(R"({"additionalProperties": true})", json{{"x", 1}}).empty());
  // Without additionalProperties, other properties are allowed.
  CHECK(check(R"({"properties": {"a": {"type": "string"}}})", json{{"z", 1}}).empty());
}

TEST_CASE("schema items applies to every element") {
  const char* schema = R"({"type": "array", "items": {"type": "string"}})";
  CHECK(check(schema, json::array()).empty());
  CHECK(check(schema, json{"a", "b"}).empty());
  CHECK(check(schema, json{"a", 2, "c", true}) ==
        Problems{"at /1: expected string, got number", "at /3: expected string, got boolean"});
  CHECK(check(R"({"items": false})", json{1}) == Problems{"at /0: no value is allowed here"});
  CHECK(check(R"({"items": false})", json::array()).empty());
}

TEST_CASE("schema enum and const compare JSON values, numbers by value") {
  CHECK(check(R"({"enum": ["a", 1, null]})", "a").empty());
  CHECK(check(R"({"enum": ["a", 1, null]})", 1.0).empty());
  CHECK(check(R"({"enum": ["a", 1, null]})", nullptr).empty());
  CHECK(check(R"({"enum": ["a", 1, null]})", "b") ==
        Problems{R"(at (root): expected one of ["a",1,null], got "b")"});
  CHECK(check(R"({"enum": [1]})", true) == Problems{"at (root): expected one of [1], got true"});
  CHECK(check(R"({"const": 1})", 1).empty());
  CHECK(check(R"({"const": 1})", 1.0).empty());
  CHECK(check(R"({"const": 1})", 2) == Problems{"at (root): expected 1, got 2"});
  CHECK(check(R"({"const": 1})", "1") == Problems{R"(at (root): expected 1, got "1")"});
  CHECK(check(R"({"const": {"a": [1, 2]}})", json{{"a", {1, 2}}}).empty());
  CHECK(check(R"({"const": {"a": [1, 2]}})", json{{"a", {2, 1}}}) ==
        Problems{R"(at (root): expected {"a":[1,2]}, got {"a":[2,1]})"});
}

TEST_CASE("schema minimum and maximum are inclusive and exact for large integers") {
  const char* schema = R"({"minimum": 1, "maximum": 10.5})";
  CHECK(check(schema, 1).empty());
  CHECK(check(schema, 10.5).empty());
  CHECK(check(schema, 0) == Problems{"at (root): expected >= 1, got 0"});
  CHECK(check(schema, 0.5) == Problems{"at (root): expected >= 1, got 0.5"});
  CHECK(check(schema, 11) == Problems{"at (root): expected <= 10.5, got 11"});
  CHECK(check(schema, "0").empty());  // applies to numbers only
  CHECK(check(R"({"minimum": 0})", 18446744073709551615U).empty());
  CHECK(check(R"({"maximum": 9223372036854775807})", 9223372036854775807).empty());
  CHECK(check(R"({"maximum": 9223372036854775806})", 9223372036854775807) ==
        Problems{"at (root): expected <= 9223372036854775806, got 9223372036854775807"});
  CHECK(check(R"({"minimum": -1})", -9223372036854775807 - 1) ==
        Problems{"at (root): expected >= -1, got -9223372036854775808"});
}

TEST_CASE("schema minLength counts characters, not bytes") {
  CHECK(check(R"({"minLength": 2})", "ab").empty());
  CHECK(check(R"({"minLength": 2})", "\xC3\xA9\xC3\xA9").empty());  // two e-acute
  CHECK(check(R"({"minLength": 2})", "\xC3\xA9") ==
        Problems{"at (root): expected length >= 2, got 1"});
  CHECK(check(R"({"minLength": 1})", "") == Problems{"at (root): expected length >= 1, got 0"});
  CHECK(check(R"({"minLength": 1})", 5).empty());
}

TEST_CASE("schema minItems and maxItems") {
  const char* schema = R"({"minItems": 1, "maxItems": 2})";
  CHECK(check(schema, json{1}).empty());
  CHECK(check(schema, json{1, 2}).empty());
  CHECK(check(schema, json::array()) == Problems{"at (root): expected >= 1 items, got 0"});
  CHECK(check(schema, json{1, 2, 3}) == Problems{"at (root): expected <= 2 items, got 3"});
  CHECK(check(schema, "not an array").empty());
}

TEST_CASE("schema pattern is an unanchored ECMAScript search") {
  CHECK(check(R"({"pattern": "b+"})", "abbc").empty());
  CHECK(check(R"({"pattern": "b+"})", "ac") ==
        Problems{R"(at (root): expected to match pattern b+, got "ac")"});
  const char* name = R"({"pattern": "^[a-z][a-z0-9_]*$"})";
  CHECK(check(name, "round_trip2").empty());
  CHECK(check(name, "Round_trip").size() == 1);
  CHECK(check(name, "2x").size() == 1);
  // $ matches only at the very end (Python's re.search would accept the trailing newline).
  CHECK(check(name, "name\n").size() == 1);
  CHECK(check(name, 5).empty());
}

TEST_CASE("schema pattern refuses strings too long to match safely instead of crashing") {
  const std::string long_name(100000, 'a');
  CHECK(check(R"({"pattern": "^[a-z]*$"})", long_name) ==
        Problems{"at (root): string of 100000 bytes is too long to match pattern ^[a-z]*$"});
  const std::string limit(pbench::ingest::kMaxPatternSubjectBytes, 'a');
  CHECK(check(R"({"pattern": "^[a-z]*$"})", limit).empty());
}

TEST_CASE("schema $ref to $defs, with siblings and recursion") {
  const char* schema = R"({
    "$defs": {
      "name": {"type": "string", "pattern": "^[a-z]+$"},
      "tree": {"type": "object", "properties": {"kids": {"items": {"$ref": "#/$defs/tree"}},
                                               "name": {"$ref": "#/$defs/name"}}},
      "a/b~c": {"const": 3}
    },
    "properties": {
      "root": {"$ref": "#/$defs/tree"},
      "short": {"$ref": "#/$defs/name", "minLength": 2},
      "escaped": {"$ref": "#/$defs/a~1b~0c"}
    }
  })";
  CHECK(check(schema, json::parse(R"({"root": {"name": "x", "kids": [{"kids": [{"name": "y"}]}]},
                                      "short": "ab", "escaped": 3})"))
            .empty());
  CHECK(check(schema, json::parse(R"({"root": {"kids": [{"kids": [{"name": "Y"}]}]}})")) ==
        Problems{R"(at /root/kids/0/kids/0/name: expected to match pattern ^[a-z]+$, got "Y")"});
  CHECK(check(schema, json{{"short", "a"}}) == Problems{"at /short: expected length >= 2, got 1"});
  CHECK(check(schema, json{{"short", "AB"}}) ==
        Problems{"at /short: expected to match pattern ^[a-z]+$, got \"AB\""});
  CHECK(check(schema, json{{"escaped", 4}}) == Problems{"at /escaped: expected 3, got 4"});
}

TEST_CASE("schema boolean schemas and annotations") {
  CHECK(check("true", json{{"any", "thing"}}).empty());
  CHECK(check("false", 1) == Problems{"at (root): no value is allowed here"});
  CHECK(check(R"({"$schema": "https://json-schema.org/draft/2020-12/schema", "$id": "urn:x",
                  "title": "t", "description": "d", "properties": {"a": {"title": "a"}}})",
              json{{"a", 1}})
            .empty());
}

TEST_CASE("schema problems name the JSON pointer, escaped as RFC 6901 says") {
  const char* schema = R"({"properties": {"summary": {"items": {"properties": {
                            "unit": {"type": "string"}}}}},
                          "additionalProperties": {"type": "integer"}})";
  CHECK(check(schema, json::parse(R"({"summary": [{"unit": "s"}, {"unit": 5}]})")) ==
        Problems{"at /summary/1/unit: expected string, got number"});
  CHECK(check(schema, json{{"a/b~c", "x"}}) ==
        Problems{"at /a~1b~0c: expected integer, got string"});
}

TEST_CASE("schema keywords the validator does not implement are refused at construction") {
  CHECK(refusal(R"({"oneOf": [true]})") == R"(schema #: unsupported keyword "oneOf")");
  CHECK(refusal(R"({"properties": {"x": {"format": "date-time"}}})") ==
        R"(schema #/properties/x: unsupported keyword "format")");
  CHECK(refusal(R"({"items": {"uniqueItems": true}})") ==
        R"(schema #/items: unsupported keyword "uniqueItems")");
  CHECK(refusal(R"({"$defs": {"a": {"patternProperties": {}}}})") ==
        R"(schema #/$defs/a: unsupported keyword "patternProperties")");
  CHECK(refusal(R"({"additionalProperties": {"exclusiveMinimum": 0}})") ==
        R"(schema #/additionalProperties: unsupported keyword "exclusiveMinimum")");
  CHECK(refusal(R"({"definitions": {}})") == R"(schema #: unsupported keyword "definitions")");
  CHECK(refusal(R"({"items": [{"type": "string"}]})") ==
        "schema #/items: the array form is not supported (draft 2020-12)");
  CHECK(refusal(R"({"properties": {"x": {"$defs": {}}}})") ==
        "schema #/properties/x/$defs: $defs is supported only at the root");
  CHECK(refusal(R"({"properties": {"x": {"$id": "urn:y"}}})") ==
        "schema #/properties/x/$id: $id is supported only at the root");
  CHECK(refusal(R"({"$schema": "http://json-schema.org/draft-07/schema#"})") ==
        "schema #/$schema: only https://json-schema.org/draft/2020-12/schema is supported");
}

TEST_CASE("schema malformed keyword values and unresolvable references are refused") {
  CHECK(
      refusal(R"({"$ref": "#/definitions/a"})") ==
      R"(schema #/$ref: only references of the form "#/$defs/NAME" are supported, got "#/definitions/a")");
  CHECK(refusal(R"({"$ref": "#/$defs/missing", "$defs": {}})") ==
        R"(schema #/$ref: no definition for "#/$defs/missing")");
  CHECK(refusal(R"({"type": "float"})") == R"(schema #/type: unknown type "float")");
  CHECK(refusal(R"({"type": ["string", "string"]})") ==
        R"(schema #/type: duplicate type "string")");
  CHECK(refusal(R"({"type": []})") ==
        "schema #/type: expected a type name or a non-empty array of them");
  CHECK(refusal(R"({"required": "a"})") == "schema #/required: expected an array of strings");
  CHECK(refusal(R"({"minLength": -1})") == "schema #/minLength: expected a non-negative integer");
  CHECK(refusal(R"({"minItems": 1.5})") == "schema #/minItems: expected a non-negative integer");
  CHECK(refusal(R"({"minimum": "1"})") == "schema #/minimum: expected a number");
  CHECK(refusal(R"({"enum": "a"})") == "schema #/enum: expected an array");
  CHECK(refusal(R"({"properties": {"a": 1}})") ==
        "schema #/properties/a: expected an object or a boolean, got number");
  CHECK(refusal(R"({"pattern": "("})").rfind("schema #/pattern: invalid regular expression: ", 0) ==
        0);
  CHECK(refusal(R"({"minItems": 1.0, "type": "array"})").empty());
}

TEST_CASE("schema: the embedded result schema is schema/result.schema.json and compiles") {
  const std::string on_disk =
      read_text(std::filesystem::path(PBENCH_SOURCE_DIR) / "schema" / "result.schema.json");
  CHECK(std::string(pbench::schema::result_schema_json()) == on_disk);
  CHECK_NOTHROW(result_schema_validator());
  CHECK(&result_schema_validator() == &result_schema_validator());
}

TEST_CASE("result schema: the good samples are valid and pass the semantic checks") {
  const auto good = samples("good");
  REQUIRE(good.size() >= 2);
  CHECK(good.count("logp.json") == 1);
  CHECK(good.count("null_metric_value.json") == 1);
  for (const auto& sample : good) {
    // Not a structured binding: doctest captures name in a lambda, which clang 14 refuses.
    const std::string& name = sample.first;
    const json& doc = sample.second;
    INFO(name);
    CHECK(Problems(result_schema_validator().validate(doc)) == Problems{});
    CHECK(Problems(check_result_semantics(doc)) == Problems{});
  }
}

TEST_CASE("result schema: each bad sample breaks exactly the one rule it is named after") {
  const std::map<std::string, Problems> expected{
      {"bad_timestamp.json",
       {R"(at /started_at: expected to match pattern ^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?Z$, got "2026-11-22 07:50:00Z")"}},
      {"column_extra_key.json",
       {"at /measurements/pingpong/columns/0/description: unexpected property"}},
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
      {"not_an_object.json", {"at (root): expected object, got array"}},
      {"nprocs_fractional.json", {"at /nprocs: expected integer, got number"}},
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
       {R"(at /worker: expected one of ["logp","comm","io","bcast"], got "ior")"}},
      {"validity_valid_not_boolean.json", {"at /validity/valid: expected boolean, got string"}},
      {"warning_not_string.json", {"at /warnings/0: expected string, got number"}},
      {"wrong_schema_version.json", {"at /schema_version: expected 1, got 2"}},
  };
  const auto bad = samples("bad");
  REQUIRE(bad.size() >= 10);
  for (const auto& sample : bad) {
    // Not a structured binding: doctest captures name in a lambda, which clang 14 refuses.
    const std::string& name = sample.first;
    const json& doc = sample.second;
    INFO(name);
    REQUIRE_MESSAGE(expected.count(name) == 1, "add the expected message of " << name);
    CHECK(Problems(result_schema_validator().validate(doc)) == expected.at(name));
  }
  CHECK(bad.size() == expected.size());
}

TEST_CASE(
    "result schema semantics: the bad-semantics samples are schema-valid but break one rule") {
  const std::map<std::string, Problems> expected{
      {"duplicate_column_name.json",
       {R"(at /measurements/pingpong/columns/2/name: duplicate column name "round_trip" (first at column 1))"}},
      {"duplicate_metric_integral_float_label.json",
       {R"(at /summary/4: duplicate metric "gap" with labels {"pattern":"blocking","size":8} (first at /summary/3))"}},
      {"duplicate_metric_name_and_labels.json",
       {R"(at /summary/1: duplicate metric "latency" with labels {"size":0} (first at /summary/0))"}},
      {"ended_before_started.json",
       {"at /ended_at: ended_at 2026-11-22T07:50:00.123Z is before started_at "
        "2026-11-22T07:50:00.5Z"}},
      {"ended_before_started_fraction_width.json",
       {"at /ended_at: ended_at 2026-11-22T07:50:00.09999Z is before started_at "
        "2026-11-22T07:50:00.1Z"}},
      {"row_length_mismatch.json", {"at /measurements/pingpong/rows/2: 3 values for 4 columns"}},
  };
  const auto bad = samples("bad-semantics");
  REQUIRE(bad.size() >= 1);
  CHECK(bad.count("row_length_mismatch.json") == 1);
  for (const auto& sample : bad) {
    // Not a structured binding: doctest captures name in a lambda, which clang 14 refuses.
    const std::string& name = sample.first;
    const json& doc = sample.second;
    INFO(name);
    REQUIRE_MESSAGE(expected.count(name) == 1, "add the expected message of " << name);
    CHECK(Problems(result_schema_validator().validate(doc)) == Problems{});
    CHECK(Problems(check_result_semantics(doc)) == expected.at(name));
  }
  CHECK(bad.size() == expected.size());
}

TEST_CASE("result schema semantics: timestamps compare with fractional seconds normalised") {
  auto times = [](const char* started, const char* ended) {
    return check_result_semantics(json{{"started_at", started}, {"ended_at", ended}});
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
}

TEST_CASE(
    "result schema semantics: documents not shaped as the schema says are skipped, not fatal") {
  CHECK(check_result_semantics(json::array()).empty());
  CHECK(check_result_semantics(json{{"measurements", 5}, {"summary", "x"}}).empty());
  CHECK(Problems(check_result_semantics(json::parse(R"({
    "started_at": 1, "ended_at": "not a time",
    "measurements": {"t": {"columns": [{"name": 3}, "c"], "rows": [[1, 2], 7]}, "u": []},
    "summary": [1, {"name": "m"}, {"name": "m", "labels": 5}]
  })"))) ==
        Problems{R"(at /summary/2: duplicate metric "m" with labels {} (first at /summary/1))"});
}
