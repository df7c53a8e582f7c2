#pragma once
// When a time-driven pattern stops (METHODS.md section 2, seed 000 section 5.4). The reference
// rule checks after every call: barrier, rank 0 reads its clock and decides whether another call
// still fits, the decision is broadcast. The batched rule checks only after a geometric series
// of repetition counts (1, 2, 4, ...), each step capped by the prediction so it does not run
// past T_pattern. These functions are rank 0's decisions; the collective part is in IoRun.
#include <cstdint>
#include <optional>
#include <string>

namespace pbench::io {

enum class TerminationRule { reference, batched };

/// "reference" or "batched".
const char* termination_name(TerminationRule rule);
/// Parses a rule name; nothing when unknown.
std::optional<TerminationRule> parse_termination(const std::string& name);

/// What a time-driven row's calls leave to do after the loop, which the loop cannot see: a guarded
/// run's forecast of the sync that ends the row (TimePlan::sync_fixed and sync_per_byte), `fixed`
/// seconds and `per_call` seconds for every call made. Zero is rev 2.1's rule.
struct CallTail {
  double fixed = 0;     ///< [s]
  double per_call = 0;  ///< [s]
};

/// The reference rule: after `done` >= 1 calls taking `elapsed` seconds, another call fits when
/// elapsed * (done + 1) / done + tail.fixed + tail.per_call * (done + 1) <= budget.
bool another_call_fits(std::int64_t done, double elapsed, double budget, CallTail tail = {});

/// The batched rule: after `done` >= 1 calls taking `elapsed` seconds, the repetition count to
/// reach before the next check: min(2 * done, the calls predicted to fit in `budget` after the
/// tail's fixed part, each call costing its share of `elapsed` and the tail's per-call part), or
/// 0 when no further call fits.
std::int64_t next_check(std::int64_t done, double elapsed, double budget, CallTail tail = {});

}  // namespace pbench::io
