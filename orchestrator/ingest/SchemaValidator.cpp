#include "ingest/SchemaValidator.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <map>
#include <optional>
#include <regex>
#include <string_view>
#include <tuple>
#include <utility>

#include "pbench_schema.hpp"
#include "util/Error.hpp"

namespace pbench::ingest {

using nlohmann::json;

namespace {

constexpr std::string_view kDraft202012 = "https://json-schema.org/draft/2020-12/schema";
constexpr std::size_t kPreviewChars = 60;

/// One token of a JSON pointer, escaped as RFC 6901 says ("~" as "~0", "/" as "~1").
std::string escape_token(std::string_view token) {
  std::string out;
  out.reserve(token.size());
  for (char c : token) {
    if (c == '~') {
      out += "~0";
    } else if (c == '/') {
      out += "~1";
    } else {
      out += c;
    }
  }
  return out;
}

std::string child(const std::string& pointer, std::string_view token) {
  return pointer + "/" + escape_token(token);
}

std::string child(const std::string& pointer, std::size_t index) {
  return pointer + "/" + std::to_string(index);
}

std::string problem(const std::string& pointer, const std::string& message) {
  return "at " + (pointer.empty() ? std::string("(root)") : pointer) + ": " + message;
}

/// The value as compact JSON, cut (at a character boundary) to a readable length.
std::string preview(const json& value) {
  std::string text = value.dump(-1, ' ', false, json::error_handler_t::replace);
  if (text.size() <= kPreviewChars) return text;
  std::size_t cut = kPreviewChars;
  while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
  return text.substr(0, cut) + "...";
}

/// The JSON type name of a value, as JSON Schema spells it ("number" for every number).
std::string type_name(const json& value) {
  switch (value.type()) {
    case json::value_t::null:
      return "null";
    case json::value_t::boolean:
      return "boolean";
    case json::value_t::object:
      return "object";
    case json::value_t::array:
      return "array";
    case json::value_t::string:
      return "string";
    case json::value_t::number_integer:
    case json::value_t::number_unsigned:
    case json::value_t::number_float:
      return "number";
    default:
      return "invalid";
  }
}

bool is_integral(const json& value) {
  if (value.is_number_integer()) return true;
  if (!value.is_number_float()) return false;
  const double d = value.get<double>();
  return std::isfinite(d) && d == std::floor(d);
}

/// -1, 0 or 1 as number a is less than, equal to or greater than number b; exact for integers.
int compare_numbers(const json& a, const json& b) {
  auto sign = [](auto x, auto y) { return x < y ? -1 : (y < x ? 1 : 0); };
  if (a.is_number_integer() && b.is_number_integer()) {
    const bool a_unsigned = a.is_number_unsigned();
    const bool b_unsigned = b.is_number_unsigned();
    if (a_unsigned && b_unsigned) return sign(a.get<std::uint64_t>(), b.get<std::uint64_t>());
    if (!a_unsigned && !b_unsigned) return sign(a.get<std::int64_t>(), b.get<std::int64_t>());
    if (a_unsigned) {
      const std::int64_t y = b.get<std::int64_t>();
      return y < 0 ? 1 : sign(a.get<std::uint64_t>(), static_cast<std::uint64_t>(y));
    }
    const std::int64_t x = a.get<std::int64_t>();
    return x < 0 ? -1 : sign(static_cast<std::uint64_t>(x), b.get<std::uint64_t>());
  }
  return sign(a.get<long double>(), b.get<long double>());
}

/// Unicode code points in a UTF-8 string (what minLength counts).
std::size_t code_points(const std::string& s) {
  std::size_t n = 0;
  for (char c : s) {
    if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) ++n;
  }
  return n;
}

enum TypeBit : unsigned {
  kNull = 1U << 0,
  kBoolean = 1U << 1,
  kObject = 1U << 2,
  kArray = 1U << 3,
  kNumber = 1U << 4,
  kString = 1U << 5,
  kInteger = 1U << 6,
};

std::optional<unsigned> type_bit(const std::string& name) {
  static const std::map<std::string, unsigned, std::less<>> bits{
      {"null", kNull},     {"boolean", kBoolean}, {"object", kObject},  {"array", kArray},
      {"number", kNumber}, {"string", kString},   {"integer", kInteger}};
  const auto it = bits.find(name);
  if (it == bits.end()) return std::nullopt;
  return it->second;
}

bool has_type(unsigned types, const json& value) {
  switch (value.type()) {
    case json::value_t::null:
      return (types & kNull) != 0;
    case json::value_t::boolean:
      return (types & kBoolean) != 0;
    case json::value_t::object:
      return (types & kObject) != 0;
    case json::value_t::array:
      return (types & kArray) != 0;
    case json::value_t::string:
      return (types & kString) != 0;
    case json::value_t::number_integer:
    case json::value_t::number_unsigned:
    case json::value_t::number_float:
      return (types & kNumber) != 0 || ((types & kInteger) != 0 && is_integral(value));
    default:
      return false;
  }
}

/// One compiled (sub)schema; subschemas are indices into Compiled::nodes.
struct Node {
  bool never = false;  ///< the schema `false`
  unsigned types = 0;  ///< TypeBit set; 0 when `type` is absent
  std::string type_text;
  std::map<std::string, std::size_t, std::less<>> properties;
  std::vector<std::string> required;
  std::optional<std::size_t> additional_properties;
  std::optional<std::size_t> items;
  std::optional<json> const_value;
  std::optional<json> enum_values;
  std::optional<json> minimum;
  std::optional<json> maximum;
  std::optional<std::size_t> min_length;
  std::optional<std::size_t> min_items;
  std::optional<std::size_t> max_items;
  std::string pattern_text;
  std::optional<std::regex> pattern;
  std::optional<std::size_t> ref;
};

}  // namespace

struct SchemaValidator::Compiled {
  std::vector<Node> nodes;
  std::size_t root = 0;

  void check(std::size_t index, const json& value, const std::string& pointer,
             std::vector<std::string>& problems) const;
};

namespace {

class Compiler {
 public:
  explicit Compiler(std::vector<Node>& nodes) : nodes_(nodes) {}

  /// Compiles the root schema (with its $defs) and returns its node index.
  std::size_t compile_root(const json& schema) {
    if (schema.is_object()) {
      if (const auto defs = schema.find("$defs"); defs != schema.end()) {
        if (!defs->is_object()) fail("#/$defs", "expected an object of schemas");
        for (const auto& [name, def] : defs->items()) {
          defs_.emplace(name, nodes_.size());
          nodes_.emplace_back();
        }
        for (const auto& [name, def] : defs->items()) {
          Node node = compile_node(def, child("#/$defs", name), false);
          nodes_[defs_.at(name)] = std::move(node);
        }
      }
    }
    return compile(schema, "#", true);
  }

 private:
  [[noreturn]] static void fail(const std::string& where, const std::string& message) {
    throw ValidationError("schema " + where + ": " + message);
  }

  static std::size_t non_negative_integer(const json& value, const std::string& where) {
    if (!value.is_boolean() && is_integral(value) && compare_numbers(value, json(0)) >= 0) {
      return value.get<std::size_t>();
    }
    fail(where, "expected a non-negative integer");
  }

  std::size_t compile(const json& schema, const std::string& where, bool is_root) {
    Node node = compile_node(schema, where, is_root);
    nodes_.push_back(std::move(node));
    return nodes_.size() - 1;
  }

  Node compile_node(const json& schema, const std::string& where, bool is_root) {
    Node node;
    if (schema.is_boolean()) {
      node.never = !schema.get<bool>();
      return node;
    }
    if (!schema.is_object())
      fail(where, "expected an object or a boolean, got " + type_name(schema));
    for (const auto& [keyword, value] : schema.items()) {
      const std::string at = child(where, keyword);
      if (keyword == "title" || keyword == "description") {
        if (!value.is_string()) fail(at, "expected a string");
      } else if (keyword == "$schema") {
        if (!value.is_string() || value.get<std::string>() != kDraft202012) {
          fail(at, "only " + std::string(kDraft202012) + " is supported");
        }
      } else if (keyword == "$id") {
        if (!is_root) fail(at, "$id is supported only at the root");
        if (!value.is_string()) fail(at, "expected a string");
      } else if (keyword == "$defs") {
        if (!is_root) fail(at, "$defs is supported only at the root");
      } else if (keyword == "$ref") {
        node.ref = resolve(value, at);
      } else if (keyword == "type") {
        compile_type(node, value, at);
      } else if (keyword == "properties") {
        if (!value.is_object()) fail(at, "expected an object of schemas");
        for (const auto& [name, sub] : value.items()) {
          node.properties.emplace(name, compile(sub, child(at, name), false));
        }
      } else if (keyword == "required") {
        if (!value.is_array()) fail(at, "expected an array of strings");
        for (const auto& name : value) {
          if (!name.is_string()) fail(at, "expected an array of strings");
          for (const auto& seen : node.required) {
            if (seen == name.get<std::string>()) fail(at, "duplicate name " + preview(name));
          }
          node.required.push_back(name.get<std::string>());
        }
      } else if (keyword == "additionalProperties") {
        node.additional_properties = compile(value, at, false);
      } else if (keyword == "items") {
        if (value.is_array()) fail(at, "the array form is not supported (draft 2020-12)");
        node.items = compile(value, at, false);
      } else if (keyword == "enum") {
        if (!value.is_array()) fail(at, "expected an array");
        node.enum_values = value;
      } else if (keyword == "const") {
        node.const_value = value;
      } else if (keyword == "minimum" || keyword == "maximum") {
        if (!value.is_number()) fail(at, "expected a number");
        (keyword == "minimum" ? node.minimum : node.maximum) = value;
      } else if (keyword == "minLength") {
        node.min_length = non_negative_integer(value, at);
      } else if (keyword == "minItems") {
        node.min_items = non_negative_integer(value, at);
      } else if (keyword == "maxItems") {
        node.max_items = non_negative_integer(value, at);
      } else if (keyword == "pattern") {
        if (!value.is_string()) fail(at, "expected a string");
        node.pattern_text = value.get<std::string>();
        try {
          node.pattern.emplace(node.pattern_text, std::regex::ECMAScript);
        } catch (const std::regex_error& e) {
          fail(at, "invalid regular expression: " + std::string(e.what()));
        }
      } else {
        fail(where, "unsupported keyword \"" + keyword + "\"");
      }
    }
    return node;
  }

  static void compile_type(Node& node, const json& value, const std::string& at) {
    const json names = value.is_array() ? value : json::array({value});
    if (names.empty()) fail(at, "expected a type name or a non-empty array of them");
    for (const auto& name : names) {
      if (!name.is_string()) fail(at, "expected a type name or a non-empty array of them");
      const auto bit = type_bit(name.get<std::string>());
      if (!bit) fail(at, "unknown type " + preview(name));
      if ((node.types & *bit) != 0) fail(at, "duplicate type " + preview(name));
      node.types |= *bit;
    }
    // "string", "integer or string", "number, string, boolean or null"
    for (std::size_t i = 0; i < names.size(); ++i) {
      if (i > 0) node.type_text += i + 1 == names.size() ? " or " : ", ";
      node.type_text += names[i].get<std::string>();
    }
  }

  std::size_t resolve(const json& ref, const std::string& at) const {
    constexpr std::string_view kPrefix = "#/$defs/";
    if (!ref.is_string()) fail(at, "expected a string");
    const std::string& text = ref.get_ref<const std::string&>();
    if (text.rfind(kPrefix, 0) != 0 || text.find('/', kPrefix.size()) != std::string::npos) {
      fail(at, "only references of the form \"#/$defs/NAME\" are supported, got " + preview(ref));
    }
    std::string name;
    for (std::size_t i = kPrefix.size(); i < text.size(); ++i) {
      if (text[i] == '~' && i + 1 < text.size() && (text[i + 1] == '0' || text[i + 1] == '1')) {
        name += text[i + 1] == '0' ? '~' : '/';
        ++i;
      } else {
        name += text[i];
      }
    }
    const auto it = defs_.find(name);
    if (it == defs_.end()) fail(at, "no definition for " + preview(ref));
    return it->second;
  }

  std::vector<Node>& nodes_;
  std::map<std::string, std::size_t, std::less<>> defs_;
};

}  // namespace

void SchemaValidator::Compiled::check(std::size_t index, const json& value,
                                      const std::string& pointer,
                                      std::vector<std::string>& problems) const {
  const Node& node = nodes[index];
  if (node.never) {
    problems.push_back(problem(pointer, "no value is allowed here"));
    return;
  }
  if (node.types != 0 && !has_type(node.types, value)) {
    problems.push_back(
        problem(pointer, "expected " + node.type_text + ", got " + type_name(value)));
    return;
  }
  if (node.const_value && *node.const_value != value) {
    problems.push_back(
        problem(pointer, "expected " + preview(*node.const_value) + ", got " + preview(value)));
  }
  if (node.enum_values) {
    bool found = false;
    for (const auto& candidate : *node.enum_values) found = found || candidate == value;
    if (!found) {
      problems.push_back(problem(
          pointer, "expected one of " + preview(*node.enum_values) + ", got " + preview(value)));
    }
  }
  if (value.is_number()) {
    if (node.minimum && compare_numbers(value, *node.minimum) < 0) {
      problems.push_back(
          problem(pointer, "expected >= " + node.minimum->dump() + ", got " + value.dump()));
    }
    if (node.maximum && compare_numbers(value, *node.maximum) > 0) {
      problems.push_back(
          problem(pointer, "expected <= " + node.maximum->dump() + ", got " + value.dump()));
    }
  }
  if (value.is_string()) {
    const std::string& text = value.get_ref<const std::string&>();
    if (node.min_length) {
      const std::size_t length = code_points(text);
      if (length < *node.min_length) {
        problems.push_back(
            problem(pointer, "expected length >= " + std::to_string(*node.min_length) + ", got " +
                                 std::to_string(length)));
      }
    }
    if (node.pattern) {
      if (text.size() > kMaxPatternSubjectBytes) {
        problems.push_back(problem(pointer, "string of " + std::to_string(text.size()) +
                                                " bytes is too long to match pattern " +
                                                node.pattern_text));
      } else if (!std::regex_search(text, *node.pattern)) {
        problems.push_back(problem(
            pointer, "expected to match pattern " + node.pattern_text + ", got " + preview(value)));
      }
    }
  }
  if (value.is_array()) {
    const std::size_t size = value.size();
    if (node.min_items && size < *node.min_items) {
      problems.push_back(problem(pointer, "expected >= " + std::to_string(*node.min_items) +
                                              " items, got " + std::to_string(size)));
    }
    if (node.max_items && size > *node.max_items) {
      problems.push_back(problem(pointer, "expected <= " + std::to_string(*node.max_items) +
                                              " items, got " + std::to_string(size)));
    }
    if (node.items) {
      for (std::size_t i = 0; i < size; ++i)
        check(*node.items, value[i], child(pointer, i), problems);
    }
  }
  if (value.is_object()) {
    for (const auto& name : node.required) {
      if (!value.contains(name))
        problems.push_back(problem(child(pointer, name), "missing required property"));
    }
    for (const auto& [name, member] : value.items()) {
      const std::string at = child(pointer, name);
      if (const auto it = node.properties.find(name); it != node.properties.end()) {
        check(it->second, member, at, problems);
      } else if (node.additional_properties) {
        if (nodes[*node.additional_properties].never) {
          problems.push_back(problem(at, "unexpected property"));
        } else {
          check(*node.additional_properties, member, at, problems);
        }
      }
    }
  }
  if (node.ref) check(*node.ref, value, pointer, problems);
}

SchemaValidator::SchemaValidator(json schema) {
  auto compiled = std::make_shared<Compiled>();
  Compiler compiler(compiled->nodes);
  compiled->root = compiler.compile_root(schema);
  compiled_ = std::move(compiled);
}

std::vector<std::string> SchemaValidator::validate(const json& document) const {
  std::vector<std::string> problems;
  compiled_->check(compiled_->root, document, "", problems);
  return problems;
}

const SchemaValidator& result_schema_validator() {
  static const SchemaValidator validator(json::parse(schema::result_schema_json()));
  return validator;
}

namespace {

/// A contract timestamp split for ordering: "YYYY-MM-DDTHH:MM:SS" and the fraction's digits.
std::optional<std::pair<std::string, std::string>> split_timestamp(const json& value) {
  static const std::regex kFormat(R"(^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.(\d+))?Z$)");
  if (!value.is_string() || value.get_ref<const std::string&>().size() > kMaxPatternSubjectBytes) {
    return std::nullopt;
  }
  std::smatch match;
  const std::string& text = value.get_ref<const std::string&>();
  if (!std::regex_match(text, match, kFormat)) return std::nullopt;
  return std::make_pair(match[1].str(), match[2].str());
}

/// Labels with integral numbers written as integers, so {"q": 1} and {"q": 1.0} compare equal.
json canonical_labels(json labels) {
  for (auto& [key, value] : labels.items()) {
    if (value.is_number_float() && is_integral(value) && std::fabs(value.get<double>()) < 9e18) {
      value = static_cast<std::int64_t>(value.get<double>());
    }
  }
  return labels;
}

void check_tables(const json& measurements, std::vector<std::string>& problems) {
  for (const auto& [table_name, table] : measurements.items()) {
    if (!table.is_object()) continue;
    const std::string at_table = child("/measurements", table_name);
    const auto columns = table.find("columns");
    if (columns == table.end() || !columns->is_array()) continue;
    std::map<std::string, std::size_t, std::less<>> first_column;
    for (std::size_t j = 0; j < columns->size(); ++j) {
      const json& column = (*columns)[j];
      if (!column.is_object() || !column.contains("name") || !column["name"].is_string()) continue;
      const auto [it, fresh] = first_column.emplace(column["name"].get<std::string>(), j);
      if (!fresh) {
        problems.push_back(problem(child(child(child(at_table, "columns"), j), "name"),
                                   "duplicate column name " + preview(column["name"]) +
                                       " (first at column " + std::to_string(it->second) + ")"));
      }
    }
    const auto rows = table.find("rows");
    if (rows == table.end() || !rows->is_array()) continue;
    for (std::size_t i = 0; i < rows->size(); ++i) {
      const json& row = (*rows)[i];
      if (row.is_array() && row.size() != columns->size()) {
        problems.push_back(problem(child(child(at_table, "rows"), i),
                                   std::to_string(row.size()) + " values for " +
                                       std::to_string(columns->size()) + " columns"));
      }
    }
  }
}

void check_times(const json& doc, std::vector<std::string>& problems) {
  if (!doc.contains("started_at") || !doc.contains("ended_at")) return;
  const auto started = split_timestamp(doc["started_at"]);
  const auto ended = split_timestamp(doc["ended_at"]);
  if (!started || !ended) return;
  std::string started_fraction = started->second;
  std::string ended_fraction = ended->second;
  const std::size_t width = std::max(started_fraction.size(), ended_fraction.size());
  started_fraction.resize(width, '0');
  ended_fraction.resize(width, '0');
  if (std::tie(ended->first, ended_fraction) < std::tie(started->first, started_fraction)) {
    problems.push_back(problem("/ended_at", "ended_at " + doc["ended_at"].get<std::string>() +
                                                " is before started_at " +
                                                doc["started_at"].get<std::string>()));
  }
}

void check_metrics(const json& summary, std::vector<std::string>& problems) {
  std::map<std::string, std::size_t, std::less<>> first_metric;
  for (std::size_t i = 0; i < summary.size(); ++i) {
    const json& metric = summary[i];
    if (!metric.is_object() || !metric.contains("name") || !metric["name"].is_string()) continue;
    const json labels = metric.contains("labels") && metric["labels"].is_object()
                            ? canonical_labels(metric["labels"])
                            : json::object();
    const std::string key = metric["name"].get<std::string>() + '\n' +
                            labels.dump(-1, ' ', false, json::error_handler_t::replace);
    const auto [it, fresh] = first_metric.emplace(key, i);
    if (!fresh) {
      problems.push_back(problem(child("/summary", i),
                                 "duplicate metric " + preview(metric["name"]) + " with labels " +
                                     preview(labels) + " (first at /summary/" +
                                     std::to_string(it->second) + ")"));
    }
  }
}

}  // namespace

std::vector<std::string> check_result_semantics(const json& doc) {
  std::vector<std::string> problems;
  if (!doc.is_object()) return problems;
  if (const auto m = doc.find("measurements"); m != doc.end() && m->is_object()) {
    check_tables(*m, problems);
  }
  check_times(doc, problems);
  if (const auto s = doc.find("summary"); s != doc.end() && s->is_array()) {
    check_metrics(*s, problems);
  }
  return problems;
}

}  // namespace pbench::ingest
