#include "ingest/JsonSchema.hpp"

#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/validation_results.hpp>
#include <valijson/validator.hpp>

#include <cstddef>
#include <exception>
#include <cstdint>
#include <map>
#include <optional>
#include <string_view>
#include <utility>

#include "ingest/Problem.hpp"
#include "pbench_schema.hpp"
#include "util/Error.hpp"

namespace pbench::ingest {

using nlohmann::json;

struct JsonSchema::Compiled {
  json text;  // the schema as written: what a message says was expected comes from here
  valijson::Schema schema;
};

namespace {

constexpr int kMaxRefHops = 16;

/// The JSON type name of a value, as JSON Schema spells it ("number" for every number).
std::string type_name(const json& value) {
  if (value.is_number()) return "number";
  if (value.is_boolean()) return "boolean";
  return value.type_name();  // null, object, array, string
}

/// Unicode code points in a UTF-8 string (what minLength and maxLength count).
std::size_t code_points(const std::string& s) {
  std::size_t n = 0;
  for (char c : s) {
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++n;
  }
  return n;
}

/// `node` with its "$ref"s (local, "#/...") followed; nullptr when one does not resolve.
const json* dereference(const json& root, const json* node) {
  for (int hop = 0; node != nullptr && node->is_object() && hop < kMaxRefHops; ++hop) {
    const auto ref = node->find("$ref");
    if (ref == node->end() || !ref->is_string()) return node;
    const std::string& target = ref->get_ref<const std::string&>();
    if (target.empty() || target[0] != '#') return nullptr;
    const json::json_pointer pointer(target.substr(1));
    if (!root.contains(pointer)) return nullptr;
    node = &root.at(pointer);
  }
  return node;
}

/// The schema node that governs the value of `document` at `path`, walking properties,
/// additionalProperties and items as the validator did; nullptr when there is none.
const json* governing_schema(const json& root, const json& document,
                             const std::vector<std::string>& path) {
  const json* node = dereference(root, &root);
  const json* value = &document;
  for (const auto& token : path) {
    if (node == nullptr || !node->is_object()) return nullptr;
    if (value->is_object() && value->contains(token)) {
      const auto properties = node->find("properties");
      if (properties != node->end() && properties->contains(token)) {
        node = &(*properties)[token];
      } else if (node->contains("additionalProperties")) {
        node = &(*node)["additionalProperties"];
      } else {
        return nullptr;
      }
      value = &(*value)[token];
    } else if (value->is_array() && node->contains("items")) {
      const std::size_t index = std::stoul(token);
      if (index >= value->size()) return nullptr;
      node = &(*node)["items"];
      value = &(*value)[index];
    } else {
      return nullptr;
    }
    node = dereference(root, node);
  }
  return node;
}

/// A keyword of a schema node, or of its "then" branch (how the result schema guards patterns
/// and integers in unions); nullptr when neither has it.
const json* keyword(const json* node, const char* name) {
  if (node == nullptr || !node->is_object()) return nullptr;
  if (const auto it = node->find(name); it != node->end()) return &*it;
  if (const auto then = node->find("then"); then != node->end() && then->is_object()) {
    if (const auto it = then->find(name); it != then->end()) return &*it;
  }
  return nullptr;
}

/// What a "type" keyword allows, in words: "integer", "number or null", "a, b or c". A number
/// that must be a multiple of 1 is an integer (the draft 7 spelling the result schema uses).
std::string expected_types(const json* node) {
  const json* types = keyword(node, "type");
  if (types == nullptr) return "another type";
  std::vector<std::string> names;
  for (const auto& t : types->is_array() ? *types : json::array({*types})) {
    std::string name = t.is_string() ? t.get<std::string>() : t.dump();
    if (name == "number" && keyword(node, "multipleOf") != nullptr &&
        *keyword(node, "multipleOf") == 1) {
      name = "integer";
    }
    names.push_back(name);
  }
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i) {
    out += (i == 0 ? "" : (i + 1 == names.size() ? " or " : ", ")) + names[i];
  }
  return out;
}

/// The name valijson quotes after `lead` at the end of its message ("... property 'x'.").
std::string quoted_name(const std::string& description, std::string_view lead) {
  const auto first = description.find(lead);
  const auto last = description.rfind('\'');
  if (first == std::string::npos || last < first + lead.size()) return {};
  return description.substr(first + lead.size(), last - first - lead.size());
}

bool starts_with(const std::string& text, std::string_view prefix) {
  return text.rfind(prefix, 0) == 0;
}

/// One valijson finding as a pbench problem: its pointer (the value it is about) and message.
/// valijson words what failed ("Value type not permitted by 'type' constraint."); the schema
/// node governing the value says what was expected.
std::pair<json::json_pointer, std::string> reword(const json& schema, const json& document,
                                                  const valijson::ValidationResults::Error& e) {
  std::vector<std::string> path;
  json::json_pointer at;
  // The context is "<root>", then "[token]" per property name or array index.
  for (std::size_t i = 1; i < e.context.size(); ++i) {
    const std::string& c = e.context[i];
    path.push_back(c.size() >= 2 ? c.substr(1, c.size() - 2) : c);
    at /= path.back();
  }
  const std::string& d = e.description;
  if (starts_with(d, "Missing required property")) {
    return {at / quoted_name(d, "property '"), "missing required property"};
  }
  if (starts_with(d, "Object contains a property that could not be validated")) {
    return {at / quoted_name(d, "constraints: '"), "unexpected property"};
  }
  const json* node = governing_schema(schema, document, path);
  const json* value = document.contains(at) ? &document.at(at) : nullptr;
  if (node == nullptr || value == nullptr) return {at, d};
  auto got = [&] { return ", got " + preview(*value); };
  auto size = [&] {
    return value->is_string() ? code_points(value->get_ref<const std::string&>()) : value->size();
  };
  if (starts_with(d, "Value type not permitted")) {
    return {at, "expected " + expected_types(node) + ", got " + type_name(*value)};
  }
  if (starts_with(d, "Value should be a multiple of") && keyword(node, "multipleOf") &&
      *keyword(node, "multipleOf") == 1) {
    return {at, "expected integer" + got()};
  }
  enum class Got { kValue, kLength, kItems };
  struct Bound {
    const char* prefix;
    const char* keyword;
    const char* relation;
    Got got;
  };
  static constexpr Bound kBounds[] = {
      {"Expected number greater than or equal to", "minimum", ">= ", Got::kValue},
      {"Expected number less than or equal to", "maximum", "<= ", Got::kValue},
      {"String should be no fewer than", "minLength", "length >= ", Got::kLength},
      {"String should be no more than", "maxLength", "length <= ", Got::kLength},
      {"Array should contain no fewer than", "minItems", ">= ", Got::kItems},
      {"Array should contain no more than", "maxItems", "<= ", Got::kItems},
  };
  for (const auto& bound : kBounds) {
    const json* limit = keyword(node, bound.keyword);
    if (!starts_with(d, bound.prefix) || limit == nullptr) continue;
    const std::string expected = "expected " + std::string(bound.relation) + limit->dump();
    switch (bound.got) {
      case Got::kValue:
        return {at, expected + got()};
      case Got::kLength:
        return {at, expected + ", got " + std::to_string(size())};
      case Got::kItems:
        return {at, expected + " items, got " + std::to_string(size())};
    }
  }
  if (starts_with(d, "Failed to match against any enum values") && keyword(node, "enum")) {
    return {at, "expected one of " + keyword(node, "enum")->dump() + got()};
  }
  if (starts_with(d, "Failed to match expected value set by 'const'") && keyword(node, "const")) {
    return {at, "expected " + keyword(node, "const")->dump() + got()};
  }
  if (starts_with(d, "Failed to match regex specified by 'pattern'") && keyword(node, "pattern")) {
    return {at,
            "expected to match pattern " + keyword(node, "pattern")->get<std::string>() + got()};
  }
  return {at, d};
}

}  // namespace

JsonSchema::JsonSchema(json schema) : compiled_(std::make_unique<Compiled>()) {
  compiled_->text = std::move(schema);
  try {
    valijson::SchemaParser parser(valijson::SchemaParser::kDraft7);
    parser.populateSchema(valijson::adapters::NlohmannJsonAdapter(compiled_->text),
                          compiled_->schema);
  } catch (const std::exception& e) {
    throw ValidationError(std::string("JSON schema: ") + e.what());
  }
}

JsonSchema::~JsonSchema() = default;
JsonSchema::JsonSchema(JsonSchema&&) noexcept = default;
JsonSchema& JsonSchema::operator=(JsonSchema&&) noexcept = default;

// valijson's nlohmann adapter reads an unsigned integer above INT64_MAX (a 64-bit seed) as a
// negative signed one, so "minimum": 0 would refuse it. Such values are validated as doubles.
static bool has_large_unsigned(const json& value) {
  if (value.is_number_unsigned())
    return value.get<std::uint64_t>() > static_cast<std::uint64_t>(INT64_MAX);
  if (value.is_structured()) {
    for (const auto& item : value)
      if (has_large_unsigned(item)) return true;
  }
  return false;
}

static void widen_large_unsigned(json& value) {
  if (value.is_number_unsigned() &&
      value.get<std::uint64_t>() > static_cast<std::uint64_t>(INT64_MAX)) {
    value = static_cast<double>(value.get<std::uint64_t>());
  } else if (value.is_structured()) {
    for (auto& item : value) widen_large_unsigned(item);
  }
}

std::vector<std::string> JsonSchema::problems(const json& given) const {
  std::optional<json> widened;
  if (has_large_unsigned(given)) {
    widened = given;
    widen_large_unsigned(*widened);
  }
  const json& document = widened ? *widened : given;
  // valijson's validator caches compiled patterns and is not safe to share between threads.
  thread_local valijson::Validator validator;
  valijson::ValidationResults results;
  try {
    const valijson::adapters::NlohmannJsonAdapter target(document);
    // Without a results object valijson stops at the first failure and keeps no messages: the
    // fast path for the common valid document. Only a refused one is walked again for them.
    if (validator.validate(compiled_->schema, target, nullptr)) return {};
    validator.validate(compiled_->schema, target, &results);
  } catch (const std::exception& e) {
    return {problem(json::json_pointer(), std::string("cannot be validated: ") + e.what())};
  }
  // valijson reports a failure at every level it passes through ("Failed to validate item #2
  // in array."); the innermost ones say what is wrong, one per value, a type error first.
  std::vector<std::pair<json::json_pointer, std::string>> found;
  std::map<std::string, std::size_t> index_of;
  for (const auto& error : results) {
    if (starts_with(error.description, "Failed to validate ")) continue;
    auto finding = reword(compiled_->text, document, error);
    const bool type_error = starts_with(error.description, "Value type not permitted");
    const auto [it, fresh] = index_of.emplace(finding.first.to_string(), found.size());
    if (fresh) {
      found.push_back(std::move(finding));
    } else if (type_error) {
      found[it->second] = std::move(finding);
    }
  }
  std::vector<std::string> out;
  out.reserve(found.size());
  for (const auto& [at, message] : found) out.push_back(problem(at, message));
  return out;
}

const JsonSchema& result_schema() {
  static const JsonSchema schema(json::parse(schema::result_schema_json()));
  return schema;
}

}  // namespace pbench::ingest
