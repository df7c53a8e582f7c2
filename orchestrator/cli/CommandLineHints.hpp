#pragma once
// What went wrong on a command line that CLI11 refused, said the way a user can act on it: the
// unknown command or option with the closest known name, or the sweep NAME that is missing; and
// what can come next on a command line being typed (the bash completion asks).
#include <CLI/CLI.hpp>

#include <functional>
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

/// The words that complete the last of `args` (without argv[0]; the last may be empty): the
/// options of the command reached (and of those above it) for a word starting with '-', else
/// its commands (not the hidden ones) and, where it takes a sweep NAME not given yet, the
/// names `sweep_names` gives for the store (its argument: --db as given, or empty). Sorted.
/// None for an option's value (the shell completes files) or after a word that is unknown.
std::vector<std::string> complete_command_line(
    CLI::App& app, const std::vector<std::string>& args,
    const std::function<std::vector<std::string>(const std::string& db)>& sweep_names);

}  // namespace pbench::cli
