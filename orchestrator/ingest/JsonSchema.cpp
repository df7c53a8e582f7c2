#include "ingest/JsonSchema.hpp"

#include <valijson/adapters/nlohmann_json_adapter.hpp>
#include <valijson/constraint_builder.hpp>
#include <valijson/constraints/concrete_constraints.hpp>
#include <valijson/schema.hpp>
#include <valijson/schema_parser.hpp>
#include <valijson/utils/utf8_utils.hpp>
#include <valijson/validation_results.hpp>
#include <valijson/validator.hpp>

#include <cstddef>
#include <cstdint>
#include <exception>
#include <map>
#include <memory>
#include <new>
#include <optional>
#include <mutex>
#include <regex>
#include <unordered_set>
#include <stdexcept>
#include <string_view>
#include <utility>

#include "ingest/Problem.hpp"
#include "pbench_schema.hpp"
#include "util/Error.hpp"

namespace pbench::ingest {

using nlohmann::json;

struct JsonSchema::Compiled {
  json text;  // the schema as written: what a message says was expected comes from here
  valijson::Schema schema;  // compiled as written: the pass that finds a refused one's problems
  valijson::Schema fast;    // the same constraints, cheaper to check: the yes/no pass
};

namespace {

// ---- The fast schema ----------------------------------------------------------------------
// valijson validates each array item with a visitor of its own, which copies the context (the
// path from the root, a vector of strings) twice: for a table's rows of scalars, the bulk of a
// result document, that copying was most of the validation's cost (callgrind, bench/README.md).
// valijson's "if"/"then" builds two visitors (two more copies) and a results queue (a heap
// allocation) for every value it guards. The fast schema states two idioms as one constraint
// each, checked without a visitor per value:
//   "items": {"type": T}                  (a row's values, warnings): every item has a type in T
//                                         (also nested: "rows", arrays of such arrays)
//   "if": {"maxLength": N}, "then": {"pattern": P}   (names, timestamps: the guard that keeps
//                                         long strings from std::regex): P matched if length <= N
// and compiles all else as written. They live under keywords no JSON Schema draft defines, which
// exist only in the fast schema's copy of the text, never in a schema file.
constexpr const char* kItemTypesKeyword = "x-pbench-item-types";
constexpr const char* kGuardedPatternKeyword = "x-pbench-guarded-pattern";

/// The JSON types an item may have, one bit each.
enum TypeBit : unsigned {
  kNull = 1U << 0,
  kBoolean = 1U << 1,
  kNumber = 1U << 2,
  kInteger = 1U << 3,
  kString = 1U << 4,
  kArray = 1U << 5,
  kObject = 1U << 6,
};

/// The bit of a draft 7 type name; 0 for a name that is not one.
unsigned type_bit(const json& name) {
  static const std::map<std::string, unsigned, std::less<>> kBits{
      {"null", kNull},     {"boolean", kBoolean}, {"number", kNumber}, {"integer", kInteger},
      {"string", kString}, {"array", kArray},     {"object", kObject}};
  if (!name.is_string()) return 0;
  const auto it = kBits.find(name.get_ref<const std::string&>());
  return it == kBits.end() ? 0 : it->second;
}

/// The bits of a "type" keyword's value (a name or a non-empty list of names); 0 when any entry
/// is not a type name.
unsigned type_bits(const json& type) {
  if (type.is_string()) return type_bit(type);
  if (!type.is_array() || type.empty()) return 0;
  unsigned bits = 0;
  for (const auto& name : type) {
    const unsigned bit = type_bit(name);
    if (bit == 0) return 0;
    bits |= bit;
  }
  return bits;
}

/// Whether `value` has one of the types in `bits`, as valijson's "type" decides with strong
/// types (its Validator's default): an integer is a number without a fraction part's storage,
/// i.e. 4 but not 4.0.
bool has_type(const valijson::adapters::Adapter& value, unsigned bits) {
  return ((bits & kNumber) != 0 && value.isNumber()) ||
         ((bits & kString) != 0 && value.isString()) || ((bits & kNull) != 0 && value.isNull()) ||
         ((bits & kBoolean) != 0 && value.isBool()) ||
         ((bits & kInteger) != 0 && value.isInteger()) ||
         ((bits & kArray) != 0 && value.isArray()) || ((bits & kObject) != 0 && value.isObject());
}

/// "items": {"type": T0} as one constraint: every item of an array has a type in T0; a value
/// that is not an array passes (as "items" lets it). Nested, "items": {"type": T0, "items":
/// {"type": T1}} (a table's rows): every item that is an array has items of a type in T1, and
/// so on; one mask of types per level.
class ItemTypesConstraint final : public valijson::constraints::PolyConstraint {
 public:
  explicit ItemTypesConstraint(std::vector<unsigned> levels) : levels_(std::move(levels)) {}

  bool validate(const valijson::adapters::Adapter& target, const std::vector<std::string>& context,
                valijson::ValidationResults* results) const override {
    return check(target, 0, context, results);
  }

 private:
  bool check(const valijson::adapters::Adapter& array, std::size_t level,
             const std::vector<std::string>& context, valijson::ValidationResults* results) const {
    if (level == levels_.size() || !array.isArray()) return true;
    bool valid = true;
    std::size_t index = 0;
    array.applyToArray([&](const valijson::adapters::Adapter& item) {
      std::vector<std::string> at;
      if (results != nullptr) {
        // As valijson words it, should a results object ever be given (JsonSchema never does).
        at = context;
        at.push_back("[" + std::to_string(index) + "]");
      }
      if (!has_type(item, levels_[level])) {
        valid = false;
        if (results == nullptr) return false;
        results->pushError(at, "Value type not permitted by 'type' constraint.");
      } else if (!check(item, level + 1, at, results)) {
        valid = false;
        if (results == nullptr) return false;
      }
      ++index;
      return true;
    });
    return valid;
  }

  valijson::constraints::Constraint* cloneInto(void* memory) const override {
    return new (memory) ItemTypesConstraint(*this);
  }
  std::size_t sizeOf() const override { return sizeof(ItemTypesConstraint); }

  std::vector<unsigned> levels_;
};

class ItemTypesBuilder final : public valijson::ConstraintBuilder {
 public:
  /// `value` is [T0, T1, ...], type masks.
  valijson::constraints::Constraint* make(const valijson::adapters::Adapter& value) const override {
    std::vector<unsigned> levels;
    const bool read = value.applyToArray([&](const valijson::adapters::Adapter& item) {
      std::int64_t bits = 0;
      if (!item.getInteger(bits) || bits <= 0) return false;
      levels.push_back(static_cast<unsigned>(bits));
      return true;
    });
    if (!read || levels.empty()) {
      throw std::runtime_error(std::string(kItemTypesKeyword) + " is not a list of type masks");
    }
    return new ItemTypesConstraint(std::move(levels));
  }
};

/// "if": {"maxLength": N}, "then": {"pattern": P} (no "else") as one constraint: a string of at
/// most N code points (counted as valijson counts them) matches P (std::regex, ECMAScript, as
/// valijson compiles it; searched, not anchored, as valijson searches); any other value passes.
/// The strings that matched are remembered (up to kRemembered of them): a result's names, units
/// and timestamps repeat from document to document, and std::regex was a sixth of ingestion.
class GuardedPatternConstraint final : public valijson::constraints::PolyConstraint {
 public:
  static constexpr std::size_t kRemembered = 65536;

  GuardedPatternConstraint(std::uint64_t max_length, const std::string& pattern)
      : max_length_(max_length),
        regex_(std::make_shared<const std::regex>(pattern)),
        matched_(std::make_shared<Matched>()) {}

  bool validate(const valijson::adapters::Adapter& target, const std::vector<std::string>& context,
                valijson::ValidationResults* results) const override {
    if (!target.isString()) return true;
    const std::string text = target.asString();
    if (valijson::utils::u8_strlen(text.c_str()) > max_length_) return true;
    {
      const std::lock_guard<std::mutex> lock(matched_->mutex);
      if (matched_->strings.count(text)) return true;
    }
    if (std::regex_search(text, *regex_)) {
      const std::lock_guard<std::mutex> lock(matched_->mutex);
      if (matched_->strings.size() < kRemembered) matched_->strings.insert(text);
      return true;
    }
    if (results != nullptr) {
      // As valijson words it, should a results object ever be given (JsonSchema never does).
      results->pushError(context, "Failed to match regex specified by 'pattern' constraint.");
      results->pushError(context,
                         "Failed to validate against a conditional schema set by if-then-else "
                         "constraints.");
    }
    return false;
  }

 private:
  valijson::constraints::Constraint* cloneInto(void* memory) const override {
    return new (memory) GuardedPatternConstraint(*this);
  }
  std::size_t sizeOf() const override { return sizeof(GuardedPatternConstraint); }

  /// Strings known to match, shared by the copies valijson makes of the constraint.
  struct Matched {
    std::mutex mutex;
    std::unordered_set<std::string> strings;
  };

  std::uint64_t max_length_;
  std::shared_ptr<const std::regex> regex_;  // compiled once; matching does not change it
  std::shared_ptr<Matched> matched_;
};

class GuardedPatternBuilder final : public valijson::ConstraintBuilder {
 public:
  /// `value` is [N, P].
  valijson::constraints::Constraint* make(const valijson::adapters::Adapter& value) const override {
    std::int64_t max_length = -1;
    std::string pattern;
    std::size_t index = 0;
    value.applyToArray([&](const valijson::adapters::Adapter& item) {
      const bool ok = index == 0 ? item.getInteger(max_length) : item.getString(pattern);
      ++index;
      return ok && index <= 2;
    });
    if (index != 2 || max_length < 0) {
      throw std::runtime_error(std::string(kGuardedPatternKeyword) + " is not [length, pattern]");
    }
    return new GuardedPatternConstraint(static_cast<std::uint64_t>(max_length), pattern);
  }
};

/// Keywords whose values are data, not schemas: the fast schema leaves them as written.
bool holds_data(const std::string& keyword) {
  return keyword == "enum" || keyword == "const" || keyword == "default" || keyword == "examples";
}

/// `schema` with the two idioms restated (see above): every "items" whose schema is only a
/// "type" of type names, or such a "type" and restated items of its own (and no
/// "additionalItems" beside it), as kItemTypesKeyword with the type masks of each level; every "if"
/// of only a "maxLength" with a "then" of only a "pattern" (and no "else") as
/// kGuardedPatternKeyword with [N, P].
void restate_idioms(json& schema) {
  if (schema.is_array()) {
    for (auto& item : schema) restate_idioms(item);
    return;
  }
  if (!schema.is_object()) return;
  for (auto& [key, value] : schema.items()) {
    if (!holds_data(key)) restate_idioms(value);
  }
  // The items' schema: only a "type", or a "type" and its own items restated (a row of a
  // table, restated above, as the items of "rows").
  const auto items = schema.find("items");
  if (items != schema.end() && items->is_object() && items->contains("type") &&
      (items->size() == 1 || (items->size() == 2 && items->contains(kItemTypesKeyword))) &&
      !schema.contains("additionalItems") && !schema.contains(kItemTypesKeyword)) {
    // A type list valijson cannot compile stays, for the schema as written to refuse it too.
    if (const unsigned bits = type_bits((*items)["type"]); bits != 0) {
      json levels = json::array({bits});
      if (items->contains(kItemTypesKeyword)) {
        for (const auto& level : (*items)[kItemTypesKeyword]) levels.push_back(level);
      }
      schema.erase("items");
      schema[kItemTypesKeyword] = std::move(levels);
    }
  }
  const auto condition = schema.find("if");
  const auto then = schema.find("then");
  if (condition != schema.end() && then != schema.end() && !schema.contains("else") &&
      !schema.contains(kGuardedPatternKeyword) && condition->is_object() &&
      condition->size() == 1 && condition->contains("maxLength") &&
      (*condition)["maxLength"].is_number_integer() && (*condition)["maxLength"] >= 0 &&
      then->is_object() && then->size() == 1 && then->contains("pattern") &&
      (*then)["pattern"].is_string()) {
    json guarded = json::array({(*condition)["maxLength"], (*then)["pattern"]});
    schema.erase("if");
    schema.erase("then");
    schema[kGuardedPatternKeyword] = std::move(guarded);
  }
}

void compile(const json& text, valijson::Schema& into, bool fast) {
  valijson::SchemaParser parser(valijson::SchemaParser::kDraft7);
  if (fast) {
    parser.addConstraintBuilder(kItemTypesKeyword, new ItemTypesBuilder);
    parser.addConstraintBuilder(kGuardedPatternKeyword, new GuardedPatternBuilder);
  }
  parser.populateSchema(valijson::adapters::NlohmannJsonAdapter(text), into);
}

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
    compile(compiled_->text, compiled_->schema, false);
    json fast = compiled_->text;
    restate_idioms(fast);
    compile(fast, compiled_->fast, true);
  } catch (const std::exception& e) {
    throw ValidationError(std::string("JSON schema: ") + e.what());
  }
}

JsonSchema::~JsonSchema() = default;
JsonSchema::JsonSchema(JsonSchema&&) noexcept = default;
JsonSchema& JsonSchema::operator=(JsonSchema&&) noexcept = default;

// valijson's nlohmann adapter reads an unsigned integer above INT64_MAX (a 64-bit seed) as a
// negative signed one, so "minimum": 0 would refuse it. Such values are validated as doubles.
// A walk over every value of every document: through the containers themselves, not
// nlohmann's iterators, whose object iteration cost more than the check.
static bool has_large_unsigned(const json& value) {
  switch (value.type()) {
    case json::value_t::number_unsigned:
      return value.get<std::uint64_t>() > static_cast<std::uint64_t>(INT64_MAX);
    case json::value_t::object:
      for (const auto& member : value.get_ref<const json::object_t&>()) {
        if (has_large_unsigned(member.second)) return true;
      }
      return false;
    case json::value_t::array:
      for (const auto& item : value.get_ref<const json::array_t&>()) {
        if (has_large_unsigned(item)) return true;
      }
      return false;
    default:
      return false;
  }
}

static void widen_large_unsigned(json& value) {
  if (value.is_number_unsigned() &&
      value.get<std::uint64_t>() > static_cast<std::uint64_t>(INT64_MAX)) {
    value = static_cast<double>(value.get<std::uint64_t>());
  } else if (value.is_structured()) {
    for (auto& item : value) widen_large_unsigned(item);
  }
}

/// `given`, or a copy of it with its large unsigned numbers widened when it has any.
static const json& widened(const json& given, std::optional<json>& copy) {
  if (!has_large_unsigned(given)) return given;
  copy = given;
  widen_large_unsigned(*copy);
  return *copy;
}

/// A validator of this thread: valijson's caches compiled patterns and is not safe to share
/// between threads.
static valijson::Validator& thread_validator() {
  thread_local valijson::Validator validator;
  return validator;
}

bool JsonSchema::accepts(const json& given, Form form) const {
  std::optional<json> copy;
  const valijson::adapters::NlohmannJsonAdapter target(widened(given, copy));
  return thread_validator().validate(form == Form::fast ? compiled_->fast : compiled_->schema,
                                     target, nullptr);
}

std::vector<std::string> JsonSchema::problems(const json& given) const {
  std::optional<json> copy;
  const json& document = widened(given, copy);
  valijson::ValidationResults results;
  try {
    const valijson::adapters::NlohmannJsonAdapter target(document);
    // Without a results object valijson stops at the first failure and keeps no messages: the
    // fast path for the common valid document, on the fast schema. Only a refused one is walked
    // again, on the schema as written, for its messages (were the two forms ever to disagree on
    // a document, the schema as written decides; tests/unit/json_schema_test.cpp checks that
    // they agree).
    if (thread_validator().validate(compiled_->fast, target, nullptr)) return {};
    thread_validator().validate(compiled_->schema, target, &results);
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

const JsonSchema& sweep_schema() {
  static const JsonSchema schema(json::parse(schema::sweep_schema_json()));
  return schema;
}

}  // namespace pbench::ingest
