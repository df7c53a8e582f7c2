#include <iostream>
#include <memory>

#include "cli/Commands.hpp"
#include "process/ProcessRunner.hpp"
#include "report/ReportWriter.hpp"
#include "store/Store.hpp"

namespace pbench::cli {

void add_report_command(CLI::App& app, GlobalOptions& global) {
  struct Options {
    std::string sweep;
    std::string dir;
    report::ReportOptions report;
  };
  auto o = std::make_shared<Options>();
  auto* command = app.add_subcommand(
      "report",
      "Write an HTML page of a sweep's tables and figures (gnuplot SVG) into a directory");
  command->add_option("NAME", o->sweep, "The sweep")->required();
  command->add_option("-o,--output", o->dir, "The directory of index.html and the figures")
      ->required();
  command->add_flag("--log-bandwidth", o->report.log_bandwidth,
                    "Draw bandwidth axes logarithmic (default: linear from 0)");
  command->callback([o, &global] {
    auto store = store::Store::open(global.db, store::Store::Access::read_only);
    process::BoostProcessRunner runner;
    report::ReportWriter writer(store, runner);
    const auto summary = writer.write(o->sweep, o->dir, o->report);
    std::cout << "report: " << summary.index.string() << " (" << summary.figures.size()
              << " figures";
    if (!summary.no_data.empty()) std::cout << ", " << summary.no_data.size() << " without data";
    std::cout << ")\n";
  });
}

}  // namespace pbench::cli
