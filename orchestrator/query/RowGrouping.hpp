#pragma once
// `--by T|hints|queue_depth|partition|nodes|ppn|env` on the worker tables: the rows ordered by one
// key, so the rows of a group stand together (a stable sort: within a group the table's own
// order).
#include <string>

#include "query/QueryTable.hpp"

namespace pbench::query {

/// The keys `--by` accepts.
const char* grouping_keys();
/// Orders the rows by the column of `key` (T is the column schedule_time): numbers ascending,
/// then text, then missing cells; equal keys keep their order. Throws UsageError for an unknown
/// key or a key the table has no column of.
void group_rows(QueryTable& table, const std::string& key);

}  // namespace pbench::query
