#pragma once
// A machine's figures as its centre knows them, stated once in the site profile's [machine]
// table and used by every plan before any run (and by the physical caps of ingest):
//
//   [machine]
//   cluster = "big"                 # the machine's name: only its own runs teach its plans
//   latency_us = 1.5                # a small message between two processes
//   process_bandwidth_gb_s = 20     # one process's stream to another
//   node_bandwidth_gb_s = 25        # all processes of a node together (its port)
//   fs_bandwidth_gb_s = 100         # the file system, all processes together
//   fs_metadata_ops_s = 50000       # file creates, stats, opens, removes per second
//   startup_s_per_process = 0.001   # the job's start-up per process (plus 2 s)
//
// or taken from a stored calibration sweep (pbench plan --calibrate SWEEP).
#include <nlohmann/json.hpp>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "common/MetricCatalogue.hpp"
#include "sweep/MethodCost.hpp"

namespace pbench::site {

struct MachineFigures {
  std::optional<double> latency_us;
  std::optional<double> process_bandwidth_gb_s;
  std::optional<double> node_bandwidth_gb_s;
  std::optional<double> fs_bandwidth_gb_s;
  std::optional<double> fs_metadata_ops_s;
  std::optional<double> startup_s_per_process;
  /// The machine's name (a cluster's); empty: not stated.
  std::string cluster;

  /// Sets the figure of TOML key `key` (one of the names above, "cluster" aside); throws
  /// UsageError naming the key and its range when the key is unknown or the value outside it.
  void set(const std::string& key, double value);
  bool empty() const;
  /// {"latency_us": 1.5, ..., "cluster": "big"}: the figures stated, nothing for the others.
  nlohmann::json to_json() const;
  /// The inverse of to_json(); throws UsageError for a figure outside its range.
  static MachineFigures from_json(const nlohmann::json& j);
  /// `base` with every stated figure in its place, each named as coming from `source`.
  sweep::MachineConstants apply(sweep::MachineConstants base, const std::string& source) const;
  /// The physical caps of ingest where the machine is known: process_bandwidth_gb_s and
  /// node_bandwidth_gb_s in B/s, named as coming from `source` (none stated: the generic cap).
  /// A stated peak caps every figure of the machine, on one node as across nodes: a centre
  /// whose processes copy faster within a node than over its network states the larger rate.
  metrics::BandwidthPeaks bandwidth_peaks(const std::string& source) const;
};

/// The bandwidth peaks of a sweep's specification (its JSON text, the store's spec_json): its
/// site profile's [machine] table, or none (the generic cap) when it states none.
metrics::BandwidthPeaks sweep_bandwidth_peaks(const std::string& spec_json);

/// A figure's TOML key, its unit and the range it must lie in.
struct FigureRange {
  const char* key;
  const char* unit;
  double least;  ///< exclusive: a figure is more than this
  double most;   ///< inclusive
};
/// The six figures' keys and ranges, in the order of the table above.
const std::vector<FigureRange>& machine_figure_ranges();

/// The [machine] table of a site profile's text (`origin` names it in errors); nothing when the
/// profile has none. Throws UsageError for an unknown key, a value that is not a number, or one
/// outside its range.
std::optional<MachineFigures> machine_figures_of(std::string_view profile_text,
                                                 const std::string& origin);

}  // namespace pbench::site
