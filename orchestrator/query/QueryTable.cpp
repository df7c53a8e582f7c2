#include "query/QueryTable.hpp"

#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>

#include "util/Error.hpp"

namespace pbench::query {
namespace {

std::string number(double v, int precision) {
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), "%.*g", precision, v);
  return buffer;
}

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n\r") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += (c == '"') ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string machine(const Cell& cell) {
  if (std::holds_alternative<std::monostate>(cell)) return "";
  if (const auto* i = std::get_if<std::int64_t>(&cell)) return std::to_string(*i);
  if (const auto* s = std::get_if<std::string>(&cell)) return *s;
  return number(std::get<double>(cell), 17);
}

// A cell of a pipe table: '|' escaped, line breaks as spaces.
std::string markdown_field(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '|')
      out += "\\|";
    else if (c == '\n' || c == '\r')
      out += ' ';
    else
      out += c;
  }
  return out;
}

nlohmann::json to_json(const Cell& cell) {
  if (std::holds_alternative<std::monostate>(cell)) return nullptr;
  if (const auto* i = std::get_if<std::int64_t>(&cell)) return *i;
  if (const auto* s = std::get_if<std::string>(&cell)) return *s;
  return std::get<double>(cell);
}

}  // namespace

std::string display_cell(const Cell& cell, const QueryColumn& column) {
  if (std::holds_alternative<std::monostate>(cell)) return "-";
  if (const auto* i = std::get_if<std::int64_t>(&cell)) return std::to_string(*i);
  if (const auto* s = std::get_if<std::string>(&cell)) return *s;
  return number(std::get<double>(cell) * column.display_scale, column.precision);
}

Format parse_format(const std::string& name) {
  if (name == "table") return Format::table;
  if (name == "csv") return Format::csv;
  if (name == "json") return Format::json;
  if (name == "markdown") return Format::markdown;
  throw UsageError("unknown format '" + name + "' (known: table, csv, json, markdown)");
}

std::string render(const QueryTable& table, Format format) {
  std::string out;
  if (format == Format::markdown) {
    // A pipe table with the display units; numbers right-aligned, notes as a list below.
    auto row_line = [](const std::vector<std::string>& texts) {
      std::string l = "|";
      for (const auto& t : texts) l += " " + markdown_field(t) + " |";
      return l + "\n";
    };
    std::vector<std::string> headings;
    std::string rule = "|";
    for (const auto& c : table.columns) {
      headings.push_back(c.display_unit.empty() ? c.title : c.title + " [" + c.display_unit + "]");
      rule += c.unit.empty() ? " --- |" : " ---: |";
    }
    out += row_line(headings) + rule + "\n";
    for (const auto& row : table.rows) {
      std::vector<std::string> texts;
      for (std::size_t i = 0; i < row.size(); ++i)
        texts.push_back(display_cell(row[i], table.columns[i]));
      out += row_line(texts);
    }
    if (!table.notes.empty()) out += "\n";
    for (const auto& note : table.notes) out += "- " + markdown_field(note) + "\n";
    return out;
  }
  if (format == Format::json) {
    nlohmann::json columns = nlohmann::json::array();
    for (const auto& c : table.columns) columns.push_back({{"name", c.key}, {"unit", c.unit}});
    nlohmann::json rows = nlohmann::json::array();
    for (const auto& row : table.rows) {
      nlohmann::json r = nlohmann::json::object();
      for (std::size_t i = 0; i < row.size(); ++i) r[table.columns[i].key] = to_json(row[i]);
      rows.push_back(r);
    }
    return nlohmann::json{{"columns", columns}, {"rows", rows}, {"notes", table.notes}}.dump(1) +
           "\n";
  }
  if (format == Format::csv) {
    for (std::size_t i = 0; i < table.columns.size(); ++i) {
      const auto& c = table.columns[i];
      out += (i ? "," : "") + csv_field(c.unit.empty() ? c.key : c.key + " [" + c.unit + "]");
    }
    out += "\n";
    for (const auto& row : table.rows) {
      for (std::size_t i = 0; i < row.size(); ++i)
        out += (i ? "," : "") + csv_field(machine(row[i]));
      out += "\n";
    }
    return out;
  }
  std::vector<std::string> headings;
  std::vector<std::size_t> widths;
  for (const auto& c : table.columns) {
    headings.push_back(c.display_unit.empty() ? c.title : c.title + " [" + c.display_unit + "]");
    widths.push_back(headings.back().size());
  }
  std::vector<std::vector<std::string>> cells;
  for (const auto& row : table.rows) {
    std::vector<std::string> texts;
    for (std::size_t i = 0; i < row.size(); ++i) {
      texts.push_back(display_cell(row[i], table.columns[i]));
      widths[i] = std::max(widths[i], texts.back().size());
    }
    cells.push_back(std::move(texts));
  }
  auto line = [&](const std::vector<std::string>& texts) {
    std::string l;
    for (std::size_t i = 0; i < texts.size(); ++i) {
      l += (i ? "  " : "") + std::string(widths[i] - texts[i].size(), ' ') + texts[i];
    }
    return l + "\n";
  };
  out += line(headings);
  std::vector<std::string> rule;
  for (auto w : widths) rule.push_back(std::string(w, '-'));
  out += line(rule);
  for (const auto& texts : cells) out += line(texts);
  for (const auto& note : table.notes) out += "note: " + note + "\n";
  return out;
}

}  // namespace pbench::query
