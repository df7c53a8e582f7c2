#pragma once
// `pbench report NAME -o DIR`: DIR/index.html with the sweep's provenance, a table of contents,
// a section per worker the sweep ran (its table, the reasons of results that are not valid, its
// figures drawn by gnuplot into DIR/*.svg). What the store does not have is said ("no data"),
// never drawn as 0.
#include <filesystem>
#include <string>
#include <vector>

#include "process/ProcessRunner.hpp"
#include "store/Store.hpp"

namespace pbench::report {

struct ReportOptions {
  /// Bandwidth axes logarithmic; by default they are linear from 0.
  bool log_bandwidth = false;
};

struct ReportSummary {
  std::filesystem::path index;        ///< DIR/index.html
  std::vector<std::string> figures;   ///< the SVG files drawn (names in DIR)
  std::vector<std::string> no_data;   ///< what the page says has no data
  std::vector<std::string> sections;  ///< the sections' anchors, in page order
};

class ReportWriter {
 public:
  ReportWriter(store::Store& store, process::ProcessRunner& runner)
      : store_(store), runner_(runner) {}
  /// Writes the report of `sweep` into `dir` (created when missing). Throws UsageError for an
  /// unknown sweep or a `dir` that is not a directory, SchedulerError when gnuplot is missing
  /// or fails.
  ReportSummary write(const std::string& sweep, const std::filesystem::path& dir,
                      const ReportOptions& options = {});

 private:
  store::Store& store_;
  process::ProcessRunner& runner_;
};

}  // namespace pbench::report
