#pragma once
// The b_eff_io reduction as the reference code b_eff_io rev 2.1 does it
// (docs/b_eff_io-original.md), from the pattern types' totals: a type's bandwidth is its bytes over
// open + patterns + close; an access method's is the average over its types with type 0
// (scattering) counted twice; a partition's b_eff_io is sqrt(WR * R), WR the mean of the five write
// types and the type 0 rewrite, R the read access method's value; the system's is the maximum over
// partitions, with the partition that gave it. Beside it, named b_eff_io_paper, the paper's
// arithmetic definition 0.25 write + 0.25 rewrite + 0.5 read (seed 000 section 5.1), which the code
// does not print.
#include <map>
#include <optional>
#include <utility>
#include <vector>

#include "common/PhysicalLimits.hpp"
#include "io/IoMeasurements.hpp"

namespace pbench::io {

struct PartitionFigures {
  int partition = 0;
  /// Bandwidth of each complete pattern type, by (access, type) [B/s].
  std::map<std::pair<Access, int>, double> type_bandwidth;
  /// Bandwidth of each access method whose types all ran [B/s].
  std::map<Access, double> access_bandwidth;
  /// Bytes moved per access method, all processes and types [B].
  std::map<Access, std::int64_t> access_bytes;
  std::optional<double> write_rewrite;   ///< WR: mean of the five write types and rewrite type 0
  std::optional<double> b_eff_io;        ///< sqrt(WR * R), the reference code's [B/s]
  std::optional<double> b_eff_io_paper;  ///< 0.25 write + 0.25 rewrite + 0.5 read [B/s]
};

struct IoFigures {
  std::vector<PartitionFigures> partitions;
  std::optional<double> system;        ///< max over partitions of b_eff_io [B/s]
  int system_partition = 0;            ///< the partition that gave it
  std::optional<double> system_paper;  ///< max over partitions of b_eff_io_paper [B/s]
  int system_paper_partition = 0;

  /// Reduces the type measurements of `partitions`; rewrite expects type 0 only unless
  /// `rewrite_all`. A figure whose inputs did not all run is absent.
  static IoFigures reduce(const std::vector<TypeMeasurement>& types,
                          const std::vector<int>& partitions, bool rewrite_all);
};

/// The types an access method covers: all five, or type 0 only for rewrite (release 2).
std::vector<int> types_of(Access access, bool rewrite_all);

/// Average with type 0 counted twice, over the types present in `bandwidth_by_type`.
double weighted_access_average(const std::map<int, double>& bandwidth_by_type);

/// The quantities of a run that cannot be <= 0 (every pattern's and type's time, every
/// bandwidth and b_eff_io) or fall short of their parts (a type's time of its patterns', a
/// partition's elapsed time of all its patterns'); IoReport lists their reasons first (after a
/// partial result's).
worker::PhysicalLimits physical_limits(const IoMeasurements& measurements,
                                       const IoFigures& figures);

}  // namespace pbench::io
