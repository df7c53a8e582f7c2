#pragma once
// A table's entry by its name, for the tables of choices a user names (the schedulers, the
// launchers): the entry, or a UsageError that lists the names the table knows.
#include <string>

#include "util/Error.hpp"

namespace pbench {

/// The entry of `table` (entries with a `name`) called `name`; throws UsageError "unknown
/// WHAT 'NAME' (known: a, b, c)" for a name the table does not hold.
template <class Table>
const auto& named_entry(const Table& table, const std::string& name, const std::string& what) {
  std::string known;
  for (const auto& entry : table) {
    if (name == entry.name) return entry;
    known += (known.empty() ? "" : ", ") + std::string(entry.name);
  }
  throw UsageError("unknown " + what + " '" + name + "' (known: " + known + ")");
}

}  // namespace pbench
