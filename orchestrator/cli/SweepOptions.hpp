#pragma once
// The sweep-defining options `pbench sweep` and `pbench run` share, declared once.
#include <CLI/CLI.hpp>

#include <map>
#include <string>
#include <vector>

#include "plan/SweepPlanner.hpp"
#include "site/ProfileSweep.hpp"
#include "sweep/SweepSpec.hpp"

namespace pbench::cli {

struct SweepOptions {
  std::string name;
  std::string workers = "logp";
  std::string partitions = "1,2";
  /// The workers' dimensions as given (each described in sweep/WorkerCatalog.cpp): name -> the
  /// option's comma list (its defaults when not given), or, for a dimension given one value per
  /// option (--hints), name -> the values.
  std::map<std::string, std::string> dimension_lists;
  std::map<std::string, std::vector<std::string>> dimension_items;
  /// The workers' own options (io's --suite): worker -> parameter -> the value given.
  std::map<std::string, std::map<std::string, std::string>> worker_options;
  std::string scheduler = "local";
  std::string launcher = "mpiexec";
  std::vector<std::string> settings;
  int nodes = 0;
  int procs_per_node = 0;
  bool share_nodes = false;
  std::string time_limit;
  std::string account;
  std::string queue;
  std::vector<std::string> directives;
  std::string template_path;
  std::string spec_path;  ///< a sweep file (TOML) instead of the grid and scheduler options
  std::string site_path;  ///< --site: a site profile (else PBENCH_SITE, else the default paths)
  std::string envs;       ///< --envs: environments of the site profile, a sweep dimension
  bool force = false;
  bool discard_results = false;  ///< with --force: replace a sweep that has stored results

  /// Declares the options on a subcommand; the name is positional (required unless a
  /// default is given).
  void declare(CLI::App& command, const std::string& default_name = "");
  /// True when the user gave `option` ("--workers", "name", ...) on the command line.
  bool given(const std::string& option) const { return command_ && command_->count(option) > 0; }
  /// The options given that define a sweep ("--set", "--workers", "-T", ...): every one
  /// declared here but the name.
  std::vector<std::string> given_definition() const;
  /// The specification these options describe; throws UsageError for bad input.
  sweep::SweepSpec spec() const;
  /// Planning options (runs dir from the global options).
  run::PlanOptions plan_options(const std::string& runs_dir) const;

 private:
  /// Declares each worker's dimensions and options, from the workers' descriptions.
  void declare_worker_options(CLI::App& command);
  /// Adds the worker options given (--suite NAME is --set io.suite=NAME) to the settings.
  void add_worker_options(sweep::SweepSpec& spec) const;
  /// Applies the site profile (--site, PBENCH_SITE, the default paths) and --envs to `spec`.
  void with_site_profile(sweep::SweepSpec& spec, const site::GivenOption& given) const;
  CLI::App* command_ = nullptr;  ///< where the options were declared (to see which were given)
  std::vector<const CLI::Option*> defining_;  ///< the options declare() added, but the name
};

/// Declares --budget NODE-HOURS and --wall DURATION (plan/SweepBudget.hpp) on a command.
void declare_budget(CLI::App& command, std::string& budget, std::string& wall);

/// The environments of an --envs list ("mpich,openmpi"); throws UsageError for an empty name.
std::vector<std::string> parse_env_list(const std::string& text);

}  // namespace pbench::cli
