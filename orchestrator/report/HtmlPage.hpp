#pragma once
// The report's page: headings, paragraphs, query tables and figures, every text HTML-escaped.
#include <string>
#include <string_view>

#include "query/QueryTable.hpp"

namespace pbench::report {

/// `text` for HTML text and attribute values: & < > " ' as entities, control characters as
/// spaces, invalid UTF-8 as '?'.
std::string html_escape(std::string_view text);

class HtmlPage {
 public:
  /// A page with this title (also its first heading).
  explicit HtmlPage(const std::string& title);
  /// A section heading (level 2) with an anchor id made of [a-z0-9-] from `id`.
  void heading(const std::string& text, const std::string& id);
  /// A smaller heading (level 3).
  void subheading(const std::string& text);
  /// A paragraph of text; `css_class` "no-data" marks a missing figure or table.
  void paragraph(const std::string& text, const std::string& css_class = "");
  /// A table with display units in the headings, then its notes as a list.
  void table(const query::QueryTable& table);
  /// An image of the report directory (`file` is a plain file name) with alt text and caption.
  void figure(const std::string& file, const std::string& alt, const std::string& caption);
  /// The whole document.
  std::string html() const;

 private:
  std::string title_;
  std::string body_;
};

}  // namespace pbench::report
