#include <iostream>
#include <memory>
#include <optional>

#include "cli/Commands.hpp"
#include "query/IoQuery.hpp"
#include "query/LogpQuery.hpp"
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
  auto* logp = command->add_subcommand(
      "logp", "LogP parameters (EEL, o_s, o_r, g, G, L, M) by partition and queue depth");
  logp->add_option("--sweep", o->sweep, "Only this sweep");
  logp->add_option("--format", o->format, "table, csv or json")->capture_default_str();
  logp->callback([o, &global] {
    auto store = store::Store::open(global.db, store::Store::Access::read_only);
    const auto sweep = o->sweep.empty() ? std::nullopt : std::optional<std::string>(o->sweep);
    std::cout << query::render(query::logp_table(store, sweep), query::parse_format(o->format));
  });
  auto* io = command->add_subcommand(
      "io", "b_eff_io by partition, T and hint set, and the system maximum with its partition");
  io->add_option("--sweep", o->sweep, "Only this sweep");
  io->add_option("--format", o->format, "table, csv or json")->capture_default_str();
  io->callback([o, &global] {
    auto store = store::Store::open(global.db, store::Store::Access::read_only);
    const auto sweep = o->sweep.empty() ? std::nullopt : std::optional<std::string>(o->sweep);
    std::cout << query::render(query::io_table(store, sweep), query::parse_format(o->format));
  });
}

}  // namespace pbench::cli
