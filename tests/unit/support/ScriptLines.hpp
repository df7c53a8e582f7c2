#pragma once
// The lines of a text (a job script, a plan) that start with a prefix, as a set: shared by the
// tests of the scripts and plans pbench writes.
#include <set>
#include <sstream>
#include <string>

namespace pbench::testing {

/// The lines of `text` that start with `prefix`.
inline std::set<std::string> lines_starting(const std::string& text, const std::string& prefix) {
  std::set<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(prefix, 0) == 0) out.insert(line);
  }
  return out;
}

}  // namespace pbench::testing
