#include "io/Termination.hpp"

#include <algorithm>
#include <cmath>

namespace pbench::io {

const char* termination_name(TerminationRule rule) {
  return rule == TerminationRule::reference ? "reference" : "batched";
}

std::optional<TerminationRule> parse_termination(const std::string& name) {
  if (name == "reference") return TerminationRule::reference;
  if (name == "batched") return TerminationRule::batched;
  return std::nullopt;
}

bool another_call_fits(std::int64_t done, double elapsed, double budget, CallTail tail) {
  if (done < 1) return true;
  const double calls = static_cast<double>(done + 1);
  return elapsed * calls / static_cast<double>(done) + tail.fixed + tail.per_call * calls <= budget;
}

std::int64_t next_check(std::int64_t done, double elapsed, double budget, CallTail tail) {
  if (done < 1) return 1;
  if (!another_call_fits(done, elapsed, budget, tail)) return 0;
  const double per_call = elapsed / static_cast<double>(done) + tail.per_call;
  // Calls predicted to fit in the whole budget (at least one more: another_call_fits holds).
  double fitting =
      per_call > 0 ? std::floor((budget - tail.fixed) / per_call) : 2.0 * static_cast<double>(done);
  fitting = std::min(fitting, 2.0 * static_cast<double>(done));
  return std::max(done + 1, static_cast<std::int64_t>(fitting));
}

}  // namespace pbench::io
