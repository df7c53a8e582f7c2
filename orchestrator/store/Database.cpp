#include "store/Database.hpp"

#include <unistd.h>

#include <cerrno>

#include "store/Integrity.hpp"
#include "store/PackedDocument.hpp"
#include "store/WritableStore.hpp"
#include "util/Error.hpp"

namespace pbench::store {
namespace {

// How long a statement waits for another process's lock (SQLite retries until then) before
// it fails: the budget of a busy store.
constexpr int kBusyTimeoutMs = 10000;

bool is_busy(sqlite3* db) {
  return db && (sqlite3_extended_errcode(db) & 0xff) == SQLITE_BUSY;
}

/// SQLite found the file damaged ("database disk image is malformed") while it ran a statement:
/// said as a damaged store, with the way to recover.
void throw_if_corrupt(sqlite3* db, const std::string& path, const std::string& said) {
  if (db && (sqlite3_extended_errcode(db) & 0xff) == SQLITE_CORRUPT) {
    throw StoreDamagedError(damaged_store_message(path, said), said);
  }
}

/// The message when the busy budget ran out: which store, who holds it, how long we waited.
std::string busy_message(sqlite3* db, const std::string& path) {
  if (sqlite3_extended_errcode(db) == SQLITE_BUSY_SNAPSHOT) {
    // Not a wait that ran out: a read transaction that another process's write made stale.
    return "store '" + path + "' was changed by another process during this command; run it " +
           "again (SQLite: " + sqlite3_errmsg(db) + ")";
  }
  return "store '" + path + "' is locked by another process: gave up after waiting " +
         std::to_string(kBusyTimeoutMs / 1000) + " s (SQLite: " + sqlite3_errmsg(db) + ")";
}

[[noreturn]] void fail(sqlite3* db, const std::string& what) {
  const char* file = db ? sqlite3_db_filename(db, "main") : nullptr;
  if (is_busy(db)) throw StoreError(busy_message(db, file ? file : ""));
  if (db) throw_if_corrupt(db, file ? file : "", sqlite3_errmsg(db));
  // A write the file system refused: the store's directory or file is not writable.
  if (db && (sqlite3_extended_errcode(db) & 0xff) == SQLITE_READONLY) {
    throw StoreError(cannot_write_store_message(file ? file : "") +
                     " (SQLite: " + sqlite3_errmsg(db) + ")");
  }
  throw StoreError(what + ": " + (db ? sqlite3_errmsg(db) : "out of memory"));
}

/// `path` as an SQLite URI of a file nobody can change (immutable=1): '%', '?' and '#' escaped.
std::string immutable_uri(const std::string& path) {
  std::string uri = "file:";
  for (char c : path) {
    if (c == '%' || c == '?' || c == '#') {
      static const char* hex = "0123456789ABCDEF";
      uri += '%';
      uri += hex[(static_cast<unsigned char>(c) >> 4) & 0xf];
      uri += hex[static_cast<unsigned char>(c) & 0xf];
    } else {
      uri += c;
    }
  }
  return uri + "?immutable=1";
}

/// True when this process may not create files beside `path` (SQLite's -wal and -shm).
bool directory_is_read_only(const std::string& path) {
  const auto slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? "."
                          : slash == 0               ? "/"
                                                     : path.substr(0, slash);
  return ::access(dir.c_str(), W_OK) != 0 && errno != ENOENT;
}

}  // namespace

Database::Database(const std::string& path, Mode mode) : path_(path) {
  int flags = SQLITE_OPEN_NOMUTEX;
  switch (mode) {
    case Mode::read_write_create:
      flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
      break;
    case Mode::read_write:
      flags |= SQLITE_OPEN_READWRITE;
      break;
    case Mode::read_only:
      flags |= SQLITE_OPEN_READONLY;
      break;
  }
  std::string name = path;
  if (mode == Mode::read_only && path != ":memory:" && directory_is_read_only(path)) {
    // A store in a directory this process cannot write: SQLite could make no -shm file for a
    // WAL store there and would fail to open it. Nobody without write access can change it
    // either, so it is read as an immutable file.
    name = immutable_uri(path);
    flags |= SQLITE_OPEN_URI;
  }
  if (sqlite3_open_v2(name.c_str(), &db_, flags, nullptr) != SQLITE_OK) {
    std::string message = db_ ? sqlite3_errmsg(db_) : "out of memory";
    sqlite3_close(db_);
    db_ = nullptr;
    throw StoreError("cannot open store '" + path + "': " + message);
  }
  sqlite3_busy_timeout(db_, kBusyTimeoutMs);
  sqlite3_extended_result_codes(db_, 1);
  register_document_function(db_);
  // Every page a statement reads is checked as it is read (its cells within the page): a
  // damaged page stops the statement, and the command's transaction writes nothing.
  sqlite3_exec(db_, "PRAGMA cell_size_check = ON", nullptr, nullptr, nullptr);
}

Database::~Database() {
  if (db_) sqlite3_close_v2(db_);
}

Database::Database(Database&& other) noexcept : db_(other.db_), path_(std::move(other.path_)) {
  other.db_ = nullptr;
}

Database& Database::operator=(Database&& other) noexcept {
  if (this != &other) {
    if (db_) sqlite3_close_v2(db_);
    db_ = other.db_;
    path_ = std::move(other.path_);
    other.db_ = nullptr;
  }
  return *this;
}

void Database::exec(const std::string& sql) {
  char* error = nullptr;
  if (sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &error) != SQLITE_OK) {
    std::string message = error ? error : sqlite3_errmsg(db_);
    sqlite3_free(error);
    if (is_busy(db_)) throw StoreError(busy_message(db_, path_));
    throw_if_corrupt(db_, path_, message);
    throw StoreError("store '" + path_ + "': " + message);
  }
}

Statement Database::prepare(std::string_view sql) {
  return Statement(db_, sql);
}

std::int64_t Database::last_insert_rowid() const {
  return sqlite3_last_insert_rowid(db_);
}

int Database::changes() const {
  return sqlite3_changes(db_);
}

Statement::Statement(sqlite3* db, std::string_view sql) : db_(db) {
  if (sqlite3_prepare_v2(db_, sql.data(), static_cast<int>(sql.size()), &stmt_, nullptr) !=
      SQLITE_OK) {
    fail(db_, "cannot prepare SQL");
  }
}

Statement::~Statement() {
  if (stmt_) sqlite3_finalize(stmt_);
}

Statement::Statement(Statement&& other) noexcept : db_(other.db_), stmt_(other.stmt_) {
  other.stmt_ = nullptr;
}

Statement& Statement::bind(int index, std::int64_t value) {
  if (sqlite3_bind_int64(stmt_, index, value) != SQLITE_OK) fail(db_, "cannot bind");
  return *this;
}

Statement& Statement::bind(int index, double value) {
  if (sqlite3_bind_double(stmt_, index, value) != SQLITE_OK) fail(db_, "cannot bind");
  return *this;
}

Statement& Statement::bind(int index, std::string_view value) {
  if (sqlite3_bind_text(stmt_, index, value.data(), static_cast<int>(value.size()),
                        SQLITE_TRANSIENT) != SQLITE_OK) {
    fail(db_, "cannot bind");
  }
  return *this;
}

Statement& Statement::bind_blob(int index, std::string_view bytes) {
  if (sqlite3_bind_blob64(stmt_, index, bytes.data(), bytes.size(), SQLITE_TRANSIENT) !=
      SQLITE_OK) {
    fail(db_, "cannot bind");
  }
  return *this;
}

Statement& Statement::bind(int index, std::nullopt_t) {
  if (sqlite3_bind_null(stmt_, index) != SQLITE_OK) fail(db_, "cannot bind");
  return *this;
}

bool Statement::step() {
  const int rc = sqlite3_step(stmt_);
  if (rc == SQLITE_ROW) return true;
  if (rc == SQLITE_DONE) return false;
  fail(db_, "SQL failed");
}

void Statement::run() {
  while (step()) {
  }
}

void Statement::reset() {
  sqlite3_reset(stmt_);
  sqlite3_clear_bindings(stmt_);
}

int Statement::type(int column) const {
  return sqlite3_column_type(stmt_, column);
}

bool Statement::is_null(int column) const {
  return sqlite3_column_type(stmt_, column) == SQLITE_NULL;
}

std::int64_t Statement::int64(int column) const {
  return sqlite3_column_int64(stmt_, column);
}

double Statement::real(int column) const {
  return sqlite3_column_double(stmt_, column);
}

std::string Statement::text(int column) const {
  const auto* p = sqlite3_column_text(stmt_, column);
  const int n = sqlite3_column_bytes(stmt_, column);
  return p ? std::string(reinterpret_cast<const char*>(p), static_cast<std::size_t>(n))
           : std::string();
}

std::string Statement::blob(int column) const {
  const auto* p = sqlite3_column_blob(stmt_, column);
  const int n = sqlite3_column_bytes(stmt_, column);
  return p ? std::string(static_cast<const char*>(p), static_cast<std::size_t>(n)) : std::string();
}

std::optional<std::int64_t> Statement::optional_int64(int column) const {
  if (is_null(column)) return std::nullopt;
  return int64(column);
}

std::optional<std::string> Statement::optional_text(int column) const {
  if (is_null(column)) return std::nullopt;
  return text(column);
}

std::optional<double> Statement::optional_real(int column) const {
  if (is_null(column)) return std::nullopt;
  return real(column);
}

Transaction::Transaction(Database& db) : db_(db) {
  db_.exec("BEGIN IMMEDIATE");
}

Transaction::~Transaction() {
  if (!done_) {
    try {
      db_.exec("ROLLBACK");
    } catch (...) {
      // The connection is closing or already rolled back; nothing more to undo.
    }
  }
}

void Transaction::commit() {
  db_.exec("COMMIT");
  done_ = true;
}

}  // namespace pbench::store
