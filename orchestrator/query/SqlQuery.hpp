#pragma once
#include <string>

#include "query/QueryTable.hpp"

namespace pbench::query {

/// Runs one SQL statement on the store at `path` through a read-only connection
/// (SQLITE_OPEN_READONLY, PRAGMA query_only, no ATTACH) and returns its rows. Throws UsageError
/// for anything but a single statement that only reads, and StoreError for SQL errors; the
/// file is never changed.
QueryTable sql_table(const std::string& path, const std::string& sql);

}  // namespace pbench::query
