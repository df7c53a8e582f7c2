#include <iostream>
#include <memory>
#include <optional>

#include "cli/Commands.hpp"
#include "query/WorkerQueries.hpp"
#include "store/Store.hpp"

namespace pbench::cli {

namespace {
struct QueryOptions {
  std::string sweep;
  std::string format = "table";
};
}  // namespace

void add_query_command(CLI::App& app, GlobalOptions& global) {
  auto* command = app.add_subcommand("query", "Answer questions from the store");
  command->require_subcommand(1);
  auto o = std::make_shared<QueryOptions>();
  // One subcommand per worker, from the table of worker queries.
  for (const auto& q : query::worker_queries()) {
    auto* sub = command->add_subcommand(q.worker, q.description);
    sub->add_option("--sweep", o->sweep, "Only this sweep");
    sub->add_option("--format", o->format, "table, csv or json")->capture_default_str();
    sub->callback([o, &global, table = q.table] {
      const auto format = query::parse_format(o->format);
      auto store = store::Store::open(global.db, store::Store::Access::read_only);
      const auto sweep = o->sweep.empty() ? std::nullopt : std::optional<std::string>(o->sweep);
      std::cout << query::render(table(store, sweep), format);
    });
  }
}

}  // namespace pbench::cli
