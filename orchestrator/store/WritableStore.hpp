#pragma once
// A store that cannot be written (its directory or file read-only, or not the user's) is said
// in one message, whether found before opening it or from SQLite's "attempt to write a readonly
// database": "cannot write store 'PATH' (read-only directory or file): choose another with --db".
#include <string>

namespace pbench::store {

std::string cannot_write_store_message(const std::string& path);

/// Whether this user may write the store at `path` (its file, and its directory for SQLite's
/// journal or WAL; only the directory when the file does not exist yet).
bool store_writable(const std::string& path);

/// Throws StoreError with that message when the store at `path` (or, when it does not exist
/// yet, its directory) cannot be written: SQLite writes its journal or WAL beside the file.
void require_writable_store(const std::string& path);

}  // namespace pbench::store
