#include <algorithm>
#include <filesystem>
#include <iostream>
#include <memory>

#include "cli/Commands.hpp"
#include "query/QueryTable.hpp"
#include "store/Store.hpp"

namespace pbench::cli {

std::string stored_sweeps_hint(const std::string& db) {
  try {
    auto store = store::Store::open(db, store::Store::Access::read_only);
    const auto sweeps = store.sweeps();
    if (sweeps.empty()) return "No sweeps in " + db + " yet (plan one with 'pbench sweep NAME').\n";
    std::size_t width = 0;
    for (const auto& s : sweeps) width = std::max(width, s.name.size());
    std::string out = "The sweeps in " + db + ":\n";
    for (const auto& s : sweeps) {
      out += "  " + s.name + std::string(width - s.name.size() + 2, ' ') + s.scheduler + ", " +
             std::to_string(store.points(s.id).size()) + " points, planned " + s.created_at + "\n";
    }
    return out;
  } catch (const std::exception& e) {
    return std::string("No sweeps to list: ") + e.what() + "\n";
  }
}

std::vector<std::string> stored_sweep_names(const std::string& db) {
  std::vector<std::string> names;
  if (!std::filesystem::exists(db)) return names;
  try {
    auto store = store::Store::open(db, store::Store::Access::read_only);
    for (const auto& s : store.sweeps()) names.push_back(s.name);
  } catch (const std::exception&) {
    // Not a store, or not readable: nothing to offer.
  }
  return names;
}

void add_list_command(CLI::App& app, GlobalOptions& global) {
  auto* command = app.add_subcommand("list",
                                     "The stored sweeps: cluster, scheduler, points, runs, done "
                                     "and failed points, created, last run");
  auto format = std::make_shared<std::string>("table");
  command->add_option("--format", *format, "table, csv, json or markdown")->capture_default_str();
  command->callback([format, &global] {
    const auto f = query::parse_format(*format);
    auto store = store::Store::open(global.db, store::Store::Access::read_only);
    query::QueryTable table;
    // cluster: the site profile's [machine] cluster, the one --by cluster compares by (empty
    // when the profile named none).
    table.columns = {query::label_column("sweep"),
                     query::label_column("cluster"),
                     query::label_column("scheduler"),
                     query::label_column("points"),
                     query::label_column("runs"),
                     query::label_column("done"),
                     query::label_column("failed"),
                     query::label_column("created"),
                     query::label_column("last_run", "last run")};
    auto s = store.db().prepare(
        "SELECT sw.name, sw.cluster, sw.scheduler, "
        "(SELECT count(*) FROM points WHERE sweep_id = sw.id), "
        "(SELECT count(*) FROM runs WHERE sweep_id = sw.id), "
        "(SELECT count(*) FROM points WHERE sweep_id = sw.id AND state = 'done'), "
        "(SELECT count(*) FROM points WHERE sweep_id = sw.id "
        "AND state IN ('failed', 'cancelled', 'timeout')), "
        "sw.created_at, (SELECT max(started_at) FROM runs WHERE sweep_id = sw.id) "
        "FROM sweeps sw ORDER BY sw.id");
    while (s.step()) {
      table.rows.push_back({s.text(0), s.is_null(1) ? query::Cell{} : query::Cell{s.text(1)},
                            s.text(2), s.int64(3), s.int64(4), s.int64(5), s.int64(6), s.text(7),
                            s.is_null(8) ? query::Cell{} : query::Cell{s.text(8)}});
    }
    if (table.rows.empty()) table.notes.push_back("no sweeps in " + global.db);
    query::print(table, f);
  });
}

}  // namespace pbench::cli
