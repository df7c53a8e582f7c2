#pragma once
// The machine's figures as a small calibration sweep measured them (`pbench plan NAME
// --calibrate SWEEP`, issue 50): the [machine] table's figures taken from the calibration
// sweep's latest run, each from its valid results, else from its results not valid for the
// method's rules alone (a calibration's short T is no official b_eff_io, but its rate is the
// file system's: the source then says "not valid: REASON"), never from a physically impossible
// figure or one of ranks that shared cores; each saying which results it came from.
//
//   latency_us             logp's EEL (eel_min), the smallest; from results across nodes where
//                          the sweep has them, else within a node (said)
//   process_bandwidth_gb_s logp's asymptotic bandwidth 1/G (`bandwidth`), the largest over its
//                          queue depths; across nodes where it has them, as the latency
//   node_bandwidth_gb_s    comm's b_eff per node, the largest (a sweep with comm on nodes)
//   fs_bandwidth_gb_s      io's b_eff_io, the largest over its partitions
//   fs_metadata_ops_s      io's consortium small files: open/close pairs per second, the largest
//
// A figure the sweep has no usable result for is not calibrated (missing names it), and the plan
// keeps that figure's own source (the site profile's [machine], or the stated default).
#include <string>
#include <vector>

#include "site/MachineFigures.hpp"
#include "store/Store.hpp"

namespace pbench::query {

/// One figure taken from the calibration sweep.
struct CalibratedFigure {
  std::string key;     ///< the [machine] key: "latency_us", "process_bandwidth_gb_s", ...
  double value = 0;    ///< in the key's unit
  std::string source;  ///< "calibration sweep cal run 2: logp eel_min of 2 nodes (3 results)"
};

struct MachineCalibration {
  std::string sweep;
  int run = 0;
  std::vector<CalibratedFigure> figures;
  /// The figures not calibrated, each with why: "fs_bandwidth_gb_s (no valid io result)".
  std::vector<std::string> missing;

  /// The figures as a [machine] table's, to lay over a plan's (apply each with its source).
  site::MachineFigures figures_of(const CalibratedFigure& figure) const;
  /// "[machine]\nlatency_us = 1.52\n...": what to state in a site profile to keep them.
  std::string toml() const;
};

/// The calibration of the latest run of sweep `name`; throws UsageError when there is no such
/// sweep, it has no run, or no figure could be calibrated from it.
MachineCalibration calibrate_machine(store::Store& store, const std::string& name);

}  // namespace pbench::query
