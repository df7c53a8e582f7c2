#pragma once
// What an io run hands on: the result document's tables, summary metrics, validity and
// warnings, and the readable protocol rank 0 prints (one line per pattern as it ends, a summary
// table per partition like the original's, and the final b_eff_io line).
//
// Summary metrics (the orchestrator's query reads these; all in B/s unless said):
//   b_eff_io (rev 2.1's sqrt(WR * R)), b_eff_io_paper (0.25 write + 0.25 rewrite + 0.5 read),
//   schedule_time (T) [s], partition_time (Tn) [s], elapsed [s]    labels {"partition": n}
//   access_bandwidth, access_bytes [B]            labels {"partition": n, "access": a}
//   type_bandwidth                                labels {"partition", "access", "type"}
//   b_eff_io_system, b_eff_io_paper_system        labels {"partition": the partition that won}
//   read_errors [count]                           labels {}
//   run_elapsed [s]                               labels {}: the whole run, against T
//   cut_rows [count]                              labels {}: rows the time guard cut
#include <array>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "common/PhysicalLimits.hpp"
#include "common/ResultDocument.hpp"
#include "io/DeliberateDifferences.hpp"
#include "io/HintsInEffect.hpp"
#include "io/IoFigures.hpp"
#include "io/IoMeasurements.hpp"
#include "io/IoParameters.hpp"

namespace pbench::io {

class IoReport {
 public:
  /// The report of a run's measurements (reduced once, here).
  explicit IoReport(IoMeasurements measurements);

  /// The protocol's heading, before the measurement starts.
  static void print_header(std::ostream& out, int nprocs, const std::vector<int>& partitions,
                           const Schedule& schedule, const char* termination,
                           const std::optional<double>& guard_factor, std::int64_t buffer_offset);
  /// The protocol line of one pattern.
  static void print_pattern(std::ostream& out, const PatternMeasurement& m);

  /// Adds tables, metrics, validity reasons and warnings to `result`.
  void write(worker::ResultDocument& result) const;
  /// Prints the summary tables per partition and the final b_eff_io line.
  void print(std::ostream& out) const;

  const IoFigures& figures() const { return figures_; }
  /// Why the result is not an official b_eff_io (empty when it is).
  const std::vector<std::string>& reasons() const { return reasons_; }
  const std::vector<std::string>& warnings() const { return warnings_; }

 private:
  /// Sum of T_pattern and of the measured times of a partition's time-driven patterns [s].
  std::pair<double, double> time_driven(int partition) const;
  /// Pattern rows the time guard cut.
  std::int64_t cut_rows() const;
  // The constructor's judgement, by what it looks at: the run as a whole (a stop, physical
  // limits, Tn, the shared file pointer), faults (failed calls, read checks, test faults), time
  // (the guard, the elapsed bound, the plan) and volume (the cache check, the probe, M_PART,
  // the time-driven budget).
  void judge_run();
  void judge_faults();
  void judge_time();
  void judge_volume();
  // write()'s parts, in the document's order: the rows (patterns, types, time account), the
  // partitions (accesses, partitions and their metrics), the run's totals, the hints, the run
  // table and the differences from rev 2.1.
  void write_rows(worker::ResultDocument& result) const;
  void write_partitions(worker::ResultDocument& result) const;
  void write_totals(worker::ResultDocument& result, const HintCheck& hint_check) const;
  void write_hints(worker::ResultDocument& result) const;
  void write_run(worker::ResultDocument& result) const;

  IoMeasurements m_;
  IoFigures figures_;
  std::vector<std::string> reasons_;
  std::vector<std::string> warnings_;
};

/// Decimal megabytes per second, as the original protocol prints: "123.4 MB/s".
std::string megabytes_per_second(double bytes_per_second);

}  // namespace pbench::io
