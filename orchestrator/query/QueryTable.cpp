#include "query/QueryTable.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <nlohmann/json.hpp>
#include <utility>

#include "common/NodeCores.hpp"
#include "common/PhysicalLimits.hpp"
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

/// "note: " and the note, wrapped at spaces to kTableWidth, later lines indented.
std::string wrapped_note(const std::string& note) {
  const std::string first = "note: ", indent(first.size(), ' ');
  std::string out = first, word;
  std::size_t column = first.size();
  bool line_empty = true;
  const auto flush_word = [&] {
    if (word.empty()) return;
    if (!line_empty && column + 1 + word.size() > kTableWidth) {
      out += "\n" + indent;
      column = indent.size();
      line_empty = true;
    }
    if (!line_empty) {
      out += ' ';
      ++column;
    }
    out += word;
    column += word.size();
    line_empty = false;
    word.clear();
  };
  for (char c : note) {
    if (c == ' ') {
      flush_word();
    } else {
      word += c;
    }
  }
  flush_word();
  return out + "\n";
}

}  // namespace

std::string shortened(const std::string& text, std::size_t width) {
  if (text.size() <= width) return text;
  std::size_t keep = width > 3 ? width - 3 : 0;
  while (keep > 0 && (static_cast<unsigned char>(text[keep]) & 0xC0) == 0x80) --keep;
  while (keep > 0 && text[keep - 1] == ' ') --keep;
  return text.substr(0, keep) + "...";
}

std::string megabytes(double bytes_per_second) {
  return plain_significant(bytes_per_second * 1e-6, kHumanDigits) + " MB/s";
}

std::vector<std::string> said_once(const std::vector<std::string>& notes) {
  // "<where>: not valid: oversubscribed...": where each note is, and the reasons they give.
  static const std::string kMark = ": not valid: ";
  std::vector<std::string> where, reasons;
  std::vector<std::string> out;
  std::size_t folded_at = 0;
  for (const auto& n : notes) {
    const auto at = n.find(kMark);
    if (at != std::string::npos &&
        worker::is_oversubscription_reason(std::string_view(n).substr(at + kMark.size()))) {
      if (reasons.empty()) folded_at = out.size(), out.emplace_back();
      if (std::find(where.begin(), where.end(), n.substr(0, at)) == where.end())
        where.push_back(n.substr(0, at));
      reasons.push_back(n.substr(at + kMark.size()));
      continue;
    }
    if (std::find(out.begin(), out.end(), n) == out.end()) out.push_back(n);
  }
  if (reasons.empty()) return out;
  const std::string worst = *worker::worst_oversubscription(reasons);
  out[folded_at] = where.size() == 1
                       ? where.front() + kMark + worst
                       : std::to_string(where.size()) +
                             " results not valid, oversubscribed (more ranks on a node than "
                             "cores they may use; each result's node_cores lists its nodes): " +
                             worker::few_listed(where, kNotesListed, "; ") + "; the worst " + worst;
  return out;
}

std::string reason_cell(const std::string& reason) {
  return worker::is_oversubscription_reason(reason) ? std::string(worker::kOversubscribedPrefix)
                                                    : reason;
}

QueryColumn label_column(std::string key, std::string title) {
  if (title.empty()) title = key;
  return {std::move(key), "", std::move(title), "", 1, 0};
}

QueryColumn reason_column() {
  QueryColumn c{"reason", "", "first reason", "", 1, 0};
  c.elastic = true;
  return c;
}

std::string display_cell(const Cell& cell, const QueryColumn& column) {
  if (std::holds_alternative<std::monostate>(cell)) return "-";
  if (const auto* i = std::get_if<std::int64_t>(&cell)) return std::to_string(*i);
  if (const auto* s = std::get_if<std::string>(&cell)) return *s;
  return plain_significant(std::get<double>(cell) * column.display_scale, column.precision);
}

QueryTable human_view(QueryTable out) {
  const QueryTable& table = out;
  std::vector<std::size_t> linked;
  std::size_t unit_at = table.columns.size();
  for (std::size_t c = 0; c < table.columns.size(); ++c) {
    if (table.columns[c].unit_key.empty()) continue;
    linked.push_back(c);
    for (std::size_t u = 0; u < table.columns.size(); ++u) {
      if (table.columns[u].key == table.columns[c].unit_key) unit_at = u;
    }
  }
  for (auto& c : out.columns) c.precision = std::min(c.precision, kHumanDigits);
  // A long text that repeats the row above's (a winner's reason on its companions' rows). An
  // oversubscription is said in a word per row and once in full in the notes (said_once).
  for (std::size_t c = 0; c < out.columns.size(); ++c) {
    if (!out.columns[c].elastic) continue;
    for (auto& row : out.rows) {
      if (const auto* text = std::get_if<std::string>(&row[c])) row[c] = reason_cell(*text);
    }
    for (std::size_t r = out.rows.size(); r-- > 1;) {
      const auto* text = std::get_if<std::string>(&out.rows[r][c]);
      if (text && !text->empty() && out.rows[r - 1][c] == out.rows[r][c]) {
        out.rows[r][c] = std::string("as above");
      }
    }
  }
  // Point parameters (the column "params" of status and query points) in short keys.
  for (std::size_t c = 0; c < out.columns.size(); ++c) {
    if (out.columns[c].key != "params") continue;
    for (auto& row : out.rows) {
      if (const auto* json = std::get_if<std::string>(&row[c]))
        row[c] = store::short_parameters(*json);
    }
  }
  if (linked.empty() || unit_at == table.columns.size()) return out;
  for (auto& c : out.columns) c.unit_key.clear();
  for (auto& row : out.rows) {
    const auto* base = unit_at < row.size() ? std::get_if<std::string>(&row[unit_at]) : nullptr;
    if (base == nullptr) continue;
    // One unit for the row (compare's A and B side by side), from its first value.
    double first = 0;
    for (auto c : linked) {
      if (const auto* v = std::get_if<double>(&row[c])) {
        first = *v;
        break;
      }
    }
    const auto [shown, scale] = display_unit(*base, first);
    for (auto c : linked) {
      if (auto* v = std::get_if<double>(&row[c])) *v *= scale;
    }
    row[unit_at] = shown;
  }
  return out;
}

std::pair<std::string, double> display_unit(const std::string& base, double first) {
  if (base == "B/s") return {"MB/s", 1e-6};
  if (base == "s" && std::fabs(first) < 1) return {"us", 1e6};
  if (base == "s/B") return {"ns/B", 1e9};
  return {base, 1};
}

std::optional<std::size_t> find_column(const QueryTable& table, const std::string& key) {
  for (std::size_t i = 0; i < table.columns.size(); ++i) {
    if (table.columns[i].key == key) return i;
  }
  return std::nullopt;
}

std::size_t column_index(const QueryTable& table, const std::string& key) {
  if (const auto at = find_column(table, key)) return *at;
  throw UsageError("the table has no column '" + key + "'");
}

Format parse_format(const std::string& name) {
  if (name == "table") return Format::table;
  if (name == "csv") return Format::csv;
  if (name == "json") return Format::json;
  if (name == "markdown") return Format::markdown;
  throw UsageError("unknown format '" + name + "' (known: table, csv, json, markdown)");
}

nlohmann::json table_json(const QueryTable& table) {
  nlohmann::json columns = nlohmann::json::array();
  for (const auto& c : table.columns) columns.push_back({{"name", c.key}, {"unit", c.unit}});
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& row : table.rows) {
    nlohmann::json r = nlohmann::json::object();
    for (std::size_t i = 0; i < row.size(); ++i) r[table.columns[i].key] = to_json(row[i]);
    rows.push_back(r);
  }
  return {{"columns", columns}, {"rows", rows}, {"notes", said_once(table.notes)}};
}

void print_json(const QueryTable& table,
                const std::vector<std::pair<std::string, const QueryTable*>>& more,
                std::ostream& out) {
  auto j = table_json(table);
  for (const auto& [name, other] : more) j[name] = table_json(*other);
  out << j.dump(1, ' ', false, nlohmann::json::error_handler_t::replace) << "\n";
}

void print(QueryTable table, Format format, std::ostream& out, std::ostream& err) {
  const auto notes = format == Format::csv ? said_once(table.notes) : std::vector<std::string>{};
  out << render(std::move(table), format);
  for (const auto& note : notes) err << "note: " << note << "\n";
}

void print(QueryTable table, Format format) {
  print(std::move(table), format, std::cout, std::cerr);
}

namespace {

std::string heading_of(const QueryColumn& c) {
  return c.display_unit.empty() ? c.title : c.title + " [" + c.display_unit + "]";
}

// A pipe table with the display units; numbers right-aligned, notes as a list below.
std::string render_markdown(const QueryTable& table) {
  auto row_line = [](const std::vector<std::string>& texts) {
    std::string l = "|";
    for (const auto& t : texts) l += " " + markdown_field(t) + " |";
    return l + "\n";
  };
  std::vector<std::string> headings;
  std::string rule = "|";
  for (const auto& c : table.columns) {
    headings.push_back(heading_of(c));
    rule += c.unit.empty() ? " --- |" : " ---: |";
  }
  std::string out = row_line(headings) + rule + "\n";
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

std::string render_csv(const QueryTable& table) {
  std::string out;
  for (std::size_t i = 0; i < table.columns.size(); ++i) {
    const auto& c = table.columns[i];
    out += (i ? "," : "") + csv_field(c.unit.empty() ? c.key : c.key + " [" + c.unit + "]");
  }
  out += "\n";
  for (const auto& row : table.rows) {
    for (std::size_t i = 0; i < row.size(); ++i) out += (i ? "," : "") + csv_field(machine(row[i]));
    out += "\n";
  }
  return out;
}

// The aligned table's texts while it is fitted to kTableWidth: headings (titles, and units on a
// second line when they moved there), cells, and which columns are shown.
struct AlignedTable {
  QueryTable& table;
  std::vector<std::vector<std::string>> cells;
  std::vector<std::string> titles, units;
  std::vector<bool> shown;
  std::vector<std::size_t> elastic;

  explicit AlignedTable(QueryTable& t) : table(t), shown(t.columns.size(), true) {
    for (const auto& row : table.rows) {
      std::vector<std::string> texts;
      for (std::size_t i = 0; i < row.size(); ++i) {
        texts.push_back(display_cell(row[i], table.columns[i]));
      }
      cells.push_back(std::move(texts));
    }
    for (std::size_t i = 0; i < table.columns.size(); ++i) {
      titles.push_back(heading_of(table.columns[i]));
      units.push_back("");
      if (table.columns[i].elastic) elastic.push_back(i);
    }
  }

  std::vector<std::size_t> widths() const {
    std::vector<std::size_t> w(titles.size(), 0);
    for (std::size_t i = 0; i < w.size(); ++i) {
      w[i] = std::max(titles[i].size(), units[i].size());
      for (const auto& texts : cells) w[i] = std::max(w[i], texts[i].size());
    }
    return w;
  }

  std::size_t total(bool elastic_too) const {
    const auto w = widths();
    std::size_t sum = 0, columns = 0;
    for (std::size_t i = 0; i < w.size(); ++i) {
      if (!shown[i] || (!elastic_too && table.columns[i].elastic)) continue;
      sum += w[i];
      ++columns;
    }
    return sum + 2 * (columns > 0 ? columns - 1 : 0);
  }

  void say_whole(std::size_t i, const std::string& whole) {
    const bool said = std::any_of(table.notes.begin(), table.notes.end(),
                                  [&](const auto& note) { return note.find(whole) != note.npos; });
    // "partial: partial: stopped ..." once: a text that names its column already keeps as it is.
    const std::string prefix = table.columns[i].title + ": ";
    if (!said) table.notes.push_back(whole.rfind(prefix, 0) == 0 ? whole : prefix + whole);
  }

  // The width each elastic column has left with the headings as they are.
  std::size_t elastic_width() const {
    const std::size_t fixed = total(false) + 2 * elastic.size();
    return (kTableWidth > fixed ? kTableWidth - fixed : 0) /
           std::max<std::size_t>(1, elastic.size());
  }

  // Fitted to kTableWidth while it is wider: the elastic columns shortened to what is left
  // (kept on one heading line while that leaves them 20 characters); else the units under the
  // titles (a second heading line) and the elastic columns shortened to what is left then (at
  // least 12 characters), or left out. A shortened or left out text is said whole in a note
  // (unless a note says it already).
  void fit() {
    if (total(true) > kTableWidth && (elastic.empty() || elastic_width() < 20)) {
      for (std::size_t i = 0; i < titles.size(); ++i) {
        const auto& c = table.columns[i];
        if (c.display_unit.empty()) continue;
        titles[i] = c.title;
        units[i] = "[" + c.display_unit + "]";
      }
    }
    if (total(true) > kTableWidth && !elastic.empty()) shorten_elastic();
    // Still too wide (many fixed columns: the env column beside comm's figures): a label column
    // that says the same in every row (one sweep, one environment) leaves the table for a note.
    for (std::size_t i = 0; i < titles.size() && total(true) > kTableWidth; ++i) {
      const auto& c = table.columns[i];
      if (!shown[i] || c.elastic || !c.unit.empty() || !c.display_unit.empty() || cells.size() < 2)
        continue;
      const bool same = std::all_of(cells.begin(), cells.end(),
                                    [&](const auto& texts) { return texts[i] == cells[0][i]; });
      if (!same || cells[0][i] == "-") continue;
      shown[i] = false;
      table.notes.push_back(c.title + ": " + cells[0][i] + " in every row");
    }
  }

  void shorten_elastic() {
    const std::size_t width = elastic_width();
    const bool drop = width < std::size_t{12};
    for (auto i : elastic) {
      shown[i] = !drop;
      for (auto& texts : cells) {
        const std::string whole = texts[i];
        if (whole == "as above" || whole == "-") continue;
        texts[i] = shortened(whole, std::max(width, titles[i].size()));
        if (drop || texts[i] != whole) say_whole(i, whole);
      }
    }
  }

  std::string text() const {
    const auto w = widths();
    std::string out;
    // Appended in place, into room for every line (a history of a decade prints 100,000 rows).
    std::size_t width = 1;
    for (std::size_t i = 0; i < w.size(); ++i) width += shown[i] ? w[i] + 2 : 0;
    out.reserve(width * (cells.size() + 3));
    auto line = [&](const std::vector<std::string>& texts) {
      const auto start = out.size();
      for (std::size_t i = 0; i < texts.size(); ++i) {
        if (!shown[i]) continue;
        if (out.size() > start) out.append(2, ' ');
        out.append(w[i] - texts[i].size(), ' ').append(texts[i]);
      }
      while (out.size() > start && out.back() == ' ') out.pop_back();
      out.push_back('\n');
    };
    line(titles);
    if (std::any_of(units.begin(), units.end(), [](const auto& u) { return !u.empty(); })) {
      line(units);
    }
    std::vector<std::string> rule;
    for (auto width : w) rule.push_back(std::string(width, '-'));
    line(rule);
    for (const auto& texts : cells) line(texts);
    for (const auto& note : table.notes) out += wrapped_note(note);
    return out;
  }
};

}  // namespace

std::string render(QueryTable table, Format format) {
  const bool human = format == Format::table || format == Format::markdown;
  auto notes = said_once(table.notes);
  if (human) table = human_view(std::move(table));
  table.notes = std::move(notes);
  if (format == Format::markdown) return render_markdown(table);
  if (format == Format::json) return table_json(table).dump(1) + "\n";
  if (format == Format::csv) return render_csv(table);
  AlignedTable aligned(table);
  aligned.fit();
  return aligned.text();
}

}  // namespace pbench::query
