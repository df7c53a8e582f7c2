#include "query/MachineCalibration.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "common/NodeCores.hpp"
#include "common/PhysicalLimits.hpp"
#include "common/Units.hpp"
#include "util/Error.hpp"

namespace pbench::query {

namespace {

/// How a figure is read from the sweep's metrics: its worker and metric, whether the largest
/// or the smallest value wins, whether results across nodes are preferred, and the factor to
/// the [machine] key's unit.
struct FigureRule {
  const char* key;
  const char* worker;
  const char* metric;
  bool largest;
  bool prefer_across_nodes;
  double to_unit;
};

constexpr FigureRule kRules[] = {
    {"latency_us", "logp", "eel_min", false, true, 1e6},
    {"process_bandwidth_gb_s", "logp", "bandwidth", true, true, 1e-9},
    {"node_bandwidth_gb_s", "comm", "b_eff_per_node", true, false, 1e-9},
    {"fs_bandwidth_gb_s", "io", "b_eff_io", true, false, 1e-9},
    {"fs_metadata_ops_s", "io", "open_close_rate", true, false, 1},
};

/// The winning valid value of `rule` in run `run` of `sweep`, with where it came from; false
/// when the run has no valid value of it.
bool read_figure(store::Store& store, const std::string& sweep, int run, const FigureRule& rule,
                 CalibratedFigure& out, std::string& why_not) {
  auto s = store.db().prepare(
      "SELECT value, coalesce(nodes, 1), valid, coalesce(reason, '') FROM metric_values "
      "WHERE sweep = ?1 AND run = ?2 AND worker = ?3 AND metric = ?4 AND value IS NOT NULL");
  s.bind(1, sweep).bind(2, run).bind(3, std::string(rule.worker)).bind(4, std::string(rule.metric));
  // Valid results first; else those not valid for the method's rules alone (a calibration's
  // short T is no official b_eff_io, but its rate is the file system's), never an impossible
  // figure nor one of ranks that shared cores.
  std::vector<std::pair<double, long long>> valid, usable;
  std::string usable_reason;
  int refused = 0;
  while (s.step()) {
    const double value = s.real(0);
    if (!std::isfinite(value) || value <= 0) continue;
    const std::string reason = s.text(3);
    if (s.int64(2) != 0) {
      valid.emplace_back(value, s.int64(1));
    } else if (worker::is_physical_reason(reason) || worker::is_oversubscription_reason(reason)) {
      ++refused;
    } else {
      usable.emplace_back(value, s.int64(1));
      if (usable_reason.empty()) usable_reason = reason;
    }
  }
  const bool from_valid = !valid.empty();
  if (!from_valid) valid = usable;
  if (valid.empty()) {
    why_not = std::string(rule.key) + " (no " + rule.worker + " " + rule.metric +
              (refused > 0 ? " but " + std::to_string(refused) +
                                 " impossible or oversubscribed (not used)"
                           : " measured") +
              ")";
    return false;
  }
  // Across nodes where preferred and measured: a figure within a node is a shared-memory one.
  const bool across =
      rule.prefer_across_nodes &&
      std::any_of(valid.begin(), valid.end(), [](const auto& v) { return v.second > 1; });
  if (across) std::erase_if(valid, [](const auto& v) { return v.second <= 1; });
  const auto best = rule.largest ? *std::max_element(valid.begin(), valid.end())
                                 : *std::min_element(valid.begin(), valid.end());
  const auto count = valid.size();
  out.key = rule.key;
  out.value = best.first * rule.to_unit;
  std::ostringstream source;
  source << "calibration sweep " << sweep << " run " << run << ": " << rule.worker << " "
         << rule.metric << " " << (rule.largest ? "largest" : "smallest") << " of " << count
         << (count == 1 ? " result" : " results");
  if (rule.prefer_across_nodes) {
    source << (across ? " across " + std::to_string(best.second) + " nodes" : " within a node");
  }
  if (!from_valid) source << ", not valid: " << usable_reason;
  out.source = source.str();
  return true;
}

}  // namespace

site::MachineFigures MachineCalibration::figures_of(const CalibratedFigure& figure) const {
  site::MachineFigures f;
  f.set(figure.key, figure.value);
  return f;
}

std::string MachineCalibration::toml() const {
  std::ostringstream out;
  out << "[machine]  # from calibration sweep " << sweep << " run " << run << "\n";
  for (const auto& f : figures) out << f.key << " = " << units::short_number(f.value) << "\n";
  return out.str();
}

MachineCalibration calibrate_machine(store::Store& store, const std::string& name) {
  const auto sweep = store.find_sweep(name);
  if (!sweep) throw UsageError("--calibrate: no sweep '" + name + "' in the store");
  auto latest = store.db().prepare("SELECT max(run) FROM sweep_runs WHERE sweep = ?1");
  latest.bind(1, name);
  MachineCalibration out;
  out.sweep = name;
  if (!latest.step() || latest.is_null(0)) {
    throw UsageError("--calibrate: sweep '" + name + "' has not run: nothing to calibrate from");
  }
  out.run = static_cast<int>(latest.int64(0));
  for (const auto& rule : kRules) {
    CalibratedFigure figure;
    std::string why_not;
    if (read_figure(store, name, out.run, rule, figure, why_not)) {
      // A measured figure outside the [machine] range (set() names it) is no calibration.
      try {
        out.figures_of(figure);
        out.figures.push_back(figure);
      } catch (const UsageError& e) {
        out.missing.push_back(std::string(rule.key) + " (" + e.what() + ")");
      }
    } else {
      out.missing.push_back(why_not);
    }
  }
  if (out.figures.empty()) {
    std::string why;
    for (const auto& m : out.missing) why += (why.empty() ? "" : ", ") + m;
    throw UsageError("--calibrate: sweep '" + name + "' run " + std::to_string(out.run) +
                     " calibrates no figure of the machine: " + why);
  }
  return out;
}

}  // namespace pbench::query
