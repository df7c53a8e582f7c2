#pragma once
// A worker's query table as data: its own columns, the store view it reads and in what order,
// and the notes it adds. worker_table() builds every worker's table from its description, so
// the shape they share (the sweep check, the first and last columns, the rows from the view,
// the notes on results that are not valid and on cells without a result) is written once.
// Adding a column to a worker's table touches its description (query/<Worker>Query.cpp) and
// its view in schema/store_views.sql: docs/development.md's worked example.
#include <optional>
#include <string>
#include <vector>

#include "query/QueryTable.hpp"
#include "store/Store.hpp"

namespace pbench::query {

struct WorkerTable;

/// Notes on the worker's results of `sweep` (every sweep when empty), appended to `table`.
using TableNotes = void (*)(store::Store& store, const WorkerTable& description,
                            const std::optional<std::string>& sweep, QueryTable& table);
/// Rows made by the worker rather than read from a view (links' matrices), with their notes.
using TableRows = void (*)(store::Store& store, const std::optional<std::string>& sweep,
                           QueryTable& table);

/// Which columns frame the worker's own ones.
enum class TableFrame {
  /// A row per result (or per one of its values): sweep, [env], leading, partition, nodes, ppn,
  /// the worker's columns, valid, reason.
  result,
  /// A row per node or link of a result's matrix: sweep, partition, the worker's columns,
  /// valid (no layout, environment or reason columns).
  matrix,
};

struct WorkerTable {
  const char* worker;  ///< "logp", as the worker catalog names it
  /// The worker's own columns, between the frame's first and last ones.
  std::vector<QueryColumn> columns;
  /// The store view (schema/store_views.sql) with a column per key of the table's columns,
  /// and the ORDER BY list of its rows; empty when `rows` makes them.
  const char* view = "";
  const char* order = "";
  /// Notes in the order the table says them; the missing-cell notes
  /// (query/MissingCells.hpp) always come last.
  std::vector<TableNotes> notes = {};
  TableFrame frame = TableFrame::result;
  /// Columns between "sweep" and "partition" (comm's "row").
  std::vector<QueryColumn> leading = {};
  /// Makes the rows instead of `view` (links).
  TableRows rows = nullptr;
};

/// `description`'s table of the newest result of each point of `sweep` (every sweep when
/// empty): throws UsageError for a sweep the store does not have.
QueryTable worker_table(store::Store& store, const WorkerTable& description,
                        const std::optional<std::string>& sweep);

/// Notes, one per result with no measurement: "<where>: <its first reason>" (note_where names
/// the point), "no measurement" when it gives none.
void no_measurement_notes(store::Store& store, const WorkerTable& description,
                          const std::optional<std::string>& sweep, QueryTable& table);
/// Notes, one per reason of each result that is not valid, its placement and ingest reasons
/// first: "<where>: not valid: <reason>".
void not_valid_notes(store::Store& store, const WorkerTable& description,
                     const std::optional<std::string>& sweep, QueryTable& table);
/// add_placement_notes() (query/Layout.hpp) for the worker.
void placement_notes(store::Store& store, const WorkerTable& description,
                     const std::optional<std::string>& sweep, QueryTable& table);

}  // namespace pbench::query
