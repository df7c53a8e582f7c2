#pragma once
// The report's page: a header, a table of contents made of the section headings (so a new
// section appears in it by adding its heading), paragraphs, query tables and figures, every
// text HTML-escaped.
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "query/QueryTable.hpp"

namespace pbench::report {

/// `text` for HTML text and attribute values: & < > " ' as entities, control characters as
/// spaces, invalid UTF-8 as '?'.
std::string html_escape(std::string_view text);

class HtmlPage {
 public:
  /// A page with this title (also its first heading).
  explicit HtmlPage(const std::string& title);
  /// The header under the title: (label, text) rows, e.g. the provenance.
  void header(const std::vector<std::pair<std::string, std::string>>& rows);
  /// A section heading (level 2) with an anchor id made of [a-z0-9-] from `id`, listed in the
  /// table of contents.
  void heading(const std::string& text, const std::string& id);
  /// A smaller heading (level 3).
  void subheading(const std::string& text);
  /// A lead sentence and its items as a list (e.g. the reasons of results that are not
  /// valid), in a block of class `css_class`; nothing when `items` is empty.
  void list(const std::string& lead, const std::vector<std::string>& items,
            const std::string& css_class);
  /// A paragraph of text; `css_class` "no-data" marks a missing figure or table.
  void paragraph(const std::string& text, const std::string& css_class = "");
  /// A table with display units in the headings, then its notes as a list.
  void table(const query::QueryTable& table);
  /// An image of the report directory (`file` is a plain file name, its stem the anchor) under
  /// its title (a level-3 heading, listed in the contents under its section), drawn at
  /// `width` x `height` px (smaller on a narrower window), with its caption.
  void figure(const std::string& file, const std::string& title, const std::string& caption,
              std::size_t width, std::size_t height);
  /// The table of contents: (anchor, text) of each section and, under it, its figures.
  struct Entry {
    std::string id;
    std::string text;
    std::vector<std::pair<std::string, std::string>> figures;
  };
  const std::vector<Entry>& contents() const { return contents_; }
  /// The whole document.
  std::string html() const;

 private:
  std::string title_;
  std::string header_;
  std::string body_;
  std::vector<Entry> contents_;
};

}  // namespace pbench::report
