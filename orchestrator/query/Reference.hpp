#pragma once
// Reference values of a sweep's headline figures (`pbench reference`, a TOML file) and the gate
// that compares a sweep with them (`pbench check`).
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "query/QueryTable.hpp"
#include "query/WhereFilter.hpp"
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
/// The widest relative tolerance a gate can use: a band wider than this (or one whose lower
/// limit is at or below zero for a figure that cannot be) cannot fail, and reference and check
/// say so, naming the figure.
inline constexpr double kToleranceCeilingPercent = 50;

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
  /// The environment (--envs) of a sweep made with environments; "" otherwise.
  std::string env = {};
  /// The figure's name in query system ("logp_g", "b_eff").
  std::string figure() const;
  /// How check and reference name it: "bcast_ol at 2 processes in env mpich".
  std::string label_text() const;
};

/// The settings that define the results of one worker in one environment ("" for none): per
/// parameter (the store's view result_settings), the values its results ran with.
struct Definition {
  std::string worker;
  std::string env;
  std::map<std::string, std::vector<nlohmann::json>> settings;
};
/// The definitions of `sweep`'s chosen results in runs first..last, by worker and environment.
std::vector<Definition> definitions_of(store::Store& store, const std::string& sweep, int first,
                                       int last);
/// Where `measured` ran under other settings than `reference` (of the same worker and
/// environment): one text per parameter, "impl = \"linear\" (the reference: \"binomial\")". A
/// parameter only one side has is not compared (a worker of another version); a value of the
/// measured side is the reference's when it is one of the reference's values.
std::vector<std::string> changed_settings(const Definition& reference, const Definition& measured);

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
  /// The settings its results ran with, per worker and environment (empty in an older file).
  std::vector<Definition> definitions;
  /// Figures whose band cannot fail (too wide a tolerance, a lower limit at or below zero for a
  /// figure that cannot be), each with why and what would narrow it.
  std::vector<std::string> wide_bands;
};

/// The bands of `reference` that cannot fail (kToleranceCeilingPercent), one text each.
std::vector<std::string> wide_bands(const Reference& reference);
/// Keeps the figures (and definitions) of `reference` in the environments `envs` (all when
/// empty); throws UsageError naming an environment the reference has no figure of.
void select_envs(Reference& reference, const std::vector<std::string>& envs);
/// `--where` on reference and check: keeps the figures whose figure (its name, or the older
/// spelling), env, partition and label (a link or node) match every clause, and the definitions
/// of their workers and environments. A clause on another key is refused as query's --where
/// refuses an unknown column (unknown_where_key); throws UsageError when no figure matches.
void select_figures(Reference& reference, const std::vector<WhereClause>& where);
/// The reference's runs as a range: {3, 7}, or its one run twice.
std::pair<std::int64_t, std::int64_t> reference_runs(const Reference& reference);

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
/// The reference as a table (pbench reference --format json): per figure its environment,
/// partition, link or node, value, tolerance, n and band; notes: what was left out, the figures
/// not valid and the bands that cannot fail.
QueryTable reference_table(const Reference& reference);
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
  /// Measured under other settings than the reference's (its definition changed): "changed
  /// definition", whatever the value, with the settings that differ named in the notes.
  int changed_definition = 0;
  /// Not valid now and in the reference, for the same reason (reason_kind): "not valid (as
  /// referenced)", which fails the gate only when `strict`.
  int not_valid_as_referenced = 0;
  /// Points of the checked run without a result whose point (the same point key: worker,
  /// partition or shape, queue depth, settings) has one in the reference's run(s): each is
  /// named in a note and counted in `missing`, whatever the figures say (a best-of figure would
  /// otherwise be read from another point and compared as if it were the same one).
  int missing_points = 0;
  bool strict = false;
  /// 0, or the documented exit code: 10 regressed, 13 changed definition, 11 not valid (or,
  /// when strict, not valid as referenced), 12 missing (in that order of precedence).
  int exit_code() const;
};
/// How check goes about it.
struct CheckOptions {
  /// A figure not valid as referenced fails the gate as any not valid one does.
  bool strict = false;
  /// Score a run that is one of the reference's own (else a UsageError: it passes by
  /// construction).
  bool allow_reference_run = false;
};
/// Compares `sweep` (the run the store reads) with `reference`. A figure without a result is
/// missing, and so is every point the reference's run(s) had a result for and the checked run
/// has none (named in the notes); a figure whose winning result is not valid is "not valid" and
/// never passes.
/// A figure of a worker and environment whose results ran under other settings than the
/// reference's (its definitions, or the store's for its sweep and runs when an older file has
/// none) is "changed definition", and the notes name each setting that differs. The notes name
/// the run scored (number and start) and the reference's runs.
CheckResult check_sweep(store::Store& store, const std::string& sweep, const Reference& reference,
                        const CheckOptions& options = {});

inline constexpr int kExitRegressed = 10;
inline constexpr int kExitNotValid = 11;
inline constexpr int kExitMissing = 12;
inline constexpr int kExitChangedDefinition = 13;

}  // namespace pbench::query
