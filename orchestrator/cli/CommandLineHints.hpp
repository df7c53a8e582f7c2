#pragma once
// What went wrong on a command line that CLI11 refused, said the way a user can act on it: the
// unknown command or option with the closest known name, or the sweep NAME that is missing.
#include <CLI/CLI.hpp>

#include <optional>
#include <string>
#include <vector>

namespace pbench::cli {

struct CommandLineProblem {
  enum class Kind { unknown_command, unknown_option, missing_name };
  Kind kind;
  std::string message;  ///< "unknown command 'sweeep' (did you mean 'sweep'?)"
  std::string command;  ///< the subcommand path the problem is in, "status" or "query io"
};

/// Walks `args` (without argv[0]) through `app`'s commands and options as CLI11 does (options
/// of a command, then of the commands above it, which fall through) and names the first word
/// that is neither a command nor an option there, with the closest name; or, when every word
/// is known, a required positional "name" that none gave. Nothing when it finds no problem.
std::optional<CommandLineProblem> diagnose_command_line(CLI::App& app,
                                                        const std::vector<std::string>& args);

}  // namespace pbench::cli
