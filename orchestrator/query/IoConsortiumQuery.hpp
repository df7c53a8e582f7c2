#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "query/QueryTable.hpp"
#include "store/Store.hpp"

namespace pbench::query {

/// io's consortium suite (`pbench query io --suite consortium`), from the newest result of each
/// io point that ran it: one row per point and named test (sustained_write, cached_write,
/// sustained_read) with the point's pattern, api, file sharing, hints, transfer and block size
/// and segments, the transfer rate (the maximum over iterations) and, from the iteration that
/// gave it, the per-process bandwidth and the open and close times (min, mean, max over
/// processes); then one row per small-files phase and directory with its rate (the maximum over
/// iterations). Partial and not valid results are shown with their reason in the notes.
QueryTable io_consortium_table(store::Store& store, const std::optional<std::string>& sweep);

/// The number of stored io results of the consortium suite (newest per point) in `sweep` (all
/// sweeps when empty).
std::int64_t count_consortium_results(store::Store& store, const std::optional<std::string>& sweep);

}  // namespace pbench::query
