#include "bcast/BcastReport.hpp"

#include <cstdio>
#include <string>

#include "bcast/Broadcaster.hpp"

#include "common/TextFormat.hpp"

namespace pbench::bcast {

using worker::fixed;
using worker::pad_left;
using worker::pad_right;

namespace {

/// The host of `task`, or "?" when the run did not record it.
std::string host_of(const BcastMeasurements& m, int task) {
  if (task < 0 || task >= static_cast<int>(m.rank_hosts.size())) return "?";
  return m.rank_hosts[static_cast<std::size_t>(task)];
}

using nlohmann::json;

std::string format(const char* pattern, double value) {
  char text[64];
  std::snprintf(text, sizeof(text), pattern, value);
  return text;
}

/// A time with a unit that suits it: microseconds below 10 ms, milliseconds above.
std::string time_text(double seconds) {
  if (seconds < 10e-3 && seconds > -10e-3) return format("%.3f us", seconds * 1e6);
  return format("%.3f ms", seconds * 1e3);
}

std::string relative(const worker::Stats& s) {
  return format("%.1f%%", s.mean != 0 ? 100 * s.stddev / s.mean : 0);
}

void add_statistics(worker::Table& table, std::int64_t size, const std::string& method, json task,
                    const worker::Stats& s, std::int64_t m, bool stable) {
  table.add_row({size, method, task, s.mean, s.stddev, s.min, s.max, s.count, m, stable});
}

void add_samples(worker::Table& table, std::int64_t size, const std::string& method, json task,
                 const MeasurementSeries& series) {
  for (std::size_t k = 0; k < series.count(); ++k) {
    table.add_row({size, method, task, k, series.values()[k]});
  }
}

}  // namespace

BcastReport::BcastReport(BcastMeasurements measurements)
    : measurements_(std::move(measurements)), summary_(summarise(measurements_)) {}

void BcastReport::write(worker::ResultDocument& result) const {
  const BcastMeasurements& m = measurements_;
  const BcastSummary& s = summary_;
  const std::int64_t reps = m.parameters.repetitions;
  for (const auto& reason : s.invalid_reasons) result.invalidate(reason);
  for (const auto& warning : s.warnings) result.add_warning(warning);
  write_method_tables(m, s, result);
  if (s.sizes.empty()) return;

  // Tables are filled here and added at the end: a reference that add_table returns does not
  // survive the next add_table.
  worker::Table ol_i({{"size", "B"},
                      {"task", ""},
                      {"rtl", "s"},
                      {"e_i", "s"},
                      {"ol_i", "s"},
                      {"gap", "s"},
                      {"assumption_holds", ""},
                      {"host", ""}});
  worker::Table statistics({{"size", "B"},
                            {"method", ""},
                            {"task", ""},
                            {"mean", "s"},
                            {"stddev", "s"},
                            {"min", "s"},
                            {"max", "s"},
                            {"measurements", "count"},
                            {"repetitions", "count"},
                            {"stable", ""}});
  worker::Table samples(
      {{"size", "B"}, {"method", ""}, {"task", ""}, {"measurement", ""}, {"value", "s"}});
  worker::Table delivery({{"size", "B"}, {"root", "rank"}, {"ranks", "count"}, {"wrong", "count"}});
  worker::Table model({{"size", "B"}, {"task", ""}, {"model_ol_i", "s"}, {"ol_i", "s"}});
  const bool modelled = m.parameters.hop_delay_us > 0 && m.shape;

  for (const SizeSummary& z : s.sizes) {
    const json label = {{"size", z.size}};
    for (const OlRow& row : z.rows) {
      ol_i.add_row({z.size, row.task, row.rtl.stats.mean, row.e.stats.mean, row.ol.mean, row.gap,
                    row.assumption_holds, host_of(m, row.task)});
      if (modelled && row.model) model.add_row({z.size, row.task, *row.model, row.ol.mean});
    }
    for (std::size_t j = 0; j < z.gaps.size(); ++j) {
      add_statistics(statistics, z.size, "gap", static_cast<int>(j), z.gaps[j].stats, reps,
                     z.gaps[j].stable);
    }
    add_statistics(statistics, z.size, "send_latency", m.parameters.root, z.send.stats, reps,
                   z.send.stable);
    for (const OlRow& row : z.rows) {
      add_statistics(statistics, z.size, "rtl", row.task, row.rtl.stats, reps, row.rtl.stable);
      add_statistics(statistics, z.size, "e_i", row.task, row.e.stats, reps, row.e.stable);
      add_statistics(statistics, z.size, "ol_i", row.task, row.ol, reps, row.stable());
    }
    add_statistics(statistics, z.size, "rounds_latency", json(), z.rounds.stats, reps,
                   z.rounds.stable);
    add_statistics(statistics, z.size, "barrier_latency", json(), z.barrier.stats, reps,
                   z.barrier.stable);
    add_statistics(statistics, z.size, "ack_latency", json(), z.ack.stats, reps, z.ack.stable);
    if (z.sync) {
      add_statistics(statistics, z.size, "sync_ol", json(), z.sync->ol.stats, reps,
                     z.sync->ol.stable);
    }

    const OlRow& top = z.ol_row();
    const std::size_t ol_samples =
        z.sync ? z.sync->ol.samples : std::min(top.rtl.samples, top.e.samples);
    result.add_metric("ol", z.ol, "s", ol_samples, label);
    result.add_metric("ol_task", static_cast<double>(z.ol_task), "rank", ol_samples, label);
    result.add_metric("send_latency", z.send.stats.mean, "s", z.send.samples, label);
    result.add_metric("rounds_latency", z.rounds.stats.mean, "s", z.rounds.samples, label);
    result.add_metric("barrier_latency", z.barrier.stats.mean, "s", z.barrier.samples, label);
    result.add_metric("ack_latency", z.ack.stats.mean, "s", z.ack.samples, label);
    result.add_metric("max_gap", z.max_gap, "s", z.send.samples, label);
  }

  for (const SizeMeasurements& z : m.sizes) {
    for (std::size_t r = 0; r < z.delivery_errors.size(); ++r) {
      const int from = r < z.delivery_roots.size() ? z.delivery_roots[r] : static_cast<int>(r);
      delivery.add_row({z.size, from, m.nprocs - 1, z.delivery_errors[r]});
    }
    if (z.sync) {
      add_samples(samples, z.size, "sync_ol", json(), z.sync->ol);
      for (std::size_t j = 0; j < z.sync->arrivals.size(); ++j) {
        add_samples(samples, z.size, "sync_arrival", static_cast<int>(j), z.sync->arrivals[j]);
      }
    }
    for (std::size_t j = 0; j < z.gaps.size(); ++j) {
      add_samples(samples, z.size, "gap", static_cast<int>(j), z.gaps[j]);
    }
    for (const TaskMeasurements& t : z.tasks) {
      add_samples(samples, z.size, "rtl", t.task, t.rtl);
      add_samples(samples, z.size, "e_i", t.task, t.e);
    }
    add_samples(samples, z.size, "rounds_latency", json(), z.rounds);
    add_samples(samples, z.size, "barrier_latency", json(), z.barrier);
    add_samples(samples, z.size, "ack_latency", json(), z.ack);
  }
  for (const auto& [name, table] : {std::pair<const char*, worker::Table*>{"ol_i", &ol_i},
                                    {"statistics", &statistics},
                                    {"samples", &samples},
                                    {"delivery", &delivery}}) {
    result.add_table(name, table->columns()) = std::move(*table);
  }
  if (modelled) result.add_table("ol_model", model.columns()) = std::move(model);
}

void BcastReport::print(std::ostream& out) const {
  const BcastMeasurements& m = measurements_;
  const BcastSummary& s = summary_;
  const BcastParameters& p = m.parameters;
  const Implementation* impl = find_implementation(p.impl);
  out << "pbench-bcast: broadcast latency, "
      << (m.method == "sync" ? "synchronized-clock method (cross-checked by OL_i)"
                             : "de Supinski & Karonis's OL_i method")
      << " (" << method_origin(m) << "), " << m.nprocs
      << " process" << (m.nprocs == 1 ? "" : "es") << ", root " << p.root << ", --impl " << p.impl;
  if (impl) out << " (" << impl->description << ")";
  out << "\n";
  if (p.hop_delay_us > 0) {
    out << "synthetic hop delay: " << time_text(p.hop_delay_us * 1e-6)
        << " before each send (validation run)\n";
  }
  if (s.sizes.empty()) {
    out << "no task other than the root: nothing measured\n";
  } else {
    out << "M = " << p.repetitions << " repetitions per measurement; a figure is the mean of "
        << m.rule.min_measurements << " to " << m.rule.max_measurements
        << " measurements (stops when stddev < 3% of the mean); measured in "
        << format("%.2f", m.seconds) << " s\n";
  }

  for (const SizeSummary& z : s.sizes) {
    out << "\nsize " << z.size << " B\n";
    out << "  " << pad_right("method", 34) << pad_left("latency", 14) << pad_left("stddev", 9)
        << pad_left("meas.", 7) << "  stable" << pad_left("/ OL", 8) << "\n";
    auto line = [&](const std::string& name, double value, const worker::Stats& stats,
                    bool stable) {
      out << "  " << pad_right(name, 34) << pad_left(time_text(value), 14)
          << pad_left(relative(stats), 9) << pad_left(std::to_string(stats.count), 7) << "  "
          << pad_right(stable ? "yes" : "NO", 6)
          << pad_left(z.ol > 0 ? format("%.2f", value / z.ol) : "-", 8) << "\n";
    };
    const OlRow& top = z.ol_row();
    if (z.sync) {
      line("OL by sync (task " + std::to_string(z.ol_task) + " on " + host_of(m, z.ol_task) + ")",
           z.ol, z.sync->ol.stats, z.sync->ol.stable);
    } else {
      line("OL = max_i OL_i (task " + std::to_string(z.ol_task) + " on " +
               host_of(m, z.ol_task) + ")",
           z.ol, top.ol, top.stable());
    }
    if (z.model_ol) {
      out << "  " << pad_right("  hop-delay model of OL", 34)
          << pad_left(time_text(*z.model_ol), 14) << "\n";
    }
    line("send latency (g at the root)", z.send.stats.mean, z.send.stats, z.send.stable);
    line("broadcast rounds (" + p.root_order + ")", z.rounds.stats.mean, z.rounds.stats,
         z.rounds.stable);
    line("broadcast-barrier", z.barrier.stats.mean, z.barrier.stats, z.barrier.stable);
    line("broadcast-acknowledge", z.ack.stats.mean, z.ack.stats, z.ack.stable);
    line("largest gap g_j (rank " + std::to_string(z.max_gap_rank) + ")", z.max_gap,
         z.gaps[static_cast<std::size_t>(z.max_gap_rank)].stats,
         z.gaps[static_cast<std::size_t>(z.max_gap_rank)].stable);
    print_sync(m, z, out);
    if (z.delivery_errors > 0) {
      out << "  WRONG BYTES at " << z.delivery_errors << " rank(s) in the delivery check\n";
    }
    out << (z.sync ? "  OL_i cross-check" : "  OL_i profile")
        << (m.shape ? " (gap: largest g_j on i's path)"
                    : " (gap: largest g_j; MPI_Bcast's path is unknown)")
        << "\n";
    out << "  " << pad_left("task", 6) << pad_left("RTL_i", 14) << pad_left("E_i", 14)
        << pad_left("OL_i", 14) << pad_left("stddev", 9) << pad_left("gap", 14)
        << pad_left("E_i > gap", 11);
    if (z.model_ol) out << pad_left("model", 14);
    out << "  host";
    out << "\n";
    for (const OlRow& row : z.rows) {
      out << "  " << pad_left(std::to_string(row.task), 6)
          << pad_left(time_text(row.rtl.stats.mean), 14)
          << pad_left(time_text(row.e.stats.mean), 14) << pad_left(time_text(row.ol.mean), 14)
          << pad_left(relative(row.ol), 9) << pad_left(time_text(row.gap), 14)
          << pad_left(row.assumption_holds ? "yes" : "NO", 11);
      if (row.model) out << pad_left(time_text(*row.model), 14);
      out << "  " << host_of(m, row.task) << "\n";
    }
  }
  print_clock(m, s, out);
  out << "\nvalid: " << (s.invalid_reasons.empty() ? "yes" : "no") << "\n";
  for (const auto& reason : s.invalid_reasons) out << "  not valid: " << reason << "\n";
  for (const auto& warning : s.warnings) out << "  warning: " << warning << "\n";
}

}  // namespace pbench::bcast
