#include <iostream>
#include <memory>
#include <optional>

#include "cli/Commands.hpp"
#include "query/CommQuery.hpp"
#include "query/BcastQuery.hpp"
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
  auto* comm = command->add_subcommand(
      "comm", "b_eff by partition as the paper's Table 1, and the maximum over partitions");
  comm->add_option("--sweep", o->sweep, "Only this sweep");
  comm->add_option("--format", o->format, "table, csv or json")->capture_default_str();
  comm->callback([o, &global] {
    auto store = store::Store::open(global.db, store::Store::Access::read_only);
    const auto sweep = o->sweep.empty() ? std::nullopt : std::optional<std::string>(o->sweep);
    std::cout << query::render(query::comm_table(store, sweep), query::parse_format(o->format));
  });
  auto* bcast = command->add_subcommand(
      "bcast", "Broadcast latency OL beside the classic methods by partition, impl and size");
  bcast->add_option("--sweep", o->sweep, "Only this sweep");
  bcast->add_option("--format", o->format, "table, csv or json")->capture_default_str();
  bcast->callback([o, &global] {
    const auto format = query::parse_format(o->format);
    auto store = store::Store::open(global.db, store::Store::Access::read_only);
    const auto sweep = o->sweep.empty() ? std::nullopt : std::optional<std::string>(o->sweep);
    std::cout << query::render(query::bcast_table(store, sweep), format);
  });
}

}  // namespace pbench::cli
