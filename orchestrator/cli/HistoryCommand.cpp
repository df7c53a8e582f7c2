#include <iostream>
#include <memory>
#include <optional>

#include "cli/Commands.hpp"
#include "query/HistoryQuery.hpp"
#include "query/WhereFilter.hpp"
#include "store/Store.hpp"

namespace pbench::cli {

namespace {
struct HistoryOptions {
  std::string sweep;
  std::string metric;
  std::vector<std::string> where;
  std::string format = "table";
  bool stats = false;
};
}  // namespace

void add_history_command(CLI::App& app, GlobalOptions& global) {
  auto* command = app.add_subcommand(
      "history", "A sweep's headline figures in each of its runs (pbench run NAME --again)");
  auto o = std::make_shared<HistoryOptions>();
  command->add_option("name", o->sweep, "Sweep name")->required();
  command->add_option("--metric", o->metric, "Only this figure (b_eff_io, b_eff, logp_g, ...)");
  command->add_option("--where", o->where,
                      "key=value (repeatable): only results whose parameter, hint or label "
                      "matches, as for query system");
  command->add_option("--format", o->format, "table, csv, json or markdown")->capture_default_str();
  command->add_flag("--stats", o->stats,
                    "Per figure over the runs: n, median, MAD, p5, p95, min, max (the spread a "
                    "reference --runs --tolerance auto takes)");
  command->callback([o, &global] {
    const auto format = query::parse_format(o->format);
    const auto where = query::parse_where(o->where);
    auto store = store::Store::open(global.db, store::Store::Access::read_only);
    const auto metric = o->metric.empty() ? std::nullopt : std::optional<std::string>(o->metric);
    const auto history = query::history_table(store, o->sweep, metric, where);
    query::print(o->stats ? query::history_stats(history) : history, format);
  });
}

}  // namespace pbench::cli
