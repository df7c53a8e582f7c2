#include "report/TableView.hpp"

#include <cmath>

namespace pbench::report {

int TableView::index(const std::string& key) const {
  for (std::size_t i = 0; i < table_.columns.size(); ++i) {
    if (table_.columns[i].key == key) return static_cast<int>(i);
  }
  return -1;
}

double TableView::number(std::size_t row, const std::string& key) const {
  const int i = index(key);
  if (i < 0 || row >= table_.rows.size()) return NAN;
  const auto& cell = table_.rows[row][static_cast<std::size_t>(i)];
  if (const auto* d = std::get_if<double>(&cell)) return *d;
  if (const auto* n = std::get_if<std::int64_t>(&cell)) return static_cast<double>(*n);
  return NAN;
}

std::string TableView::text(std::size_t row, const std::string& key) const {
  const int i = index(key);
  if (i < 0 || row >= table_.rows.size()) return "";
  const auto& cell = table_.rows[row][static_cast<std::size_t>(i)];
  if (std::holds_alternative<std::monostate>(cell)) return "";
  return query::display_cell(cell, query::QueryColumn{});
}

}  // namespace pbench::report
