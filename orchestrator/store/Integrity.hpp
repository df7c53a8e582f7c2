#pragma once
// A store that defends itself: SQLite's own checks of the file (PRAGMA quick_check where it is
// cheap, integrity_check on demand), and the one message that names a damaged store with the way
// to recover (the result documents on disk are the source: `pbench store rebuild`).
#include <string>
#include <vector>

#include "store/Database.hpp"

namespace pbench::store {

/// "store 'PATH' is damaged (SQLite: SAID); nothing was written into it: ..." with the commands
/// that say what (`pbench store verify`) and make a new store from the runs directory
/// (`pbench store rebuild`).
std::string damaged_store_message(const std::string& path, const std::string& said);

/// What PRAGMA quick_check (with `full`, PRAGMA integrity_check) says is wrong with the file, at
/// most `limit` lines; empty when SQLite answers "ok". A store too damaged to be checked at all
/// gives SQLite's error as its one line.
std::vector<std::string> integrity_problems(Database& db, bool full, int limit = 100);

/// Throws StoreDamagedError (damaged_store_message with the first problem) when quick_check
/// finds one: the whole file.
void require_intact(Database& db);

/// The check before a command writes into a store (or `check` gates on it), bounded so that it
/// does not grow with the file (docs/store.md, "A damaged store"):
/// - the whole quick_check when the file is not the one last checked clean (its device and
///   inode, recorded in meta as checked_file after a clean whole check: a copy, a file restored
///   or moved in) or none was recorded; with `record`, a clean whole check is recorded;
/// - else quick_check of every table but the four that grow with the history (results,
///   metrics, attempts, headline_answers) with their indexes, and the path from the root to
///   the last page of each of those four and of their indexes, where a command appends.
/// Every connection reads with cell_size_check on (Database), so a damaged page that a
/// statement meets elsewhere stops it, and the command's transaction writes nothing.
void require_intact_for_writing(Database& db, bool record);

}  // namespace pbench::store
