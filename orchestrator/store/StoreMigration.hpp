#pragma once
// The steps that bring a store written by an older pbench to the schema this one reads, in
// order, one function a version: Store::open runs them when it opens an older store for
// writing (a store opened read-only is migrated once through a writing connection first).
#include "store/Database.hpp"

namespace pbench::store {

class StoreMigration {
 public:
  explicit StoreMigration(Database& db) : db_(db) {}
  /// Brings a store of schema version `from` (1 to kStoreSchemaVersion - 1) to
  /// kStoreSchemaVersion, each step in its own transaction, in order.
  void run(int from);

 private:
  /// Before any other step from a version below 9: results' column ingest_reason, which the
  /// views every step makes read.
  void add_ingest_reason_column();
  /// Before any other step from a version below 11: results' columns head and packed (empty
  /// until from_version_10 fills them), which the views every step makes read.
  void add_document_columns();
  /// Version 1 -> 2: the covering indexes and results_by_attempt (one transaction).
  void from_version_1();
  /// Version 2 -> 3: runs; every sweep's attempts and results become its run 1.
  void from_version_2();
  /// Version 3 -> 4: the layout columns (shape asked for, nodes, processes per node, node
  /// list, placement), filled from the stored parameters and documents.
  void from_version_3();
  /// Version 4 -> 5: the metric catalogue and the views (schema/store_views.sql).
  void from_version_4();
  /// Version 5 -> 6: the views with the column env (a sweep's environment, --envs).
  void from_version_5();
  /// Version 6 -> 7: the catalogue's column companion_of.
  void from_version_6();
  /// Version 7 -> 8: the headline rule's one order (headline_ranks) and the kept answers
  /// (headline_answers, headline_answered and their triggers).
  void from_version_7();
  /// Version 8 -> 9: results' ingest_reason; a stored valid result with a figure that cannot be
  /// (the catalogue's bounds) becomes not valid with the reason, as ingest now stores it.
  void from_version_8();
  /// Version 9 -> 10: the environment as a key of every headline (the views' point_envs and
  /// env in headline_* and headline_answers) and the settings that define a result
  /// (result_settings); no table of results changes, the kept answers are made again.
  void from_version_9();
  /// Version 10 -> 11: every result document compressed (store/PackedDocument.hpp: results'
  /// columns head and packed; document dropped), in batches of one transaction each, so that an
  /// interrupted migration goes on where it stopped when run again; its progress on stderr.
  /// The space the text took is given back by compact_if_pending.
  void from_version_10();
  /// Version 11 -> 12: every sweep's cluster (its specification's machine.cluster) and name
  /// kept (base_name), the view run_origins; the columns are added by add_origin_columns.
  void from_version_11();
  /// Before any other step from a version below 12: the table origins and the column origin_id
  /// of sweeps, points, runs, attempts and results, with sweeps' cluster and base_name (one
  /// transaction), which the views every step makes read.
  void add_origin_columns();
  /// The end of a step, inside its transaction: every view made again (schema/store_views.sql
  /// drops and makes each) and the store marked as of schema `version`.
  void remake_views_at(int version);
  /// A step that changes no table: the views made again at `version`, in a transaction.
  void views_only_step(int version);
  /// The catalogue's copy dropped (a step that changes its columns), for refresh_catalogue()
  /// to make and fill again.
  void drop_catalogue_copy();
  /// Packs the next `batch` documents not packed yet; returns how many it packed.
  int pack_batch(int batch);

  Database& db_;
};

/// VACUUM, when a migration left it to do (meta compact = pending): the space of the
/// uncompressed documents given back to the file system. A VACUUM interrupted leaves the file
/// as it was, and the next open for writing does it again.
void compact_if_pending(Database& db);

}  // namespace pbench::store
