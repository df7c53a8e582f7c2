#pragma once
// What a bcast run hands on: the result document's tables, summary metrics, validity and
// warnings, and the readable protocol rank 0 prints (a table per size: OL with its task beside
// each classic method's figure, then the OL_i profile over tasks).
//
// Summary metrics (the orchestrator reads exactly these), labels {"size": bytes} each:
//   ol [s], ol_task [rank], send_latency [s], rounds_latency [s], barrier_latency [s],
//   ack_latency [s], max_gap [s]; samples = measurements x M behind the value.
// Tables:
//   ol_i        size, task, rtl, e_i, ol_i, gap, assumption_holds   (one row per size and task)
//   statistics  size, method, task, mean, stddev, min, max, measurements, repetitions, stable
//               (every figure: gap per rank, send_latency, rtl, e_i, ol_i per task, and the
//               classic methods; stable = the 3% rule ended the measurements)
//   samples     size, method, task, measurement, value              (every measurement)
//   delivery    size, root, ranks, wrong     (the byte check from every root: ranks that
//               should receive, ranks that ended with wrong bytes)
//   ol_model    size, task, model_ol_i, ol_i   (with a synthetic hop delay: the model's OL_i)
#include <ostream>
#include <string>

#include "bcast/BcastMeasurements.hpp"
#include "bcast/BcastSummary.hpp"
#include "common/ResultDocument.hpp"

namespace pbench::bcast {

class BcastReport {
 public:
  /// The report of a run's measurements (reduced once, here).
  explicit BcastReport(BcastMeasurements measurements);

  /// Adds tables, metrics, validity reasons and warnings to `result`.
  void write(worker::ResultDocument& result) const;
  /// Prints the protocol.
  void print(std::ostream& out) const;

  const BcastSummary& summary() const { return summary_; }
  const BcastMeasurements& measurements() const { return measurements_; }

 private:
  BcastMeasurements measurements_;
  BcastSummary summary_;
};

/// How the method was chosen: "--method sync", or "--method auto: 32 processes >= 16".
std::string method_origin(const BcastMeasurements& m);
/// The tables method and classic_sample, and with --method sync: sync (a row per size: window,
/// windows, spoiled, OL, its task, predicted clock error, learnings), sync_arrival (a row per
/// size and rank: mean arrival after the window's start, missed windows, the hop-delay model),
/// sync_check (the cross-checked tasks by both methods) and clock (a row per rank: offset and
/// drift against rank 0, predicted and measured error) (SyncReport.cpp).
void write_method_tables(const BcastMeasurements& m, const BcastSummary& s,
                         worker::ResultDocument& result);
/// The protocol's lines of the sync series of one size.
void print_sync(const BcastMeasurements& m, const SizeSummary& size, std::ostream& out);
/// The protocol's clock table.
void print_clock(const BcastMeasurements& m, const BcastSummary& s, std::ostream& out);

}  // namespace pbench::bcast
