#pragma once
// A query's answer: typed columns with base units (and a display unit for the aligned table),
// rows of cells, and notes; printed as an aligned table, CSV, JSON or a Markdown table.
#include <cstdint>
#include <string>
#include <variant>
#include <vector>

namespace pbench::query {

struct QueryColumn {
  std::string key;           ///< machine name (CSV header, JSON key)
  std::string unit;          ///< base unit of the stored value ("s", "B/s", "" for labels)
  std::string title;         ///< table heading
  std::string display_unit;  ///< unit shown in the table ("us")
  double display_scale = 1;  ///< value * scale = display value
  int precision = 3;         ///< significant digits in the table
};

/// Empty (missing), a number, an integer label, or text.
using Cell = std::variant<std::monostate, double, std::int64_t, std::string>;

struct QueryTable {
  std::vector<QueryColumn> columns;
  std::vector<std::vector<Cell>> rows;
  std::vector<std::string> notes;  ///< printed under the table (and in JSON)
};

enum class Format { table, csv, json, markdown };
/// "table", "csv", "json" or "markdown"; throws UsageError otherwise.
Format parse_format(const std::string& name);
/// A cell as the aligned table shows it: in the column's display unit and precision, "-" when
/// missing.
std::string display_cell(const Cell& cell, const QueryColumn& column);
/// Renders a table in a format.
std::string render(const QueryTable& table, Format format);

}  // namespace pbench::query
