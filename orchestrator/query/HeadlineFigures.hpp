#pragma once
// The headline figures as references and the gate name them (shared by Reference, ReferenceFile
// and CheckResult): their names from the metric catalogue and their measured values in a sweep.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "store/Store.hpp"

namespace pbench::query {

/// A headline figure as a reference names it: its worker and its metric there, the figure's
/// name without the worker ("logp_G": logp, G; "b_eff_io": io, b_eff_io); per_partition: one
/// figure per partition (logp, bcast, links) instead of one maximum over the sweep (b_eff_io,
/// b_eff); labelled: one figure per link ("node1 -> node3") or node of a link matrix (links).
/// Read from the metric catalogue, the one definition of the headline figures.
struct FigureName {
  std::string figure;
  std::string worker;
  std::string metric;
  bool per_partition = false;
  std::string unit;
  bool labelled = false;
};
/// Every headline figure's name, in the catalogue's order.
const std::vector<FigureName>& figure_names();
/// The figure named `figure` ("logp_g"), or nullptr.
const FigureName* by_figure(const std::string& figure);
/// The known worker and metric, or a UsageError naming `where` and what is known.
const FigureName& known_figure(const std::string& worker, const std::string& metric,
                               const std::string& where);

/// A measured headline figure of a sweep.
struct MeasuredFigure {
  std::optional<double> value;
  bool valid = false;
  std::string unit;
  std::string reason;  ///< the first reason, when not valid
};
/// A figure's key: its name, partition (per-partition figures), label (link or node) and
/// environment (--envs).
using FigureKey = std::tuple<std::string, std::optional<std::int64_t>, std::string, std::string>;
/// The headline figures of the sweep (the run the store reads), by figure, partition, label and
/// environment; with the figures of every link and node of its link matrices.
std::map<FigureKey, MeasuredFigure> measured_figures(store::Store& store, const std::string& sweep);

/// "b_eff in env mpich", "bcast_ol at 2 processes", "link_bandwidth node1 -> node2 at 4
/// processes": how a figure is named in messages and notes.
std::string figure_label(const std::string& figure, const std::optional<std::int64_t>& partition,
                         const std::string& link, const std::string& env);
/// A value with its unit as the tables show it: B/s in MB/s, s below 1 ms in us, s/B in ns/B.
std::string value_text(double value, const std::string& unit);
/// The label of the link from -> to ("node1 -> node3"), as reference files and check name it.
std::string link_label(const std::string& from, const std::string& to);

}  // namespace pbench::query
