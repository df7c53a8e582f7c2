#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>

#include "cli/Commands.hpp"
#include "query/MetricExport.hpp"
#include "query/RunSelection.hpp"
#include "store/Store.hpp"
#include "util/Error.hpp"

namespace pbench::cli {

namespace {
struct ExportOptions {
  std::string sweep;
  std::string format = "openmetrics";
  std::string run = "latest";
  std::string output;
};
}  // namespace

void add_export_command(CLI::App& app, GlobalOptions& global) {
  auto* command = app.add_subcommand(
      "export",
      "A sweep's headline and summary metrics for monitoring: the Prometheus/OpenMetrics text "
      "format (node_exporter's textfile collector) or a long CSV");
  command->footer(
      "Series (openmetrics): rules and dashboards select a figure by labels that stay the same "
      "from run to run, so that each night's export continues the same series: sweep, env, "
      "figure, partition, nodes, ppn, queue_depth, T, hints and a metric's own labels (size, "
      "pattern, ...). A site keeps them stable by keeping the sweep's name, environments and "
      "points (run NAME --again). What changes per run is the values: the figures, "
      "pbench_headline_valid and pbench_<worker>_result_valid (1 valid, 0 not), "
      "pbench_links_weak_links, pbench_run_number and pbench_run_started_timestamp_seconds. Left "
      "out of the series: the run, the point, validity, a headline's winning condition (at) and "
      "the partition a maximum figure (b_eff, b_eff_io) won on. A summary metric's hosts_hash "
      "names its result's host list: another allocation starts new series of it (the headline "
      "figures have none). Alerting rules, their tests, a Grafana dashboard and this nightly "
      "job: share/pbench/prometheus/ (docs/operator-guide.md, Monitoring).");
  auto o = std::make_shared<ExportOptions>();
  command->add_option("name", o->sweep, "Sweep name")->required();
  command->add_option("--format", o->format, "openmetrics or csv-long")->capture_default_str();
  command->add_option("--run", o->run, "Which run: a number, latest or all (all: csv-long only)")
      ->capture_default_str();
  command->add_option("-o,--output", o->output,
                      "Write to this file (replaced atomically, as the textfile collector needs) "
                      "instead of standard output");
  command->callback([o, &global] {
    if (o->format != "openmetrics" && o->format != "csv-long") {
      throw UsageError("unknown export format '" + o->format + "' (known: openmetrics, csv-long)");
    }
    const auto run = query::parse_run_selection(o->run);
    if (o->format == "openmetrics" && run.kind == query::RunSelection::Kind::all) {
      throw UsageError(
          "--run all: the exposition format carries one run (its series have no run label, so "
          "that a nightly run continues them); --format csv-long gives every run");
    }
    auto store = store::Store::open(global.db, store::Store::Access::read_only);
    const auto samples = query::export_samples(store, o->sweep, run);
    const std::string text =
        o->format == "openmetrics" ? query::to_openmetrics(samples) : query::to_csv_long(samples);
    if (o->output.empty()) {
      std::cout << text;
      return;
    }
    const std::string temporary = o->output + ".tmp";
    {
      std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
      out << text;
      if (!out.flush()) throw UsageError("cannot write '" + temporary + "'");
    }
    std::filesystem::rename(temporary, o->output);
  });
}

}  // namespace pbench::cli
