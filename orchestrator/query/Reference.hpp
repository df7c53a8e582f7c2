#pragma once
// Reference values of a sweep's headline figures (`pbench reference`, a TOML file) and the gate
// that compares a sweep with them (`pbench check`).
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "query/QueryTable.hpp"
#include "store/Store.hpp"

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

/// One headline figure: worker and metric ("logp", "g"), the partition for per-partition
/// figures (logp, bcast), its reference value and unit, and its own tolerance if any.
struct ReferenceFigure {
  std::string worker;
  std::string metric;
  std::optional<std::int64_t> partition;
  double value = 0;
  std::string unit;
  std::optional<Tolerance> tolerance;
  bool valid = true;  ///< false: the reference value came from a result that is not valid
  /// When not valid: that result's first reason (check compares it with the measured one's).
  std::string reason = {};
  /// The link ("node1 -> node3") or node of a link matrix's figure (links); "" otherwise.
  std::string label = {};
  /// Made from several runs: how the figure spread over them (value is their median).
  std::optional<FigureSpread> spread = {};
  /// The figure's name in query system ("logp_g", "b_eff").
  std::string figure() const;
};

struct Reference {
  std::string sweep;
  int run = 0;  ///< the run it was made from; from several runs, the last of them
  std::string started_at;
  /// From several runs: "3-7" (and `made` says how); "" from one run.
  std::string runs;
  std::string made;
  Tolerance tolerance;  ///< for every figure without its own
  std::vector<ReferenceFigure> figures;
  std::vector<std::string> left_out;   ///< figures without a value, not written
  std::vector<std::string> not_valid;  ///< figures written from results that are not valid
};

/// The headline figures of `sweep` in the run the store reads (Store::choose_run), with
/// `tolerance` as the default; a figure whose result is not valid is kept with valid = false.
Reference reference_of(store::Store& store, const std::string& sweep, const Tolerance& tolerance);
/// The headline figures of `sweep` over its runs first..last: per figure the median of the
/// runs that gave it a valid value (of all that gave one, marked not valid, when none did) and
/// its spread; each figure's tolerance `tolerance`, or derived from its spread when it is
/// nullopt (--tolerance auto: needs 3 runs and more). Throws UsageError for runs the sweep does
/// not have. Leaves the store reading the latest run.
Reference reference_over_runs(store::Store& store, const std::string& sweep, int first, int last,
                              const std::optional<Tolerance>& tolerance);
/// The reference as a TOML document.
std::string to_toml(const Reference& reference);
/// Parses a reference file's text; throws UsageError naming `origin` and the problem (not TOML,
/// an unknown key, worker or metric, a value or tolerance that is not a number).
Reference parse_reference(const std::string& text, const std::string& origin);

/// The label of the link from -> to ("node1 -> node3"), as reference files and check name it.
std::string link_label(const std::string& from, const std::string& to);

/// A reason with its numbers taken out ("OL (task #) = # us is not positive"): two runs that
/// fail a rule the same way give the same text, whatever they measured.
std::string reason_kind(const std::string& reason);

/// The outcome of check: one row per reference figure with its verdict.
struct CheckResult {
  QueryTable table;
  int passed = 0, improved = 0, regressed = 0, missing = 0, not_valid = 0;
  /// Not valid now and in the reference, for the same reason (reason_kind): "not valid (as
  /// referenced)", which fails the gate only when `strict`.
  int not_valid_as_referenced = 0;
  /// Points of the checked run without a result whose point (the same point key: worker,
  /// partition or shape, queue depth, settings) has one in the reference's run(s): each is
  /// named in a note and counted in `missing`, whatever the figures say (a best-of figure would
  /// otherwise be read from another point and compared as if it were the same one).
  int missing_points = 0;
  bool strict = false;
  /// 0, or the documented exit code: 10 regressed, 11 not valid (or, when strict, not valid as
  /// referenced), 12 missing (in that order of precedence).
  int exit_code() const;
};
/// Compares `sweep` (the run the store reads) with `reference`. A figure without a result is
/// missing, and so is every point the reference's run(s) had a result for and the checked run
/// has none (named in the notes); a figure whose winning result is not valid is "not valid" and
/// never passes.
/// With `strict`, a figure not valid as referenced fails the gate as any not valid one does.
CheckResult check_sweep(store::Store& store, const std::string& sweep, const Reference& reference,
                        bool strict = false);

inline constexpr int kExitRegressed = 10;
inline constexpr int kExitNotValid = 11;
inline constexpr int kExitMissing = 12;

}  // namespace pbench::query
