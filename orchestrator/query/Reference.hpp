#pragma once
// Reference values of a sweep's headline figures (`pbench reference`): made from one run or the
// median of several; the file is ReferenceFile.hpp, the gate CheckResult.hpp.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "query/HeadlineFigures.hpp"
#include "query/QueryTable.hpp"
#include "query/Tolerance.hpp"
#include "query/WhereFilter.hpp"
#include "store/Store.hpp"

namespace pbench::query {

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

}  // namespace pbench::query
