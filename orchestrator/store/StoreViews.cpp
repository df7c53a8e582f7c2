#include "store/StoreViews.hpp"

#include <string>

#include "pbench_schema.hpp"
#include "util/Sha256.hpp"

namespace pbench::store {
namespace {

std::string views_fingerprint() {
  return sha256_hex(std::string(schema::store_views_sql()));
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

bool refresh_views(Database& db) {
  if (views_current(db)) return false;
  Transaction txn(db);
  install_views(db);
  txn.commit();
  return true;
}

}  // namespace pbench::store
