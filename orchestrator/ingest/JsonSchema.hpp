#pragma once
// A JSON Schema (draft 7) checked by valijson, with valijson's findings reworded for a user: one
// line per problem, "at <JSON pointer>: <what was expected>, got <what is there>" (Problem.hpp),
// e.g.
//   at /nprocs: expected >= 1, got 0
//   at /worker: expected one of ["logp","comm","io","bcast"], got "ior"
//   at /extra: unexpected property
#include <nlohmann/json.hpp>

#include <memory>
#include <string>
#include <vector>

namespace pbench::ingest {

class JsonSchema {
 public:
  /// Compiles a draft 7 schema; throws pbench::ValidationError with valijson's reason when it
  /// cannot (a malformed keyword, an unresolvable $ref).
  explicit JsonSchema(nlohmann::json schema);
  ~JsonSchema();
  JsonSchema(JsonSchema&&) noexcept;
  JsonSchema& operator=(JsonSchema&&) noexcept;

  /// The problems of `document`, each "at <JSON pointer>: <message>", at most one per value (a
  /// value of the wrong type gets only the type message); empty when valid. Safe to call from
  /// several threads at once.
  std::vector<std::string> problems(const nlohmann::json& document) const;

  /// Which compiled form of the schema a yes/no check uses: the schema as written, or the
  /// same constraints with two of its idioms restated as cheaper constraints of pbench's own
  /// (JsonSchema.cpp), the one problems() checks first.
  enum class Form { as_written, fast };

  /// Whether `document` is valid by the schema in `form`; both forms agree on every document
  /// (tests/unit/json_schema_test.cpp checks them against each other). Throws what valijson
  /// throws.
  bool accepts(const nlohmann::json& document, Form form) const;

 private:
  struct Compiled;
  std::unique_ptr<Compiled> compiled_;
};

/// The embedded result schema (schema/result.schema.json), compiled once, on first use.
const JsonSchema& result_schema();
/// The embedded schema of a sweep's record (schema/sweep.schema.json), compiled once.
const JsonSchema& sweep_schema();

}  // namespace pbench::ingest
