#pragma once
// `pbench store rebuild`: a new store made from the runs directory, for a store that is damaged
// (or lost). The files on disk are the source: each sweep's record (sweep.json) gives its
// definition, which expands into its points again; each attempt directory (attempt-N with its
// envelope.json and exit.json) gives an attempt of its run; and collect stores every result
// document those attempts wrote, by the rules it always applies. The damaged store is only read
// (for the definition of a sweep planned before sweeps kept their record on disk, and to count
// what it held), never written.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace pbench::run {

struct RebuildReport {
  std::string old_path;  ///< the store rebuilt from (kept as it is)
  std::string new_path;  ///< the new store
  std::string runs_dir;  ///< absolute
  int sweeps = 0;
  int points = 0;
  int attempts = 0;
  int runs = 0;
  int results = 0;   ///< result documents stored
  int rejected = 0;  ///< result documents collect refused (their attempts are failed)
  /// Results the old store held, when it could be read (and of them, results without a point,
  /// stored from a document outside any sweep: the runs directory does not hold them).
  std::optional<std::int64_t> old_results;
  std::optional<std::int64_t> old_results_without_point;
  /// What could not be recovered, and collect's messages, one line each.
  std::vector<std::string> messages;
};

/// Makes the store `new_path` from the sweeps of `runs_dir`. Throws UsageError, writing
/// nothing, when `runs_dir` is not a directory or `new_path` exists.
RebuildReport rebuild_store(const std::string& old_path, const std::string& runs_dir,
                            const std::string& new_path);

}  // namespace pbench::run
