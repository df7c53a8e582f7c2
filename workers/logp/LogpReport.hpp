#pragma once
// What a logp run hands on: the result document's tables, summary metrics, validity and
// warnings, and the readable protocol rank 0 prints.
//
// Summary metrics (the orchestrator's query reads exactly these; values are means over pairs):
//   eel_min, eel_median, o_s, o_r, latency_l, overlap_potential [s], labels {}
//   g [s], big_g [s/B], bandwidth [B/s], large_message_threshold [B],
//   protocol_switches [count], labels {"queue_depth": q}
//   g_best [s], labels {"queue_depth": the best q}
#include <ostream>

#include "common/ResultDocument.hpp"
#include "logp/LogpMeasurements.hpp"
#include "logp/LogpSummary.hpp"

namespace pbench::logp {

class LogpReport {
 public:
  /// The report of a run's measurements (reduced once, here).
  explicit LogpReport(LogpMeasurements measurements);

  /// Adds tables, metrics, validity reasons and warnings to `result`.
  void write(worker::ResultDocument& result) const;
  /// Prints the protocol: EEL, the flood table, the fitted segments, overheads, derived values.
  void print(std::ostream& out) const;

  const LogpSummary& summary() const { return summary_; }
  const LogpMeasurements& measurements() const { return measurements_; }

 private:
  // write()'s parts, in the document's order: where the pairs ran (returns the pairs between
  // nodes), the EEL runs and how they were timed, the flood and its fit, the overlap test and
  // the busy loop's calibration, the metrics.
  std::size_t write_pairs(worker::ResultDocument& result) const;
  void write_eel(worker::ResultDocument& result) const;
  void write_flood(worker::ResultDocument& result) const;
  void write_overlap(worker::ResultDocument& result) const;
  void write_metrics(worker::ResultDocument& result, std::size_t internode) const;
  LogpMeasurements measurements_;
  LogpSummary summary_;
};

}  // namespace pbench::logp
