#pragma once
// A query's answer: typed columns with base units (and a display unit for the aligned table),
// rows of cells, and notes; printed as an aligned table, CSV, JSON or a Markdown table.
#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "store/PointLabel.hpp"
#include "util/NumberText.hpp"

namespace pbench::query {

struct QueryColumn {
  std::string key;           ///< machine name (CSV header, JSON key)
  std::string unit;          ///< base unit of the stored value ("s", "B/s", "" for labels)
  std::string title;         ///< table heading
  std::string display_unit;  ///< unit shown in the table ("us")
  double display_scale = 1;  ///< value * scale = display value
  int precision = 3;         ///< significant digits in the table
  /// The key of the column whose text gives each row's base unit ("B/s", "s"), for a value
  /// column of rows of mixed units (query system, compare); empty when `unit` says it.
  std::string unit_key = {};
  /// Long text (a result's first reason): the aligned table shortens it to fit kTableWidth
  /// (the whole text is in the notes, CSV and JSON), and the human formats show a cell that
  /// repeats the one above it as "as above".
  bool elastic = false;
};

/// The widest line of an aligned table (and of its notes, which wrap) in characters.
inline constexpr std::size_t kTableWidth = 160;
/// The most significant digits a number has in the human formats (3-4, the worker tables').
inline constexpr int kHumanDigits = 4;

/// The column "reason" of a table of results: a result's first reason (elastic).
QueryColumn reason_column();
/// A column of labels or counts ("worker", "attempts"): no unit, shown as they are; headed
/// `title`, or by its key when there is none.
QueryColumn label_column(std::string key, std::string title = {});

/// Empty (missing), a number, an integer label, or text.
using Cell = std::variant<std::monostate, double, std::int64_t, std::string>;

struct QueryTable {
  std::vector<QueryColumn> columns;
  std::vector<std::vector<Cell>> rows;
  std::vector<std::string> notes;  ///< printed under the table (and in JSON)
};

/// The index of the column `key` of `table`, or nullopt when it has none (env, for one).
std::optional<std::size_t> find_column(const QueryTable& table, const std::string& key);
/// The index of the column `key` of `table`; throws UsageError when it has none.
std::size_t column_index(const QueryTable& table, const std::string& key);

enum class Format { table, csv, json, markdown };
/// "table", "csv", "json" or "markdown"; throws UsageError otherwise.
Format parse_format(const std::string& name);
/// A cell as the aligned table shows it: in the column's display unit and precision, "-" when
/// missing.
std::string display_cell(const Cell& cell, const QueryColumn& column);
/// A note list lists at most this many places (results, rows), then says how many more.
inline constexpr std::size_t kNotesListed = 3;
/// `notes` as every format shows them: each once (a note repeated for several rows is one
/// note), and the notes "<where>: not valid: <oversubscription reason>" of several results as
/// one note that counts them, names a few and gives the worst reason (an oversubscribed sweep
/// is said once, not per row).
std::vector<std::string> said_once(const std::vector<std::string>& notes);
/// A result's reason as a human table's cell shows it: an oversubscription reason as the word
/// "oversubscribed" (said_once() gives it in full once), any other as it is.
std::string reason_cell(const std::string& reason);
/// Renders a table in a format (taken by value: a table moved in is not copied, which a history
/// of every figure of a decade, 100,000 rows, notices). Notes are said_once(); CSV has none (print() sends them to
/// stderr), JSON has them in "notes".
std::string render(QueryTable table, Format format);
/// Renders `table` to `out` and, for CSV, its notes to `err` ("note: ..."), so that the data
/// stream holds data alone.
void print(QueryTable table, Format format, std::ostream& out, std::ostream& err);
/// print() to stdout and stderr.
void print(QueryTable table, Format format);
/// A table as the one schema of every command's `--format json`: {"columns": [{"name", "unit"}],
/// "rows": [{KEY: value}], "notes": [...]}, values in base units, missing ones null.
nlohmann::json table_json(const QueryTable& table);
/// `table` as JSON (table_json) with each further table of the command under its name in the
/// same form ("partitions": {"columns", "rows", "notes"}), to `out`.
void print_json(const QueryTable& table,
                const std::vector<std::pair<std::string, const QueryTable*>>& more,
                std::ostream& out);

/// The one display rule of the human formats (table, markdown, the report's tables): a value
/// whose row gives its base unit in another column (unit_key: query system, compare, history,
/// check) is shown as the worker tables show it, B/s as MB/s, s as us below a second and as s
/// above, s/B as ns/B; the unit column says the unit shown; numbers with at most kHumanDigits
/// significant digits; an elastic cell as reason_cell() shows it, and as "as above" when it
/// repeats the one above it; a column
/// "params" (a point's parameters as JSON) in short_parameters(). CSV and JSON keep the base
/// units, every digit and the whole text.
QueryTable human_view(QueryTable table);
/// The unit a value of base unit `base` is shown in, and the factor to it, by that rule: B/s as
/// MB/s, s as us when `first` (the first or largest value) is below a second, s/B as ns/B; any
/// other as it is. The report's figures use it too.
std::pair<std::string, double> display_unit(const std::string& base, double first);

/// A bandwidth in a note as the tables show it: "1979 MB/s" (kHumanDigits digits).
std::string megabytes(double bytes_per_second);

/// `text` cut to at most `width` bytes, ending in "..." when cut (never inside a UTF-8
/// character).
std::string shortened(const std::string& text, std::size_t width);

}  // namespace pbench::query
