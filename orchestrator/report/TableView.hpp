#pragma once
// Reads a query table's cells by column key, as numbers (NaN when missing) or text.
#include <string>

#include "query/QueryTable.hpp"

namespace pbench::report {

class TableView {
 public:
  explicit TableView(const query::QueryTable& table) : table_(table) {}
  /// True when the table has a column `key`.
  bool has(const std::string& key) const { return index(key) >= 0; }
  /// The cell of `row` in column `key` as a number; NaN when missing, text or no such column.
  double number(std::size_t row, const std::string& key) const;
  /// The cell as text ("" when missing or no such column; numbers printed).
  std::string text(std::size_t row, const std::string& key) const;
  /// False when the table has a "valid" column that says "no" in `row`.
  bool valid(std::size_t row) const { return text(row, "valid") != "no"; }
  std::size_t rows() const { return table_.rows.size(); }

 private:
  int index(const std::string& key) const;
  const query::QueryTable& table_;
};

}  // namespace pbench::report
