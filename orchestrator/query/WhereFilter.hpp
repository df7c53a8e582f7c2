#pragma once
// `--where key=value` filters: parsed once, then compared in C++ against table cells, point
// parameters, echoed settings and metric labels; a value never becomes part of any SQL text.
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

#include "query/QueryTable.hpp"
#include "util/Error.hpp"

namespace pbench::query {

struct WhereClause {
  std::string key;    ///< a column, parameter, hint or label name
  std::string value;  ///< compared literally (numbers also numerically)
};

/// Parses "key=value" (split at the first '='); throws UsageError on a missing '=' or key.
std::vector<WhereClause> parse_where(const std::vector<std::string>& texts);
/// True when the JSON value equals `value`: text literally, a number numerically, a boolean as
/// "true"/"false", an array when any element matches.
bool json_matches(const nlohmann::json& v, const std::string& value);
/// True when the cell equals `value` (text literally, numbers numerically).
bool cell_matches(const Cell& cell, const std::string& value);
/// The error for a clause whose key is not one of `known` (a table's columns): "--where: no
/// column 'K' in this table (columns: a, b)", the one text of every --where.
UsageError unknown_where_key(const std::string& key, const std::vector<std::string>& known);
/// Keeps the rows whose column `key` matches for every clause; throws UsageError naming the
/// columns when a clause's key is not a column of the table.
void filter_rows(QueryTable& table, const std::vector<WhereClause>& clauses);

}  // namespace pbench::query
