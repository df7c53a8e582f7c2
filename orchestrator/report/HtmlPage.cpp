#include "report/HtmlPage.hpp"

#include "report/TextSafety.hpp"

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

HtmlPage::HtmlPage(const std::string& title) : title_(title) {
  body_ += "<h1>" + html_escape(title) + "</h1>\n";
}

void HtmlPage::heading(const std::string& text, const std::string& id) {
  std::string anchor;
  for (char c : id) {
    if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-') anchor += c;
  }
  body_ += "<h2 id=\"" + anchor + "\">" + html_escape(text) + "</h2>\n";
}

void HtmlPage::subheading(const std::string& text) {
  body_ += "<h3>" + html_escape(text) + "</h3>\n";
}

void HtmlPage::paragraph(const std::string& text, const std::string& css_class) {
  body_ += css_class.empty() ? "<p>" : "<p class=\"" + html_escape(css_class) + "\">";
  body_ += html_escape(text) + "</p>\n";
}

void HtmlPage::table(const query::QueryTable& table) {
  body_ += "<table>\n<thead><tr>";
  for (const auto& c : table.columns) {
    const auto heading = c.display_unit.empty() ? c.title : c.title + " [" + c.display_unit + "]";
    body_ += "<th>" + html_escape(heading) + "</th>";
  }
  body_ += "</tr></thead>\n<tbody>\n";
  for (const auto& row : table.rows) {
    body_ += "<tr>";
    for (std::size_t i = 0; i < row.size() && i < table.columns.size(); ++i) {
      const bool number = !std::holds_alternative<std::string>(row[i]);
      body_ += number ? "<td class=\"num\">" : "<td>";
      body_ += html_escape(query::display_cell(row[i], table.columns[i])) + "</td>";
    }
    body_ += "</tr>\n";
  }
  body_ += "</tbody>\n</table>\n";
  if (table.rows.empty()) paragraph("no data: the table has no rows", "no-data");
  if (!table.notes.empty()) {
    body_ += "<ul class=\"notes\">\n";
    for (const auto& note : table.notes) body_ += "<li>" + html_escape(note) + "</li>\n";
    body_ += "</ul>\n";
  }
}

void HtmlPage::figure(const std::string& file, const std::string& alt, const std::string& caption) {
  body_ += "<figure><img src=\"" + html_escape(file) + "\" alt=\"" + html_escape(alt) +
           "\"><figcaption>" + html_escape(caption) + "</figcaption></figure>\n";
}

std::string HtmlPage::html() const {
  return "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" +
         html_escape(title_) +
         "</title>\n<style>\n"
         "body { font-family: sans-serif; margin: 2em; color: #222; background: #fff; }\n"
         "table { border-collapse: collapse; margin: 0.5em 0; font-size: 0.9em; }\n"
         "th, td { border: 1px solid #bbb; padding: 0.2em 0.5em; }\n"
         "th { background: #eee; } td.num { text-align: right; }\n"
         "figure { margin: 1em 0; } img { max-width: 100%; border: 1px solid #ddd; }\n"
         "figcaption { font-size: 0.9em; color: #444; max-width: 60em; }\n"
         ".no-data { color: #a00; font-weight: bold; }\n"
         ".notes { font-size: 0.85em; color: #444; }\n"
         "</style>\n</head>\n<body>\n" +
         body_ + "</body>\n</html>\n";
}

}  // namespace pbench::report
