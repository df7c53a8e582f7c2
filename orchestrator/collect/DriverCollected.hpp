#pragma once
// What a background driver (pbench submit, its _drive) stored as its points ended, kept for the
// next `pbench collect` to report: a sweep's results are stored as each point ends (a runs
// directory deleted or filled later costs nothing finished), and collect still says every
// result stored and every finding, as when it stored them itself. The counts live in the
// sweep's directory (driver-collected.json), read and written under an flock of their own.
#include <filesystem>

#include "collect/Collector.hpp"

namespace pbench::run {

/// Adds `report` to what the drivers of the sweep in `sweep_dir` collected and no collect has
/// reported yet. Returns false (nothing thrown) when the file cannot be written, e.g. the runs
/// directory was deleted: the results are in the store all the same.
bool add_driver_collected(const std::filesystem::path& sweep_dir, const CollectReport& report);

/// What the drivers collected since the last call, and forgets it (an empty report when
/// nothing; a file that cannot be read is said in the report's messages).
CollectReport take_driver_collected(const std::filesystem::path& sweep_dir);

}  // namespace pbench::run
