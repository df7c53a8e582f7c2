#pragma once
// The pbench subcommands, one file each, thin over the library.
#include <CLI/CLI.hpp>

#include <string>
#include <vector>

namespace pbench::cli {

/// Options every subcommand shares.
struct GlobalOptions {
  std::string db = "pbench.db";
  std::string runs_dir = "pbench-runs";
  int scheduler_outage = 600;  ///< seconds the scheduler may stay unreachable while driving
  int exit_code = 0;           ///< set by a subcommand that ends with a non-zero status
};

/// The sweeps stored in `db`, one line each ("  NAME  SCHEDULER  POINTS points  CREATED"), under
/// a line that says where they are; or why there are none. For a command given no NAME.
std::string stored_sweeps_hint(const std::string& db);

/// The names of the sweeps stored in `db`, opened read-only; none when it cannot be read (it is
/// not created). For the bash completion.
std::vector<std::string> stored_sweep_names(const std::string& db);

void add_sweep_command(CLI::App& app, GlobalOptions& global);
void add_submit_command(CLI::App& app, GlobalOptions& global);
void add_status_command(CLI::App& app, GlobalOptions& global);
void add_wait_command(CLI::App& app, GlobalOptions& global);
void add_cancel_command(CLI::App& app, GlobalOptions& global);
void add_collect_command(CLI::App& app, GlobalOptions& global);
void add_query_command(CLI::App& app, GlobalOptions& global);
void add_run_command(CLI::App& app, GlobalOptions& global);
void add_plan_command(CLI::App& app, GlobalOptions& global);
void add_drive_command(CLI::App& app, GlobalOptions& global);
void add_report_command(CLI::App& app, GlobalOptions& global);
void add_history_command(CLI::App& app, GlobalOptions& global);
void add_reference_command(CLI::App& app, GlobalOptions& global);
void add_check_command(CLI::App& app, GlobalOptions& global);
void add_export_command(CLI::App& app, GlobalOptions& global);
void add_list_command(CLI::App& app, GlobalOptions& global);
void add_remove_command(CLI::App& app, GlobalOptions& global);
void add_store_command(CLI::App& app, GlobalOptions& global);

}  // namespace pbench::cli
