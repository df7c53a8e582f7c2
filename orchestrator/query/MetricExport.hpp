#pragma once
// `pbench export`: a sweep's headline and summary metrics for monitoring systems, in the
// Prometheus/OpenMetrics text exposition format (node_exporter's textfile collector) or as a
// long CSV (one row per metric with every label and the run's time).
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "query/RunSelection.hpp"
#include "store/Store.hpp"

namespace pbench::query {

/// One exported value.
struct ExportSample {
  std::string worker;
  std::string metric;  ///< "g", "b_eff"; a headline figure: its name ("logp_EEL")
  /// A headline figure of query system: its one name ("logp_EEL", "b_eff"), also its label
  /// `figure`; "" for a result's metric.
  std::string figure = {};
  std::string unit;  ///< as stored: "s", "B/s", "s/B", ...
  double value = 0;
  std::string time;  ///< the run's start (UTC, ISO 8601)
  /// sweep, run, partition, nodes, ppn, queue_depth, T, hints, env, hosts_hash, valid, point,
  /// then the metric's own labels (size, pattern, ...), in that order.
  std::vector<std::pair<std::string, std::string>> labels;
};

/// The samples of `sweep` in the runs `selection` names: every summary metric with a value of
/// the chosen result of each point, and the headline figures of query system.
std::vector<ExportSample> export_samples(store::Store& store, const std::string& sweep,
                                         const RunSelection& selection);

/// "pbench_<worker>_<metric>_<unit>" with [a-zA-Z0-9_] only ("pbench_logp_g_seconds"), the
/// metric's tokens that Prometheus's lint reads as abbreviated units spelled out
/// ("pbench_comm_effective_bandwidth_bytes_per_second" for b_eff, "..._send_overhead_seconds" for
/// o_s) and a count without a suffix. A headline figure: "pbench_headline_<unit>", the figure's
/// name unchanged in its label `figure` (no name of a figure is rewritten for the export).
std::string metric_family(const ExportSample& sample);
/// The tokens of a family name that promtool reads as abbreviated units (none for every name
/// metric_family makes: a unit test holds it to that for the whole metric catalogue).
std::vector<std::string> abbreviated_units(const std::string& family);
/// The text exposition format: per family # HELP, # TYPE gauge and its samples, no timestamps,
/// without the run and point labels (one run's samples: a label that changes every night starts
/// new series). Throws UsageError when a label value is not UTF-8 (the format cannot carry it).
std::string to_openmetrics(const std::vector<ExportSample>& samples);
/// One CSV row per sample: time, the fixed labels, worker, metric, unit, value and the metric's
/// own labels as JSON.
std::string to_csv_long(const std::vector<ExportSample>& samples);

}  // namespace pbench::query
