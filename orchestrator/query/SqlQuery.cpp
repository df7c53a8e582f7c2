#include "query/SqlQuery.hpp"

#include <sqlite3.h>

#include <cctype>
#include <memory>

#include "store/Store.hpp"
#include "util/Error.hpp"

namespace pbench::query {

QueryTable sql_table(const std::string& path, const std::string& sql) {
  auto store = store::Store::open(path, store::Store::Access::read_only);
  sqlite3* db = store.db().handle();
  store.db().exec("PRAGMA query_only = ON");
  sqlite3_limit(db, SQLITE_LIMIT_ATTACHED, 0);  // no ATTACH: nothing else can be opened

  sqlite3_stmt* raw = nullptr;
  const char* tail = nullptr;
  if (sqlite3_prepare_v2(db, sql.c_str(), static_cast<int>(sql.size()), &raw, &tail) != SQLITE_OK) {
    throw UsageError(std::string("query sql: ") + sqlite3_errmsg(db));
  }
  std::unique_ptr<sqlite3_stmt, int (*)(sqlite3_stmt*)> stmt(raw, &sqlite3_finalize);
  if (stmt == nullptr) throw UsageError("query sql: no statement given");
  for (const char* c = tail; c != nullptr && *c != '\0'; ++c) {
    if (!std::isspace(static_cast<unsigned char>(*c)) && *c != ';') {
      throw UsageError("query sql: only one statement is allowed");
    }
  }
  if (!sqlite3_stmt_readonly(stmt.get())) {
    throw UsageError(
        "query sql: the store is read-only here; only statements that read (SELECT) "
        "are allowed");
  }
  QueryTable table;
  const int n = sqlite3_column_count(stmt.get());
  for (int i = 0; i < n; ++i) {
    const std::string name = sqlite3_column_name(stmt.get(), i);
    table.columns.push_back({name, "", name, "", 1, 6});
  }
  for (;;) {
    const int rc = sqlite3_step(stmt.get());
    if (rc == SQLITE_DONE) break;
    if (rc != SQLITE_ROW) throw UsageError(std::string("query sql: ") + sqlite3_errmsg(db));
    std::vector<Cell> row;
    for (int i = 0; i < n; ++i) {
      switch (sqlite3_column_type(stmt.get(), i)) {
        case SQLITE_INTEGER:
          row.emplace_back(std::int64_t{sqlite3_column_int64(stmt.get(), i)});
          break;
        case SQLITE_FLOAT:
          row.emplace_back(sqlite3_column_double(stmt.get(), i));
          break;
        case SQLITE_NULL:
          row.emplace_back();
          break;
        case SQLITE_BLOB:
          row.emplace_back("<blob " + std::to_string(sqlite3_column_bytes(stmt.get(), i)) +
                           " bytes>");
          break;
        default:
          row.emplace_back(
              std::string(reinterpret_cast<const char*>(sqlite3_column_text(stmt.get(), i)),
                          static_cast<std::size_t>(sqlite3_column_bytes(stmt.get(), i))));
      }
    }
    table.rows.push_back(std::move(row));
  }
  return table;
}

}  // namespace pbench::query
