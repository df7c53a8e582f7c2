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

  IoMeasurements m_;
  IoFigures figures_;
  std::vector<std::string> reasons_;
  std::vector<std::string> warnings_;
};

/// The quantities of a run that cannot be <= 0 (every pattern's and type's time, every
/// bandwidth and b_eff_io) or fall short of their parts (a type's time of its patterns', a
/// partition's elapsed time of all its patterns'); IoReport lists their reasons first (after a
/// partial result's).
worker::PhysicalLimits physical_limits(const IoMeasurements& measurements,
                                       const IoFigures& figures);

/// What the result's b_eff_io is (the run table's b_eff_io_definition).
extern const char* const kDefinition;
/// Where pbench-io deliberately differs from b_eff_io rev 2.1: aspect, pbench, rev 2.1; with the
/// time guard's row when it is on (`guard_factor`), the test delay's when one was used, and the
/// I/O buffer's when it does not start where rev 2.1's malloc puts its buffers, and the
/// elementary type's when M_PART (`m_part`, bytes) is not whole doubles, so the run counts bytes.
std::vector<std::array<std::string, 3>> deliberate_differences(
    const std::optional<double>& guard_factor, double collective_write_delay,
    std::int64_t buffer_offset = kRev21BufferOffset, std::int64_t m_part = kMinPartChunk);

/// Decimal megabytes per second, as the original protocol prints: "123.4 MB/s".
std::string megabytes_per_second(double bytes_per_second);

}  // namespace pbench::io
