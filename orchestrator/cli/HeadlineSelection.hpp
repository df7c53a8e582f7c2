#pragma once
// `--where KEY=VALUE` and `--envs A,B`, the selection of headline figures that query system,
// history, reference and check share: declared once, parsed once (query::parse_where, the env
// list of sweep's --envs).
#include <CLI/CLI.hpp>

#include <string>
#include <vector>

#include "query/WhereFilter.hpp"

namespace pbench::cli {

/// --where on query system and history: what system_table matches.
inline constexpr const char* kSystemWhereHelp =
    "key=value (repeatable): only results whose point parameter, hint, setting, metric label, "
    "env, partition, nodes or ppn matches; figure=NAME keeps that figure's rows";

struct HeadlineSelection {
  std::vector<std::string> where;  ///< each "key=value"
  std::string envs;                ///< "mpich,openmpi"; empty: every environment

  /// Declares --where (described as `where_help`) and --envs on `command`.
  void declare(CLI::App& command, const std::string& where_help);
  /// The --where clauses; throws UsageError for one without '=' or a key.
  std::vector<query::WhereClause> clauses() const;
  /// The --envs names (none when not given); throws UsageError for an empty name.
  std::vector<std::string> env_names() const;
};

}  // namespace pbench::cli
