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
  /// The family's # HELP text and name for a sample that is not a result's metric or a
  /// headline figure (a run's start, a figure's validity, a link matrix's weak links); "" else.
  std::string help = {};
  std::string family = {};
  double value = 0;
  std::string time;  ///< the run's start (UTC, ISO 8601)
  /// sweep, run, partition, nodes, ppn, queue_depth, T, hints, env, hosts_hash, valid, point,
  /// then the metric's own labels (size, pattern, ...), in that order.
  std::vector<std::pair<std::string, std::string>> labels;
};

/// The samples of `sweep` in the runs `selection` names: every summary metric with a value of
/// the chosen result of each point, the headline figures of query system with their validity
/// (pbench_headline_valid), the weak links and nodes of each link matrix
/// (pbench_links_weak_links, pbench_links_weak_nodes), each point's validity
/// (pbench_<worker>_result_valid) and the run's start and number
/// (pbench_run_started_timestamp_seconds, pbench_run_number).
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
/// The labels the exposition format leaves out of a sample's series because they may change
/// from one run to the next (a label that changes every night starts new series): run, point
/// and valid always (pbench_<worker>_result_valid and pbench_headline_valid carry validity as a
/// value); of a headline figure also at (the condition it won under), and of a figure that is
/// the maximum over partitions (b_eff, b_eff_io) the winner's partition, nodes and ppn.
bool is_per_run_label(const ExportSample& sample, const std::string& label);
/// The text exposition format: per family # HELP, # TYPE gauge and its samples, no timestamps,
/// without the per-run labels (is_per_run_label). Throws UsageError when a label value is not
/// UTF-8 (the format cannot carry it).
std::string to_openmetrics(const std::vector<ExportSample>& samples);
/// One CSV row per sample: time, the fixed labels, worker, metric, unit, value and the metric's
/// own labels as JSON.
std::string to_csv_long(const std::vector<ExportSample>& samples);

}  // namespace pbench::query
