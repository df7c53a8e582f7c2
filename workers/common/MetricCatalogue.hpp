#pragma once
// The metric catalogue: every summary metric a worker writes, declared once, one line each
// (MetricCatalogue.cpp). The workers check what they write against it (ResultDocument), the
// orchestrator refuses a result with a metric it does not hold (ingest), and the store keeps a
// copy of it in the table `metric_catalogue`, from which its views and every command read which
// way is better, the unit and the headline figures.
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

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

/// What a metric's value can physically be, whatever its result says: the orchestrator stores a
/// result with a value outside its bound as not valid, with the reason (ingest). Bound::by_unit
/// takes the bound from the unit: above zero for a bandwidth, rate, gap per byte or time; zero or
/// more for bytes, counts and ranks.
enum class Bound {
  by_unit,       ///< as the unit says (above)
  positive,      ///< above zero: a bandwidth, rate, gap, duration or size
  latency,       ///< at least kLatencyFloor: a message between two processes
  non_negative,  ///< zero or more: counts, byte counts, ranks, overheads that may be nil
  any,           ///< any finite value: a model figure that may be negative (L = EEL - o_s - o_r)
};

/// No MPI message between two processes arrives in less than 10 ns: moving one cache line
/// between two cores of one chip takes longer (50-100 ns on current CPUs).
inline constexpr double kLatencyFloor = 10e-9;
/// No process moves more than 10 TB/s: ten times the memory bandwidth of a current GPU's whole
/// HBM, a hundred times a CPU core's memory copy. A bandwidth (B/s) is at most this times the
/// result's processes (b_eff and b_eff_io are sums over processes), and a gap per byte (s/B) at
/// least its inverse.
inline constexpr double kBandwidthCeilingPerProcess = 1e13;

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
  /// What its value can physically be (Bound); most metrics' unit says it.
  Bound bound = Bound::by_unit;
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

/// The metric's bound with kByUnit resolved from its unit: never Bound::by_unit.
Bound bound_of(const MetricSpec& metric);
/// What a machine is stated to move at most, in B/s, where it is known (a site profile's
/// [machine] table: process_bandwidth_gb_s, node_bandwidth_gb_s; or a node's memory bandwidth
/// as a worker measured it: no worker measures one yet). Unknown: the generic cap alone
/// (kBandwidthCeilingPerProcess per process).
struct BandwidthPeaks {
  std::optional<double> per_process;  ///< B/s one process can move
  std::optional<double> per_node;     ///< B/s one node's processes can move together
  std::string source;                 ///< where the peaks come from ("site profile 'x'")
};

/// The bound in words, for the store's catalogue and messages: "> 0, <= 1e+13 B/s per process",
/// ">= 0.01 us", ">= 0", "finite".
std::string bound_text(const MetricSpec& metric);
/// Why `value` cannot be a value of `metric` in a result of `nprocs` processes, or "" when it
/// can, worded as the workers' own check words it (PhysicalLimits.hpp): "physically impossible:
/// g = -1 us is not positive", "... eel_min = 0.001 us is below 0.01 us, faster than any message
/// between two processes", "... b_eff = 5e+20 B/s is above 2e+13 B/s (1e+13 B/s per process x 2
/// processes), faster than any memory copy"; NaN and infinities are never a value.
std::string impossible_value(const MetricSpec& metric, double value, long long nprocs);
/// The same with a machine's stated peaks and the result's nodes (bandwidth_cap).
std::string impossible_value(const MetricSpec& metric, double value, long long nprocs,
                             long long nodes, const BandwidthPeaks& peaks);

/// How many processes a bandwidth `metric`'s value is the sum over, in a result of `nprocs`:
/// 1 for a figure of one process or one pair (logp's flood and 1/G, a ping-pong, a figure per
/// process, one link), else `nprocs` (b_eff, b_eff_io: sums over processes).
long long bandwidth_processes(const MetricSpec& metric, long long nprocs);
/// The most B/s a figure over `processes` processes on `nodes` nodes can be: with stated
/// peaks, the smaller of per_process x processes and per_node x min(nodes, processes) (each
/// only where stated); the generic kBandwidthCeilingPerProcess x processes only where nothing
/// is stated. `nodes` < 1 counts as 1.
double bandwidth_cap(long long processes, long long nodes, const BandwidthPeaks& peaks = {});
/// Why `value` B/s of the figure `name` over `processes` processes on `nodes` nodes cannot
/// be: "physically impossible: bandwidth_at_max_size = 1.9e+13 B/s is above 1e+13 B/s (1e+13
/// B/s per process x 1 process), faster than any memory copy"; "" when it can.
std::string bandwidth_cap_problem(std::string_view name, double value, long long processes,
                                  long long nodes, const BandwidthPeaks& peaks = {});

/// One value of a result's summary: its metric, value and labels (JSON text, "" for none).
struct MetricValue {
  std::string name;
  double value = 0;
  std::string labels;
};
/// The values of a result of `worker` on `nprocs` processes that cannot be (impossible_value),
/// as one reason: the first three ("physically impossible: g = -1 us is not positive
/// ({"queue_depth":1}); bandwidth = ..."), then how many more; "" when every value can be. A
/// metric the catalogue does not hold is not judged here (ingest refuses it).
std::string impossible_figures(std::string_view worker, long long nprocs,
                               const std::vector<MetricValue>& values);
/// The same with a machine's stated peaks and the result's nodes (bandwidth_cap).
std::string impossible_figures(std::string_view worker, long long nprocs, long long nodes,
                               const BandwidthPeaks& peaks, const std::vector<MetricValue>& values);

/// "higher", "lower" or "neither".
std::string_view to_string(Better better);
/// "no", "maximum", "per_shape", "companion" or "legacy".
std::string_view to_string(Headline headline);

}  // namespace pbench::metrics
