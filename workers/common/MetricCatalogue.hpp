#pragma once
// The metric catalogue: every summary metric a worker writes, declared once, one line each
// (MetricCatalogue.cpp). The workers check what they write against it (ResultDocument), the
// orchestrator refuses a result with a metric it does not hold (ingest), and the store keeps a
// copy of it in the table `metric_catalogue`, from which its views and every command read which
// way is better, the unit and the headline figures.
#include <span>
#include <string>
#include <string_view>

namespace pbench::metrics {

/// Which way is better for a metric: bandwidths higher; latencies, overheads, gaps lower;
/// parameters echoed as metrics and counts that describe the run neither.
enum class Better { higher, lower, neither };

/// Whether and how a metric is a headline figure of `pbench query system`:
///   maximum    one figure per sweep and run: the best over every partition, T and hint set;
///   per_shape  one figure per partition shape (processes, nodes, processes per node);
///   companion  read from the result (and queue depth) that won the figure of the metric
///              `companion_of` (logp's G and bandwidth with g; o_s, o_r and L with EEL);
///   legacy     a name older results stored a headline under (io's b_eff_io_rev2);
///   per_label  not in query system: gated by reference and check one figure per label (a link
///              or node of the link matrix), under its figure name.
enum class Headline { no, maximum, per_shape, companion, legacy, per_label };

struct MetricSpec {
  std::string_view worker;  ///< "logp"
  std::string_view name;    ///< "big_g", as the result's summary names it
  std::string_view unit;    ///< base unit: "s", "B/s", "s/B", "B", "count", "1/s", "rank"
  Better better;            ///< which way is better
  Headline headline;        ///< whether it is a headline figure, and how
  /// The headline's name in query system, history, check and export ("logp_G": the worker,
  /// an underscore and the method's symbol; a maximum figure is its metric name), or "".
  std::string_view figure;
  std::string_view label_keys;  ///< the labels it carries, comma-separated ("queue_depth")
  std::string_view meaning;     ///< one line
  /// For a companion: the metric whose winning result it is read from ("g"); else "".
  std::string_view companion_of = {};
};

/// Every metric of every worker, in the order of the headline table, then by worker.
std::span<const MetricSpec> catalogue();
/// The metric `name` of `worker`, or nullptr when the catalogue does not hold it.
const MetricSpec* find_metric(std::string_view worker, std::string_view name);
/// The headline figure called `figure` in query system ("b_eff_io", "logp_g"), or nullptr.
/// The older spelling with a space ("logp g") is accepted.
const MetricSpec* find_figure(std::string_view figure);
/// A figure's name as pbench spells it: the older spelling's spaces as underscores.
std::string figure_spelling(std::string_view figure);
/// The metric names of `worker`, comma-separated (for messages).
std::string metric_names(std::string_view worker);

/// "higher", "lower" or "neither".
std::string_view to_string(Better better);
/// "no", "maximum", "per_shape", "companion" or "legacy".
std::string_view to_string(Headline headline);

}  // namespace pbench::metrics
