#include "store/Integrity.hpp"

#include "util/Error.hpp"

namespace pbench::store {

std::string damaged_store_message(const std::string& path, const std::string& said) {
  return "store '" + path + "' is damaged (SQLite: " + said +
         "); nothing was written into it: 'pbench store verify --db " + path +
         "' says what, 'pbench store rebuild --db " + path +
         "' makes a new store from the result documents in the runs directory";
}

std::vector<std::string> integrity_problems(Database& db, bool full, int limit) {
  std::vector<std::string> problems;
  try {
    auto check = db.prepare(std::string(full ? "PRAGMA integrity_check(" : "PRAGMA quick_check(") +
                            std::to_string(limit) + ")");
    while (check.step()) {
      // A row may hold several lines, the first naming the database ("*** in database main
      // ***"): one problem a line, without that heading.
      const std::string text = check.text(0);
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
  } catch (const StoreDamagedError& e) {
    // SQLite could not even walk the file: its error is the problem.
    problems.push_back(e.sqlite_said());
  }
  return problems;
}

void require_intact(Database& db) {
  const auto problems = integrity_problems(db, false, 10);
  if (problems.empty()) return;
  std::string said = problems.front();
  if (problems.size() > 1) {
    said += " (and " + std::to_string(problems.size() - 1) + " more problem" +
            (problems.size() > 2 ? "s" : "") + ")";
  }
  throw StoreDamagedError(damaged_store_message(db.path(), said), problems.front());
}

}  // namespace pbench::store
