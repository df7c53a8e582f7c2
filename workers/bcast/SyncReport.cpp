// The synchronized-clock method's part of the bcast report (BcastReport.hpp): its tables in the
// result document and its lines in the protocol.
#include <cstdio>
#include <string>

#include "bcast/BcastReport.hpp"
#include "common/TextFormat.hpp"

namespace pbench::bcast {

using worker::microseconds;

namespace {

using nlohmann::json;

std::string rank_list_text(const std::vector<int>& ranks) {
  std::string out;
  for (int r : ranks) out += (out.empty() ? "" : ",") + std::to_string(r);
  return out;
}

/// The rows of the per-rank arrivals of one size (every rank; the root's own return too).
void add_arrivals(worker::Table& table, const BcastMeasurements& m, const SizeSummary& z) {
  const SyncSummary& sy = *z.sync;
  const double hop = m.parameters.hop_delay_us * 1e-6;
  for (std::size_t j = 0; j < sy.arrivals.size(); ++j) {
    const int rank = static_cast<int>(j);
    json model;
    if (m.shape && hop > 0 && rank != m.parameters.root) {
      model = m.shape->model_completion(relative_rank(rank, m.parameters.root, m.nprocs), hop);
    }
    table.add_row({z.size, rank, sy.arrivals[j].mean, sy.arrivals[j].stddev, sy.arrivals[j].count,
                   j < sy.missed.size() ? sy.missed[j] : 0, model});
  }
}

}  // namespace

std::string method_origin(const BcastMeasurements& m) {
  if (m.parameters.method != "auto") return "--method " + m.parameters.method;
  return "--method auto: " + std::to_string(m.nprocs) + " process" + (m.nprocs == 1 ? "" : "es") +
         (m.method == "sync" ? " >= " : " < ") + std::to_string(kSyncFromProcesses);
}

void write_method_tables(const BcastMeasurements& m, const BcastSummary& s,
                         worker::ResultDocument& result) {
  worker::Table method({{"method", ""}, {"origin", ""}});
  method.add_row({m.method, method_origin(m)});
  result.add_table("method", method.columns()) = std::move(method);
  worker::Table sample({{"method", ""}, {"ranks", "count"}, {"of", "count"}, {"list", ""}});
  sample.add_row({"rounds_latency", m.round_roots.size(), m.nprocs, rank_list_text(m.round_roots)});
  sample.add_row({"ack_latency", m.ack_tasks.size(), m.nprocs - 1, rank_list_text(m.ack_tasks)});
  if (!m.sizes.empty()) {
    const auto& roots = m.sizes.front().delivery_roots;
    sample.add_row({"delivery", roots.size(), m.nprocs, rank_list_text(roots)});
  }
  result.add_table("classic_sample", sample.columns()) = std::move(sample);
  if (m.method != "sync") return;

  result.add_seed("check_task", m.seed);
  worker::Table series({{"size", "B"},
                        {"window", "s"},
                        {"windows", "count"},
                        {"spoiled", "count"},
                        {"ol", "s"},
                        {"ol_task", ""},
                        {"measurements", "count"},
                        {"stable", ""},
                        {"predicted_error", "s"},
                        {"learnings", "count"}});
  worker::Table arrivals({{"size", "B"},
                          {"rank", ""},
                          {"arrival", "s"},
                          {"stddev", "s"},
                          {"measurements", "count"},
                          {"missed", "count"},
                          {"model", "s"}});
  worker::Table check({{"size", "B"},
                       {"task", ""},
                       {"sync_ol_i", "s"},
                       {"ol_i", "s"},
                       {"allowed", "s"},
                       {"agree", ""},
                       {"random", ""}});
  for (const SizeSummary& z : s.sizes) {
    if (!z.sync) continue;
    const SyncSummary& sy = *z.sync;
    series.add_row({z.size, sy.window, sy.windows, sy.spoiled, z.ol, z.ol_task, sy.ol.stats.count,
                    sy.ol.stable, sy.predicted_error, sy.learnings});
    add_arrivals(arrivals, m, z);
    for (const CheckRow& c : sy.checks) {
      check.add_row({z.size, c.task, c.sync, c.ol_i, c.allowed, c.agree, c.random});
    }
  }
  worker::Table clock({{"rank", ""},
                       {"offset", "s"},
                       {"drift", "ppm"},
                       {"drift_uncertainty", "ppm"},
                       {"predicted_error", "s"},
                       {"measured_error", "s"},
                       {"check_uncertainty", "s"}});
  for (std::size_t j = 0; j < m.clocks.size(); ++j) {
    const ClockRecord& c = m.clocks[j];
    clock.add_row({static_cast<int>(j), c.offset, c.drift_ppm, c.drift_uncertainty_ppm,
                   c.predicted_error, c.measured_error, c.check_uncertainty});
  }
  result.add_table("sync", series.columns()) = std::move(series);
  result.add_table("sync_arrival", arrivals.columns()) = std::move(arrivals);
  result.add_table("sync_check", check.columns()) = std::move(check);
  result.add_table("clock", clock.columns()) = std::move(clock);
}

void print_sync(const BcastMeasurements& m, const SizeSummary& z, std::ostream& out) {
  if (!z.sync) return;
  const SyncSummary& sy = *z.sync;
  out << "  synchronized windows: " << sy.windows << " of " << microseconds(sy.window) << ", "
      << sy.spoiled << " missed by some rank; clock predicted error "
      << microseconds(sy.predicted_error) << " at the start (" << sy.learnings << " learning(s))\n";
  for (const CheckRow& c : sy.checks) {
    out << "  cross-check task " << c.task << (c.random ? " (random)" : " (latest)") << ": sync "
        << microseconds(c.sync) << ", OL_i " << microseconds(c.ol_i) << ": "
        << (c.agree ? "agree" : "DISAGREE") << " (allowed " << microseconds(c.allowed) << ")\n";
  }
  (void)m;
}

void print_clock(const BcastMeasurements& m, const BcastSummary& s, std::ostream& out) {
  if (m.method != "sync") return;
  out << "\nclocks against rank 0 (" << m.learnings << " learning(s); largest measured error "
      << microseconds(s.clock_error) << ", bound "
      << microseconds(m.parameters.clock_error_bound_us * 1e-6) << ")\n";
  out << "  " << worker::pad_left("rank", 6) << worker::pad_left("offset [s]", 16)
      << worker::pad_left("drift [ppm]", 13) << worker::pad_left("predicted", 14)
      << worker::pad_left("measured", 14) << "\n";
  for (std::size_t j = 0; j < m.clocks.size(); ++j) {
    const ClockRecord& c = m.clocks[j];
    char offset[32], drift[32];
    std::snprintf(offset, sizeof(offset), "%.6f", c.offset);
    std::snprintf(drift, sizeof(drift), "%.2f", c.drift_ppm);
    out << "  " << worker::pad_left(std::to_string(j), 6) << worker::pad_left(offset, 16)
        << worker::pad_left(drift, 13) << worker::pad_left(microseconds(c.predicted_error), 14)
        << worker::pad_left(microseconds(c.measured_error), 14) << "\n";
  }
}

}  // namespace pbench::bcast
