#pragma once
// How far a headline figure may move before the gate calls it regressed or improved: a
// tolerance given or derived from the spread of several runs (pbench reference --tolerance).
#include <string>
#include <vector>

namespace pbench::query {

/// How far a figure may move before check calls it regressed or improved: a percentage of the
/// reference ("5%") or an amount in a unit of the figure ("0.2 us", "50 MB/s").
struct Tolerance {
  bool relative = true;
  double amount = 5;  ///< percent, or base units (s, B/s, s/B)
  std::string text = "5%";
  /// The allowed difference from `reference`, in base units.
  double allowed(double reference) const;
};
/// Parses a tolerance for a figure whose values are in `unit` ("s", "B/s", "s/B"); throws
/// UsageError naming `where` and the problem.
Tolerance parse_tolerance(const std::string& text, const std::string& unit,
                          const std::string& where);

/// How a figure spread over the runs a reference was made from (pbench reference --runs).
struct FigureSpread {
  int n = 0;          ///< runs that gave the figure a value
  double median = 0;  ///< in the figure's unit
  double mad = 0;     ///< median absolute deviation from the median
  double p5 = 0;      ///< 5th percentile (linear between order statistics)
  double p95 = 0;     ///< 95th percentile
  /// The robust standard deviation: 1.4826 x MAD (the standard deviation of normal data).
  double sigma() const { return 1.4826 * mad; }
};
/// The spread of `values` (at least one).
FigureSpread spread_of(std::vector<double> values);

/// --tolerance auto: a figure's tolerance is kAutoSigmas robust standard deviations of its runs,
/// as a percentage of its median, and at least kAutoFloorPercent (a figure that did not move
/// in the runs still gets room for the next one's noise).
inline constexpr double kAutoSigmas = 3;
inline constexpr double kAutoFloorPercent = 2;
/// The tolerance auto derives from `spread`.
Tolerance auto_tolerance(const FigureSpread& spread);
/// The widest relative tolerance a gate can use: a band wider than this (or one whose lower
/// limit is at or below zero for a figure that cannot be) cannot fail, and reference and check
/// say so, naming the figure.
inline constexpr double kToleranceCeilingPercent = 50;

}  // namespace pbench::query
