#pragma once
// `pbench store verify`: SQLite's full integrity_check of the store, then every stored result
// held to what ingest made of its document: the document to its SHA-256 (document_hash), the
// typed columns copied from it, and the metric rows made again from its summary
// (ingest/MetricRows.hpp), and the kept headline answers (what `query system` reads) made again
// from the metric rows. And the store against the runs directory: each result's document as its
// attempt's result.json on disk (its canonical form's SHA-256 against the store's, its bytes
// against the result.sha256 collect recorded beside it). Each difference is named: result id, sweep
// and point, metric, the stored value beside the document's.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "store/Store.hpp"

namespace pbench::ingest {

struct VerifyProblem {
  /// integrity (SQLite's check), runs (the document in the runs directory differs from the
  /// stored one), document (its SHA-256 or JSON), column (a typed column copied
  /// from the document), metric (a metric row), headline (a kept headline answer that differs
  /// from what the metric rows give now).
  std::string kind;
  std::optional<std::int64_t> result_id;
  std::string sweep;     ///< the sweep of the result's point ("" for a result without a point)
  std::string point;     ///< store::describe_point of it
  std::string metric;    ///< "logp_g {"queue_depth":1}" for a metric row; the column's name
  std::string stored;    ///< the store's value as text ("-": no such row)
  std::string document;  ///< the document's value as text ("-": no such row)
  std::string message;   ///< the whole problem in one line
};

struct VerifyReport {
  std::string path;
  std::vector<std::string> integrity;   ///< what integrity_check said is wrong (empty: "ok")
  std::int64_t results = 0;             ///< results whose documents were read
  std::int64_t metric_rows = 0;         ///< metric rows compared
  std::int64_t on_disk = 0;             ///< documents compared with their files on disk
  /// Results whose document is not in the runs directory (its attempt's result.json gone), one
  /// line each: the store holds them; not a damage of the store.
  std::vector<std::string> missing_on_disk;
  std::vector<VerifyProblem> problems;  ///< every problem, integrity_check's first
  bool damaged() const { return !problems.empty(); }
};

/// Verifies the whole store (reads only). A store SQLite cannot read to the end is reported
/// with what it said, not thrown. A store that Store::open refuses as damaged is verified
/// through its Database alone.
VerifyReport verify_store(store::Database& db);

/// A double as text that tells any two different doubles apart ("0.15629999999999999").
std::string exact_number(double value);

}  // namespace pbench::ingest
