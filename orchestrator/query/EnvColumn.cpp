#include "query/EnvColumn.hpp"

#include <map>
#include <string>

namespace pbench::query {

void add_env_column(store::Store& store, QueryTable& table,
                    const std::vector<std::int64_t>& results) {
  auto s = store.db().prepare(
      "SELECT r.id, json_extract(p.params_json, '$.env') FROM results r "
      "JOIN points p ON p.id = r.point_id WHERE json_extract(p.params_json, '$.env') IS NOT NULL");
  std::map<std::int64_t, std::string> envs;
  while (s.step()) envs[s.int64(0)] = s.text(1);
  bool any = false;
  for (auto id : results) any = any || envs.count(id) > 0;
  if (!any || results.size() != table.rows.size()) return;
  std::size_t at = 0;
  while (at < table.columns.size() && table.columns[at].key != "sweep") ++at;
  at = at < table.columns.size() ? at + 1 : 0;
  table.columns.insert(table.columns.begin() + static_cast<std::ptrdiff_t>(at),
                       QueryColumn{"env", "", "env", "", 1, 0});
  for (std::size_t i = 0; i < table.rows.size(); ++i) {
    const auto it = envs.find(results[i]);
    table.rows[i].insert(table.rows[i].begin() + static_cast<std::ptrdiff_t>(at),
                         it == envs.end() ? Cell{} : Cell{it->second});
  }
}

}  // namespace pbench::query
