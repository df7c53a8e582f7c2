#include <filesystem>
#include <iostream>
#include <memory>
#include <string>

#include "cli/Commands.hpp"
#include "store/Store.hpp"
#include "sweepdir/DriverLock.hpp"
#include "util/Error.hpp"

namespace pbench::cli {

namespace {
struct RemoveOptions {
  std::string sweep;
  bool yes = false;
};
}  // namespace

void add_remove_command(CLI::App& app, GlobalOptions& global) {
  auto* command = app.add_subcommand(
      "rm", "Remove a sweep: its points, attempts, runs and results, and its runs directory");
  auto o = std::make_shared<RemoveOptions>();
  command->add_option("name", o->sweep, "Sweep name")->required();
  command->add_flag("-y,--yes", o->yes, "Do not ask for confirmation");
  command->callback([o, &global] {
    auto store = store::Store::open(global.db, store::Store::Access::existing);
    const auto sweep = store.find_sweep(o->sweep);
    if (!sweep) throw UsageError("no sweep named '" + o->sweep + "'");
    // Held until the rows and the directory are gone, so that no driver starts meanwhile.
    run::DriverLock lock(sweep->directory);
    if (!lock.owns_lock()) {
      throw UsageError("sweep '" + o->sweep + "' is being driven; cancel it first (pbench cancel " +
                       o->sweep + ") or wait for it to end");
    }
    const auto points = store.points(sweep->id).size();
    const auto results = store.result_count(sweep->id);
    const auto runs = store.runs(sweep->id).size();
    if (!o->yes) {
      std::cerr << "remove sweep " << o->sweep << " (" << points << " points, " << runs << " runs, "
                << results << " results) and " << sweep->directory << "? [y/N] " << std::flush;
      std::string answer;
      std::getline(std::cin, answer);
      if (answer != "y" && answer != "yes") {
        std::cout << "sweep " << o->sweep << " kept\n";
        global.exit_code = 1;
        return;
      }
    }
    store.delete_sweep(sweep->id);
    std::error_code ec;
    std::filesystem::remove_all(sweep->directory, ec);
    if (ec) {
      throw UsageError("sweep " + o->sweep + " removed from the store, but not its directory " +
                       sweep->directory + ": " + ec.message());
    }
    std::cout << "sweep " << o->sweep << " removed: " << points << " points, " << runs << " runs, "
              << results << " results, " << sweep->directory << "\n";
  });
}

}  // namespace pbench::cli
