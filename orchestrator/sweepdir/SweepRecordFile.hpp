#pragma once
// A sweep's record beside its points on disk (<runs-dir>/NAME/sweep.json): its name, scheduler,
// creation time and specification, and its runs (number, start, envelope), as the store holds
// them. Written when the sweep is planned and when a run starts; with the result documents of
// its attempt directories it is what `pbench store rebuild` makes a new store from.
#include <optional>
#include <string>
#include <vector>

#include "store/Store.hpp"

namespace pbench::run {

struct SweepFileRecord {
  store::SweepRecord sweep;            ///< its directory: the one it was read from
  std::vector<store::RunRecord> runs;  ///< run_no, started_at and envelope_json; oldest first
};

/// <directory>/sweep.json.
std::string sweep_record_path(const std::string& directory);

/// Writes the record of `sweep` with its `runs` into its directory (atomically); throws
/// UsageError naming the file when it cannot.
void write_sweep_record(const store::SweepRecord& sweep, const std::vector<store::RunRecord>& runs);

/// The record in `directory`; nothing when there is no sweep.json. Throws UsageError naming the
/// file when it is not such a record.
std::optional<SweepFileRecord> read_sweep_record(const std::string& directory);

}  // namespace pbench::run
