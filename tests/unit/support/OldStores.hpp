#pragma once
// Turning a new store back into an older version, for the tests of the migrations.
#include <string>
#include <vector>

#include "store/Store.hpp"

namespace pbench::testing {

/// Drops the views of schema/store_views.sql, their triggers and the connection's temporary
/// chosen_run (which reads them); a migration makes its version's again.
inline void drop_views(store::Store& store) {
  auto& db = store.db();
  db.exec("DROP VIEW IF EXISTS temp.chosen_run");
  std::vector<std::string> views;
  auto s = db.prepare("SELECT name FROM main.sqlite_master WHERE type = 'view'");
  while (s.step()) views.push_back(s.text(0));
  for (const auto& view : views) db.exec("DROP VIEW main.\"" + view + "\"");
  std::vector<std::string> triggers;  // version 8's kept answers
  auto t = db.prepare("SELECT name FROM main.sqlite_master WHERE type = 'trigger'");
  while (t.step()) triggers.push_back(t.text(0));
  for (const auto& trigger : triggers) db.exec("DROP TRIGGER main.\"" + trigger + "\"");
}

/// Makes a new store a version 10 store: its documents as text in results.document again, no
/// head and packed (without its views: the migration makes version 11's).
inline void make_version_10(store::Store& store) {
  drop_views(store);
  store.db().exec(
      "ALTER TABLE results ADD COLUMN document TEXT NOT NULL DEFAULT '';"
      "UPDATE results SET document = document(packed);"
      "ALTER TABLE results DROP COLUMN head; ALTER TABLE results DROP COLUMN packed;"
      "PRAGMA user_version = 10");
}

/// Makes a new store a version 4 store: its documents as text, without the metric catalogue
/// and the views of schema/store_views.sql.
inline void make_version_4(store::Store& store) {
  make_version_10(store);
  auto& db = store.db();
  db.exec(
      "DROP TABLE headline_answers; DROP TABLE headline_answered;"
      "DROP TABLE metric_catalogue; DELETE FROM meta WHERE key = 'metric_catalogue';"
      "PRAGMA user_version = 4");
}

}  // namespace pbench::testing
