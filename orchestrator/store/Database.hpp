#pragma once
// SQLite only through these RAII wrappers: prepared statements with bound parameters, a
// transaction that rolls back unless committed, and a busy timeout so concurrent pbench
// processes wait for each other instead of failing with "database is locked".
#include <sqlite3.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace pbench::store {

class Statement;

class Database {
 public:
  enum class Mode { read_write_create, read_write, read_only };
  /// Opens `path` (":memory:" for an in-memory database); throws StoreError naming the path.
  Database(const std::string& path, Mode mode);
  ~Database();
  Database(Database&& other) noexcept;
  Database& operator=(Database&& other) noexcept;
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;

  /// Runs one or more statements that take no parameters (schema, pragmas).
  void exec(const std::string& sql);
  /// Prepares one statement.
  Statement prepare(std::string_view sql);
  /// Row id of the last insert on this connection.
  std::int64_t last_insert_rowid() const;
  /// Rows changed by the last statement.
  int changes() const;
  const std::string& path() const { return path_; }
  sqlite3* handle() const { return db_; }

 private:
  sqlite3* db_ = nullptr;
  std::string path_;
};

class Statement {
 public:
  Statement(sqlite3* db, std::string_view sql);
  ~Statement();
  Statement(Statement&& other) noexcept;
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;
  Statement& operator=(Statement&&) = delete;

  /// Binds parameter `index` (1-based); returns *this for chaining.
  Statement& bind(int index, std::int64_t value);
  Statement& bind(int index, int value) { return bind(index, static_cast<std::int64_t>(value)); }
  Statement& bind(int index, double value);
  Statement& bind(int index, std::string_view value);
  Statement& bind(int index, const std::string& value) {
    return bind(index, std::string_view(value));
  }
  Statement& bind(int index, const char* value) { return bind(index, std::string_view(value)); }
  Statement& bind(int index, std::nullopt_t);
  /// Binds bytes as a BLOB (a packed document).
  Statement& bind_blob(int index, std::string_view bytes);
  template <class T>
  Statement& bind(int index, const std::optional<T>& value) {
    return value ? bind(index, *value) : bind(index, std::nullopt);
  }

  /// Advances to the next row; false when done. Throws StoreError on failure.
  bool step();
  /// Runs a statement that returns no rows.
  void run();
  /// Resets for another execution with new bindings.
  void reset();

  bool is_null(int column) const;
  /// SQLITE_INTEGER, SQLITE_FLOAT, SQLITE_TEXT, SQLITE_BLOB or SQLITE_NULL.
  int type(int column) const;
  std::int64_t int64(int column) const;
  double real(int column) const;
  std::string text(int column) const;
  /// The bytes of a BLOB (or TEXT) column.
  std::string blob(int column) const;
  std::optional<std::int64_t> optional_int64(int column) const;
  std::optional<std::string> optional_text(int column) const;
  std::optional<double> optional_real(int column) const;

 private:
  sqlite3* db_;
  sqlite3_stmt* stmt_ = nullptr;
};

/// BEGIN IMMEDIATE on construction; rolls back in the destructor unless commit() was called.
class Transaction {
 public:
  explicit Transaction(Database& db);
  ~Transaction();
  Transaction(const Transaction&) = delete;
  Transaction& operator=(const Transaction&) = delete;
  /// Makes the transaction's changes permanent.
  void commit();

 private:
  Database& db_;
  bool done_ = false;
};

}  // namespace pbench::store
