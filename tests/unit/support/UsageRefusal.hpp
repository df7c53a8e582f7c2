#pragma once
// What a worker's parameter check says of its values: "" when they are usable, else the
// UsageError's message (the option, then the problem). Shared by the workers' parameter tests.
#include <string>

#include "common/Parameters.hpp"

namespace pbench::testing {

/// What `check` (a call that throws UsageError on values it refuses) says: "" when it passes.
template <class Check>
std::string usage_refusal(const Check& check) {
  try {
    check();
  } catch (const pbench::worker::UsageError& e) {
    return e.what();
  }
  return "";
}

/// What p.check() says of `p`.
template <class P>
std::string refusal_of(const P& p) {
  return usage_refusal([&] { p.check(); });
}

}  // namespace pbench::testing
