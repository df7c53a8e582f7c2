#include "query/EnvSelection.hpp"

#include <algorithm>

#include "util/Error.hpp"
#include "util/TextSafety.hpp"

namespace pbench::query {

void require_known_envs(const std::string& sweep, const std::set<std::string>& known,
                        const std::vector<std::string>& envs) {
  for (const auto& env : envs) {
    if (known.count(env)) continue;
    std::string list;
    for (const auto& k : known) list += (list.empty() ? "" : ", ") + k;
    throw UsageError(
        "--envs: no figure of " +
        (sweep.empty() ? std::string("any sweep") : "sweep '" + printable_utf8(sweep) + "'") +
        " in environment '" + printable_utf8(env) + "' (" +
        (list.empty() ? std::string("it was not made with --envs") : "its environments: " + list) +
        ")");
  }
}

void select_env_rows(QueryTable& table, const std::string& sweep,
                     const std::vector<std::string>& envs) {
  if (envs.empty()) return;
  const auto column = find_column(table, "env");
  std::set<std::string> known;
  if (column) {
    for (const auto& row : table.rows) {
      if (const auto* env = std::get_if<std::string>(&row[*column])) known.insert(*env);
    }
  }
  require_known_envs(sweep, known, envs);
  std::erase_if(table.rows, [&](const auto& row) {
    const auto* env = std::get_if<std::string>(&row[*column]);
    return env == nullptr || std::find(envs.begin(), envs.end(), *env) == envs.end();
  });
}

}  // namespace pbench::query
