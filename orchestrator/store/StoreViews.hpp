#pragma once
// The store's views (schema/store_views.sql) kept as the code defines them: the store records the
// SHA-256 of the text it made its views from (meta 'store_views'), and opening it for writing
// makes them again when the text differs (opening it to read does so through a writer first, as
// for a migration). So a view that gains a column needs no schema version
// of its own: the next command that writes makes the new views. A user who may only read the
// store (a centre's shared store after an upgrade of pbench) reads through this pbench's views
// made for the one connection (install_temporary_views), until its owner's next write.
#include "store/Database.hpp"

namespace pbench::store {

/// Runs schema/store_views.sql (every view dropped and made again, the headline answers emptied)
/// and records its fingerprint; inside the caller's transaction.
void install_views(Database& db);

/// Whether the store's views are made from this pbench's schema/store_views.sql.
bool views_current(Database& db);

/// This pbench's views as TEMP views of `db` (SQLite looks in temp before main), with the tables
/// the file's script makes (the metric catalogue, the kept headline answers) as empty TEMP tables
/// beside them: a connection that may not write reads through the code's definitions, the kept
/// answers of the older views set aside (the queries read the views for an unanswered run). The
/// caller fills temp.metric_catalogue. Nothing is written to the file.
void install_temporary_views(Database& db);

/// install_views() in a transaction of its own when the recorded fingerprint is not this
/// pbench's; true when it did (the headline answers must then be made again).
bool refresh_views(Database& db);

}  // namespace pbench::store
