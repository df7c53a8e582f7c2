#include "query/WhereFilter.hpp"

#include <cstdlib>
#include <optional>

#include "util/Error.hpp"
#include "util/TextSafety.hpp"

namespace pbench::query {
namespace {

// The whole text as a number, or nothing.
std::optional<double> as_number(const std::string& text) {
  if (text.empty()) return std::nullopt;
  char* end = nullptr;
  const double v = std::strtod(text.c_str(), &end);
  if (end != text.c_str() + text.size()) return std::nullopt;
  return v;
}

}  // namespace

std::vector<WhereClause> parse_where(const std::vector<std::string>& texts) {
  std::vector<WhereClause> clauses;
  for (const auto& text : texts) {
    const auto equals = text.find('=');
    if (equals == std::string::npos || equals == 0) {
      throw UsageError("--where '" + text + "': expected key=value");
    }
    clauses.push_back({text.substr(0, equals), text.substr(equals + 1)});
  }
  return clauses;
}

bool json_matches(const nlohmann::json& v, const std::string& value) {
  if (v.is_string()) return v.get<std::string>() == value;
  if (v.is_boolean()) return value == (v.get<bool>() ? "true" : "false");
  if (v.is_number()) {
    const auto n = as_number(value);
    return n && *n == v.get<double>();
  }
  if (v.is_array()) {
    for (const auto& e : v) {
      if (json_matches(e, value)) return true;
    }
  }
  return false;
}

bool cell_matches(const Cell& cell, const std::string& value) {
  if (const auto* s = std::get_if<std::string>(&cell)) return *s == value;
  const auto n = as_number(value);
  if (const auto* i = std::get_if<std::int64_t>(&cell)) return n && *n == static_cast<double>(*i);
  if (const auto* d = std::get_if<double>(&cell)) return n && *n == *d;
  return false;
}

UsageError unknown_where_key(const std::string& key, const std::vector<std::string>& known) {
  std::string list;
  for (const auto& k : known) list += (list.empty() ? "" : ", ") + k;
  return UsageError("--where: no column '" + printable_utf8(key) +
                    "' in this table (columns: " + list + ")");
}

void filter_rows(QueryTable& table, const std::vector<WhereClause>& clauses) {
  for (const auto& clause : clauses) {
    std::size_t column = table.columns.size();
    for (std::size_t i = 0; i < table.columns.size(); ++i) {
      if (table.columns[i].key == clause.key) column = i;
    }
    if (column == table.columns.size()) {
      std::vector<std::string> known;
      for (const auto& c : table.columns) known.push_back(c.key);
      throw unknown_where_key(clause.key, known);
    }
    std::vector<std::vector<Cell>> kept;
    for (auto& row : table.rows) {
      if (cell_matches(row[column], clause.value)) kept.push_back(std::move(row));
    }
    table.rows = std::move(kept);
  }
}

}  // namespace pbench::query
