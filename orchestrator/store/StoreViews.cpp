#include "store/StoreViews.hpp"

#include <sqlite3.h>

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "pbench_schema.hpp"
#include "util/Sha256.hpp"

namespace pbench::store {
namespace {

const std::string& views_fingerprint() {
  static const std::string fingerprint = sha256_hex(std::string(schema::store_views_sql()));
  return fingerprint;
}

/// `sql`'s statements, each whole (sqlite3_complete: a trigger's body holds semicolons), with
/// the comment lines before each left out.
std::vector<std::string> statements(std::string_view sql) {
  std::vector<std::string> out;
  std::string current;
  while (!sql.empty()) {
    const auto end = sql.find('\n');
    const auto line = sql.substr(0, end);
    sql = end == std::string_view::npos ? std::string_view{} : sql.substr(end + 1);
    if (current.empty() && (line.empty() || line.starts_with("--"))) continue;
    current.append(line).push_back('\n');
    if (sqlite3_complete(current.c_str())) out.push_back(std::exchange(current, {}));
  }
  return out;
}

}  // namespace

void install_views(Database& db) {
  db.exec(std::string(schema::store_views_sql()));
  db.prepare("INSERT OR REPLACE INTO meta(key, value) VALUES ('store_views', ?1)")
      .bind(1, views_fingerprint())
      .run();
}

bool views_current(Database& db) {
  auto held = db.prepare("SELECT value FROM meta WHERE key = 'store_views'");
  return held.step() && held.text(0) == views_fingerprint();
}

void install_temporary_views(Database& db) {
  for (const auto& statement : statements(schema::store_views_sql())) {
    for (const std::string_view kind :
         {"CREATE VIEW ", "CREATE TABLE IF NOT EXISTS ", "CREATE TABLE "}) {
      if (statement.starts_with(kind)) {
        // "CREATE TEMP VIEW ...", "CREATE TEMP TABLE IF NOT EXISTS ...": the rest as written.
        db.exec("CREATE TEMP " + statement.substr(7));
        break;
      }
    }
  }
}

bool refresh_views(Database& db) {
  if (views_current(db)) return false;
  Transaction txn(db);
  install_views(db);
  txn.commit();
  return true;
}

}  // namespace pbench::store
