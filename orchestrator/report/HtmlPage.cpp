#include "report/HtmlPage.hpp"

#include "util/TextSafety.hpp"

namespace pbench::report {

std::string html_escape(std::string_view text) {
  std::string out;
  for (char c : printable_utf8(text)) {
    switch (c) {
      case '&':
        out += "&amp;";
        break;
      case '<':
        out += "&lt;";
        break;
      case '>':
        out += "&gt;";
        break;
      case '"':
        out += "&quot;";
        break;
      case '\'':
        out += "&#39;";
        break;
      default:
        out += c;
    }
  }
  return out;
}

namespace {

/// A table's text cell escaped, with a break opportunity after each '_', '/' and ',' of a long
/// word (ring_bandwidth_per_process), so that a wide table wraps within the page (the rule of
/// the page's tables: docs/user-guide.md, "How the tables read").
std::string breakable(const std::string& text) {
  const std::string escaped = html_escape(text);
  if (escaped.size() <= 16) return escaped;
  std::string out;
  for (char c : escaped) {
    out += c;
    if (c == '_' || c == '/' || c == ',') out += "<wbr>";
  }
  return out;
}

std::string anchor_of(const std::string& id) {
  std::string anchor;
  for (char c : id) {
    if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-') anchor += c;
  }
  return anchor;
}

}  // namespace

HtmlPage::HtmlPage(const std::string& title) : title_(title) {}

void HtmlPage::header(const std::vector<std::pair<std::string, std::string>>& rows) {
  header_ += "<dl class=\"provenance\">\n";
  for (const auto& [label, text] : rows)
    header_ += "<dt>" + html_escape(label) + "</dt><dd>" + html_escape(text) + "</dd>\n";
  header_ += "</dl>\n";
}

void HtmlPage::heading(const std::string& text, const std::string& id) {
  const auto anchor = anchor_of(id);
  body_ += "<h2 id=\"" + anchor + "\">" + html_escape(text) + "</h2>\n";
  contents_.push_back({anchor, text, {}});
}

void HtmlPage::list(const std::string& lead, const std::vector<std::string>& items,
                    const std::string& css_class) {
  if (items.empty()) return;
  body_ += "<div class=\"" + html_escape(css_class) + "\"><p>" + html_escape(lead) + "</p><ul>\n";
  for (const auto& item : items) body_ += "<li>" + html_escape(item) + "</li>\n";
  body_ += "</ul></div>\n";
}

void HtmlPage::subheading(const std::string& text) {
  body_ += "<h3>" + html_escape(text) + "</h3>\n";
}

void HtmlPage::paragraph(const std::string& text, const std::string& css_class) {
  body_ += css_class.empty() ? "<p>" : "<p class=\"" + html_escape(css_class) + "\">";
  body_ += html_escape(text) + "</p>\n";
}

void HtmlPage::table(const query::QueryTable& given) {
  // The display rule of every human format (query::human_view): MB/s, us, s; no e-notation.
  const query::QueryTable table = query::human_view(given);
  body_ += "<div class=\"table\"><table>\n<thead><tr>";
  for (const auto& c : table.columns) {
    const auto heading = c.display_unit.empty() ? c.title : c.title + " [" + c.display_unit + "]";
    body_ += "<th>" + html_escape(heading) + "</th>";
  }
  body_ += "</tr></thead>\n<tbody>\n";
  for (const auto& row : table.rows) {
    body_ += "<tr>";
    for (std::size_t i = 0; i < row.size() && i < table.columns.size(); ++i) {
      const bool number = !std::holds_alternative<std::string>(row[i]);
      const std::string text = query::display_cell(row[i], table.columns[i]);
      // A long reason shortened, whole in its tooltip (and in the notes).
      const std::string shown = table.columns[i].elastic ? query::shortened(text, 80) : text;
      if (number) {
        body_ += "<td class=\"num\">";
      } else if (shown != text) {
        body_ += "<td title=\"" + html_escape(text) + "\">";
      } else {
        body_ += "<td>";
      }
      body_ += (number ? html_escape(shown) : breakable(shown)) + "</td>";
    }
    body_ += "</tr>\n";
  }
  body_ += "</tbody>\n</table></div>\n";
  if (table.rows.empty()) paragraph("no data: the table has no rows", "no-data");
  if (!table.notes.empty()) {
    body_ += "<ul class=\"notes\">\n";
    for (const auto& note : query::said_once(table.notes))
      body_ += "<li>" + html_escape(note) + "</li>\n";
    body_ += "</ul>\n";
  }
}

void HtmlPage::figure(const std::string& file, const std::string& title, const std::string& caption,
                      std::size_t width, std::size_t height) {
  const auto anchor = anchor_of(file.substr(0, file.rfind('.')));
  body_ += "<figure id=\"" + anchor + "\"><h3>" + html_escape(title) + "</h3><img src=\"" +
           html_escape(file) + "\" width=\"" + std::to_string(width) + "\" height=\"" +
           std::to_string(height) + "\" alt=\"" + html_escape(title) + "\"><figcaption>" +
           html_escape(caption) + "</figcaption></figure>\n";
  if (!contents_.empty()) contents_.back().figures.emplace_back(anchor, title);
}

std::string HtmlPage::html() const {
  std::string contents;
  if (!contents_.empty()) {
    contents = "<nav class=\"contents\"><h2>Contents</h2>\n<ol>\n";
    for (const auto& entry : contents_) {
      contents += "<li><a href=\"#" + entry.id + "\">" + html_escape(entry.text) + "</a>";
      if (!entry.figures.empty()) {
        contents += "<ul>";
        for (const auto& [id, text] : entry.figures)
          contents += "<li><a href=\"#" + id + "\">" + html_escape(text) + "</a></li>";
        contents += "</ul>";
      }
      contents += "</li>\n";
    }
    contents += "</ol>\n</nav>\n";
  }
  return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" +
         html_escape(title_) +
         "</title>\n<style>\n"
         "body { font-family: sans-serif; font-size: 16px; margin: 2em; color: #222; "
         "background: #fff; max-width: 1260px; }\n"
         "table { border-collapse: collapse; margin: 0.5em 0; font-size: 0.9em; }\n"
         "th, td { border: 1px solid #bbb; padding: 0.2em 0.5em; }\n"
         // The tables within the page: text cells wrap (numbers never), and a table still
         // wider than the page scrolls in its box with its first (key) column kept in view.
         "div.table { overflow-x: auto; max-width: 100%; }\n"
         "th, td { overflow-wrap: anywhere; } td.num { white-space: nowrap; "
         "overflow-wrap: normal; }\n"
         "th:first-child, td:first-child { position: sticky; left: 0; z-index: 1; "
         "background: #fff; } th:first-child { background: #eee; }\n"
         "th { background: #eee; } td.num { text-align: right; }\n"
         "figure { margin: 1.5em 0; } figure h3 { margin: 0 0 0.3em 0; }\n"
         "img { max-width: 100%; height: auto; border: 1px solid #ddd; }\n"
         "figcaption { font-size: 0.95em; color: #444; max-width: 70em; }\n"
         "dl.provenance { display: grid; grid-template-columns: max-content auto; "
         "gap: 0.2em 1em; margin: 0.5em 0 1em 0; }\n"
         "dl.provenance dt { font-weight: bold; } dl.provenance dd { margin: 0; "
         "overflow-wrap: anywhere; }\n"
         "nav.contents { border: 1px solid #ddd; background: #f8f8f8; padding: 0.3em 1em; "
         "margin-bottom: 1em; } nav.contents h2 { font-size: 1.1em; margin: 0.3em 0; }\n"
         "nav.contents ul { font-size: 0.9em; }\n"
         ".no-data { color: #a00; font-weight: bold; }\n"
         ".not-valid { border-left: 4px solid #c60; padding-left: 0.8em; color: #630; }\n"
         ".not-valid p { margin: 0.3em 0; font-weight: bold; }\n"
         ".notes { font-size: 0.9em; color: #444; }\n"
         "</style>\n</head>\n<body>\n<h1>" +
         html_escape(title_) + "</h1>\n" + header_ + contents + body_ + "</body>\n</html>\n";
}

}  // namespace pbench::report
