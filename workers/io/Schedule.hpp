#pragma once
// How the scheduled time T is shared out, as the reference code b_eff_io rev 2.1 does it
// (docs/b_eff_io-original.md): T is for all partitions of the run, each partition gets
// Tn = T / partitions, and a pattern with U time units gets Tn * U / Usum, where Usum sums U over
// every pattern of every access method that runs: write 64, rewrite 22 (type 0 only) or 64 (all
// types), read 64. Only the time-driven patterns (types 0-2 write) use their share as a budget;
// the rest is left for what follows them (types 3-4, rewrite, read), which replay counts. A
// guarded run's shares are these, shrunk where its plan needs (TimePlan.hpp).
namespace pbench::io {

/// Sum of U over type 0's rows: what rewrite adds to Usum when it covers type 0 only.
inline constexpr int kType0TimeUnits = 22;

struct Schedule {
  double schedule_time = 0;  ///< T for all partitions [s]
  int partitions = 1;
  bool rewrite_all = false;

  /// Usum: 64 (write) + 22 or 64 (rewrite) + 64 (read): 150 by default, 192 with rewrite_all.
  int time_units_sum() const;
  /// Tn = T / partitions [s].
  double partition_time() const;
  /// Tu = Tn / Usum [s].
  double unit_time() const;
  /// T_pattern = Tu * U [s].
  double pattern_time(int time_units) const;
};

}  // namespace pbench::io
