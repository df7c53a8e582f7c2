#pragma once
// The gate (pbench check): a sweep's headline figures against a reference's, one verdict each.
#include <string>

#include "query/QueryTable.hpp"
#include "query/Reference.hpp"
#include "store/Store.hpp"

namespace pbench::query {

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
