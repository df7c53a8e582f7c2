#include "store/Integrity.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <iterator>

#include "util/Error.hpp"

namespace pbench::store {

std::string damaged_store_message(const std::string& path, const std::string& said) {
  return "store '" + path + "' is damaged (SQLite: " + said +
         "); nothing was written into it: 'pbench store verify --db " + path +
         "' says what, 'pbench store rebuild --db " + path +
         "' makes a new store from the result documents in the runs directory";
}

namespace {

/// The lines of a check's row, one problem each, without "ok" and the heading that names the
/// database ("*** in database main ***").
void add_problem_lines(const std::string& text, std::vector<std::string>& problems) {
  std::size_t start = 0;
  while (start <= text.size()) {
    auto end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    const std::string line = text.substr(start, end - start);
    if (!line.empty() && line != "ok" && line.rfind("*** in database ", 0) != 0) {
      problems.push_back(line);
    }
    start = end + 1;
  }
}

}  // namespace

std::vector<std::string> integrity_problems(Database& db, bool full, int limit) {
  std::vector<std::string> problems;
  try {
    auto check = db.prepare(std::string(full ? "PRAGMA integrity_check(" : "PRAGMA quick_check(") +
                            std::to_string(limit) + ")");
    while (check.step()) {
      // A row may hold several lines, the first naming the database: one problem a line.
      add_problem_lines(check.text(0), problems);
    }
  } catch (const StoreDamagedError& e) {
    // SQLite could not even walk the file: its error is the problem.
    problems.push_back(e.sqlite_said());
  }
  return problems;
}

namespace {

[[noreturn]] void throw_damaged(Database& db, const std::vector<std::string>& problems) {
  std::string said = problems.front();
  if (problems.size() > 1) {
    said += " (and " + std::to_string(problems.size() - 1) + " more problem" +
            (problems.size() > 2 ? "s" : "") + ")";
  }
  throw StoreDamagedError(damaged_store_message(db.path(), said), problems.front());
}

/// The tables whose size grows with the history kept: checked where a command appends.
constexpr const char* kGrowingTables[] = {"results", "metrics", "attempts", "headline_answers"};

/// "DEV:INODE" of the store's file; "" for an in-memory store or one that cannot be stat'ed.
std::string file_identity(const std::string& path) {
  struct stat st {};
  if (path.empty() || path == ":memory:" || ::stat(path.c_str(), &st) != 0) return "";
  return std::to_string(st.st_dev) + ":" + std::to_string(st.st_ino);
}

/// The problems of the bounded check: quick_check of every table but the growing ones (with
/// their indexes), and the path from the root to the last leaf of each growing table.
std::vector<std::string> bounded_problems(Database& db) {
  std::vector<std::string> tables;
  {
    auto s = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND rootpage > 0");
    while (s.step()) tables.push_back(s.text(0));
  }
  std::vector<std::string> problems;
  try {
    for (const auto& table : tables) {
      const bool growing = std::find(std::begin(kGrowingTables), std::end(kGrowingTables), table) !=
                           std::end(kGrowingTables);
      if (growing) {
        // max(rowid) reads (and, with cell_size_check, checks) every page from the table's root
        // to its last leaf, where the next row goes. The name is one of kGrowingTables.
        db.prepare("SELECT max(rowid) FROM " + table).run();
        continue;
      }
      auto check = db.prepare("SELECT * FROM pragma_quick_check(?1)");
      check.bind(1, table);
      while (check.step()) add_problem_lines(check.text(0), problems);
    }
  } catch (const StoreDamagedError& e) {
    problems.push_back(e.sqlite_said());
  }
  return problems;
}

}  // namespace

void require_intact(Database& db) {
  const auto problems = integrity_problems(db, false, 10);
  if (!problems.empty()) throw_damaged(db, problems);
}

void require_intact_for_writing(Database& db, bool record) {
  const std::string identity = file_identity(db.path());
  std::string checked;
  {
    auto s = db.prepare("SELECT value FROM meta WHERE key = 'checked_file'");
    if (s.step()) checked = s.text(0);
  }
  if (!identity.empty() && identity == checked) {
    const auto problems = bounded_problems(db);
    if (!problems.empty()) throw_damaged(db, problems);
    return;
  }
  require_intact(db);
  if (record && !identity.empty()) {
    db.prepare("INSERT OR REPLACE INTO meta(key, value) VALUES ('checked_file', ?1)")
        .bind(1, identity)
        .run();
  }
}

}  // namespace pbench::store
