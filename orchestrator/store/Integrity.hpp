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
/// finds one: before a command writes into a store, or answers from it.
void require_intact(Database& db);

}  // namespace pbench::store
