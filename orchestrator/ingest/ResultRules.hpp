#pragma once
// The rules of the result contract that its JSON Schema cannot express, checked after the schema
// (JsonSchema.hpp) has passed a document. Each problem is "at <JSON pointer>: ..." (Problem.hpp):
//   at /measurements/pingpong/rows/2: 3 values for 4 columns
//   at /measurements/pingpong/columns/2/name: duplicate column name "rtt" (first at column 1)
//   at /ended_at: ended_at 2026-11-22T07:50:00Z is before started_at 2026-11-22T07:51:00Z
//   at /summary/1: duplicate metric "latency" with labels {"size":0} (first at /summary/0)
//   at /summary/3: unknown metric "eel" of worker "logp" (not in the metric catalogue; ...)
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace pbench::ingest {

class ResultRules {
 public:
  /// The largest result document stored (its text): far above any worker's result (a bcast run
  /// of 10,000 tasks writes about 15 MB of OL_i rows), far below what would strain the store.
  static constexpr std::size_t kMaxDocumentBytes = std::size_t{64} << 20;
  /// The longest string (value or key) in a document: comm's list of crossing neighbours, the
  /// longest string a worker writes, stays below it up to about 80,000 node-crossing links.
  static constexpr std::size_t kMaxStringBytes = std::size_t{1} << 20;

  /// The strings and keys of `doc` longer than kMaxStringBytes, each named by its JSON pointer:
  /// "at /warnings/0: a string of 10000000 bytes, more than the 1048576 (1 MiB) a field may
  /// hold". Checked before the schema, so that no validator reads such a string.
  static std::vector<std::string> size_problems(const nlohmann::json& doc);

  /// The problems of `doc`: a row without one value per column of its table, two columns of a
  /// table with one name, ended_at before started_at (fractions of a second compared as
  /// decimals), two summary metrics with the same name and labels (4 and 4.0 being the same
  /// label value), a metric the metric catalogue does not hold for the worker or holds in
  /// another unit. Parts not shaped as the schema says are skipped, not fatal.
  static std::vector<std::string> problems(const nlohmann::json& doc);
};

}  // namespace pbench::ingest
