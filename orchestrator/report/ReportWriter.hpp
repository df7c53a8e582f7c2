#pragma once
// `pbench report NAME -o DIR`: DIR/index.html with the sweep's tables (the queries' rows) and
// its figures drawn by gnuplot into DIR/*.svg. What the store does not have is said ("no
// data"), never drawn as 0.
#include <filesystem>
#include <string>
#include <vector>

#include "process/ProcessRunner.hpp"
#include "store/Store.hpp"

namespace pbench::report {

struct ReportSummary {
  std::filesystem::path index;       ///< DIR/index.html
  std::vector<std::string> figures;  ///< the SVG files drawn (names in DIR)
  std::vector<std::string> no_data;  ///< what the page says has no data
};

class ReportWriter {
 public:
  ReportWriter(store::Store& store, process::ProcessRunner& runner)
      : store_(store), runner_(runner) {}
  /// Writes the report of `sweep` into `dir` (created when missing). Throws UsageError for an
  /// unknown sweep or a `dir` that is not a directory, SchedulerError when gnuplot is missing
  /// or fails.
  ReportSummary write(const std::string& sweep, const std::filesystem::path& dir);

 private:
  store::Store& store_;
  process::ProcessRunner& runner_;
};

}  // namespace pbench::report
