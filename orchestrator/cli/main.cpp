// pbench: plans sweeps of the MPI workers, runs them through a scheduler, collects their
// results into SQLite and answers questions about them.
#include <cstdlib>
#include <iostream>
#include <utility>

#include "cli/CommandLineHints.hpp"
#include "cli/Commands.hpp"
#include "cli/SweepContext.hpp"
#include "util/Error.hpp"

namespace {

/// How pbench ends on an error (util/Error.hpp): the word before its message, the exit status.
std::pair<const char*, int> error_exit(const std::exception& e) {
  using namespace pbench;
  if (dynamic_cast<const UsageError*>(&e)) return {"error", 2};
  if (dynamic_cast<const StoreDamagedError*>(&e)) return {"damaged store", 7};
  if (dynamic_cast<const StoreError*>(&e)) return {"store error", 3};
  if (dynamic_cast<const ValidationError*>(&e)) return {"invalid result", 4};
  if (dynamic_cast<const MissingProgramError*>(&e)) return {"missing program", 6};
  if (dynamic_cast<const SchedulerError*>(&e)) return {"scheduler error", 5};
  return {"error", 1};
}

}  // namespace

int main(int argc, char** argv) {
  using namespace pbench;
  CLI::App app(
      "pbench: network and parallel I/O benchmarks (b_eff, b_eff_io, LogP, broadcast) "
      "over sweeps, into SQLite",
      "pbench");
  app.require_subcommand(1);
  // The global options (--db, --runs-dir, --scheduler-outage) anywhere on the line: an option
  // a command does not know falls through to the one above it (inherited by every command).
  app.fallthrough();
  app.set_version_flag("--version", std::string(PBENCH_VERSION));
  cli::GlobalOptions global;
  app.add_option("--db", global.db, "The SQLite store")
      ->envname("PBENCH_DB")
      ->capture_default_str();
  app.add_option("--runs-dir", global.runs_dir, "Where sweeps keep their job scripts and outputs")
      ->envname("PBENCH_RUNS_DIR")
      ->capture_default_str();
  app.add_option("--scheduler-outage", global.scheduler_outage,
                 "Seconds the scheduler may stay unreachable (squeue, qstat, sbatch failing: "
                 "its controller down or restarting) while a sweep is driven, before giving up")
      ->envname("PBENCH_SCHEDULER_OUTAGE")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cli::add_sweep_command(app, global);
  cli::add_plan_command(app, global);
  cli::add_submit_command(app, global);
  cli::add_status_command(app, global);
  cli::add_wait_command(app, global);
  cli::add_cancel_command(app, global);
  cli::add_collect_command(app, global);
  cli::add_query_command(app, global);
  cli::add_run_command(app, global);
  cli::add_drive_command(app, global);
  cli::add_report_command(app, global);
  cli::add_history_command(app, global);
  cli::add_reference_command(app, global);
  cli::add_check_command(app, global);
  cli::add_export_command(app, global);
  cli::add_list_command(app, global);
  cli::add_remove_command(app, global);
  cli::add_store_command(app, global);
  if (argc >= 2 && std::string(argv[1]) == "__complete") {
    // The bash completion (share/bash-completion/completions/pbench) asks what can follow the
    // words typed so far, the last one being completed; one candidate a line.
    const std::vector<std::string> words(argv + 2, argv + argc);
    const auto sweep_names = [&](const std::string& db) {
      const char* env_db = std::getenv("PBENCH_DB");
      return cli::stored_sweep_names(!db.empty() ? db : env_db != nullptr ? env_db : global.db);
    };
    for (const auto& word : cli::complete_command_line(app, words, sweep_names)) {
      std::cout << word << "\n";
    }
    return 0;
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    if (e.get_exit_code() != 0) {
      // Say which word is unknown (with the closest name), or list the sweeps a NAME can be.
      const auto problem =
          cli::diagnose_command_line(app, std::vector<std::string>(argv + 1, argv + argc));
      std::cerr << "pbench: error: " << (problem ? problem->message : std::string(e.what()))
                << "\n";
      if (problem && problem->kind == cli::CommandLineProblem::Kind::missing_name) {
        std::cerr << cli::stored_sweeps_hint(global.db);
      }
      return 2;
    }
    return app.exit(e);
  } catch (const cli::Interrupted& e) {
    std::cerr << "pbench: " << e.what() << "\n";
    return e.exit_status();
  } catch (const std::exception& e) {
    const auto [kind, status] = error_exit(e);
    std::cerr << "pbench: " << kind << ": " << e.what() << "\n";
    return status;
  }
  return global.exit_code;
}
