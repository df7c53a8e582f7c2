#pragma once
// Validation of worker result documents: a JSON Schema (draft 2020-12) validator for the subset
// of keywords the result contract uses, driven by schema/result.schema.json itself, and the
// semantic checks a JSON Schema cannot express.
//
// Problems are reported as "at <JSON pointer>: <message>", the pointer naming the offending value
// in the document ("(root)" for the document itself), e.g.
//   at /summary/0/unit: expected string, got number
//   at /validity/valid: missing required property
//   at /extra: unexpected property
#include <nlohmann/json.hpp>

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace pbench::ingest {

/// Strings longer than this (in bytes) are not matched against a `pattern` but reported as too
/// long: std::regex matching recurses once per character and would overflow the stack.
inline constexpr std::size_t kMaxPatternSubjectBytes = 1024;

/// A compiled schema. Supported keywords: type, properties, required, additionalProperties,
/// items, enum, const, minimum, maximum, minLength, minItems, maxItems, pattern, $ref (only
/// "#/$defs/NAME"), $defs (only at the root); $schema (only draft 2020-12), $id (only at the
/// root), title and description are annotations. Boolean schemas (true, false) are supported.
/// A value of the wrong type gets only the type message, not those of the other keywords.
class SchemaValidator {
 public:
  /// Compiles a schema; throws pbench::ValidationError naming any keyword this validator does
  /// not implement, a malformed keyword value or an unresolvable $ref, with its schema location
  /// (e.g. "schema #/properties/x: unsupported keyword \"oneOf\"").
  explicit SchemaValidator(nlohmann::json schema);

  /// The problems of `document`, each "at <JSON pointer>: <message>"; empty when valid.
  std::vector<std::string> validate(const nlohmann::json& document) const;

 private:
  struct Compiled;
  std::shared_ptr<const Compiled> compiled_;
};

/// The validator for the embedded result schema (compiled once, on first use).
const SchemaValidator& result_schema_validator();

/// The rules of the result contract beyond its JSON Schema, each problem "at <pointer>: ...":
/// every row has one value per column of its table, column names are unique within a table,
/// ended_at is not before started_at, and no two summary metrics share name and labels. Meant
/// for schema-valid documents; parts not shaped as the schema says are skipped.
std::vector<std::string> check_result_semantics(const nlohmann::json& doc);

}  // namespace pbench::ingest
