#include "cli/CommandLineHints.hpp"

#include <algorithm>
#include <map>

#include "util/Suggest.hpp"

namespace pbench::cli {
namespace {

/// The option `name` ("--db", "-T") of `app` or of a command above it (fallthrough).
const CLI::Option* find_option(CLI::App* app, const std::string& name) {
  for (CLI::App* a = app; a != nullptr; a = a->get_parent()) {
    for (const CLI::Option* o : a->get_options()) {
      if (!o->nonpositional()) continue;
      for (const auto& l : o->get_lnames()) {
        if (name == "--" + l) return o;
      }
      for (const auto& s : o->get_snames()) {
        if (name == "-" + s) return o;
      }
    }
  }
  return nullptr;
}

std::vector<std::string> option_names(CLI::App* app) {
  std::vector<std::string> names;
  for (CLI::App* a = app; a != nullptr; a = a->get_parent()) {
    for (const CLI::Option* o : a->get_options()) {
      for (const auto& l : o->get_lnames()) names.push_back("--" + l);
    }
  }
  return names;
}

std::vector<std::string> command_names(CLI::App* app) {
  std::vector<std::string> names;
  for (const CLI::App* sub : app->get_subcommands([](const CLI::App*) { return true; })) {
    names.push_back(sub->get_name());
  }
  return names;
}

CLI::App* find_command(CLI::App* app, const std::string& name) {
  for (CLI::App* sub : app->get_subcommands([](CLI::App*) { return true; })) {
    if (sub->check_name(name)) return sub;
  }
  return nullptr;
}

bool has_positionals(CLI::App* app) {
  for (const CLI::Option* o : app->get_options()) {
    if (o->get_positional() && !o->nonpositional()) return true;
  }
  return false;
}

std::string path_of(CLI::App* app) {
  std::string path;
  for (CLI::App* a = app; a != nullptr && a->get_parent() != nullptr; a = a->get_parent()) {
    path = a->get_name() + (path.empty() ? "" : " " + path);
  }
  return path;
}

/// Where a walk through the words of a command line ended.
struct Walk {
  CLI::App* command = nullptr;  ///< the deepest command reached
  std::size_t positionals = 0;  ///< the words given to it that are neither option nor command
  bool awaiting_value = false;  ///< the last word is an option whose value is still to come
  std::map<std::string, std::string> values;  ///< "--db" -> its value, as given (the last one)
  std::optional<CommandLineProblem> problem;  ///< the first word that is neither, named
};

/// Walks `args` (without argv[0]) through `app`'s commands and options as CLI11 does (options
/// of a command, then of the commands above it, which fall through), up to the first word that
/// is neither a command nor an option there.
Walk walk(CLI::App& app, const std::vector<std::string>& args) {
  Walk w;
  w.command = &app;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--") break;
    if (arg.size() > 1 && arg[0] == '-' && !(arg[1] >= '0' && arg[1] <= '9')) {
      // --name, --name=value, -X or -Xvalue
      const bool long_form = arg.rfind("--", 0) == 0;
      const std::size_t equals = arg.find('=');
      const std::string name = long_form ? arg.substr(0, equals) : arg.substr(0, 2);
      const bool attached = long_form ? equals != std::string::npos : arg.size() > 2;
      const CLI::Option* option = find_option(w.command, name);
      if (option == nullptr) {
        const std::string where = w.command == &app ? "pbench" : "pbench " + path_of(w.command);
        w.problem = CommandLineProblem{CommandLineProblem::Kind::unknown_option,
                                       "unknown option '" + name + "' for '" + where + "'" +
                                           did_you_mean(name, option_names(w.command)),
                                       path_of(w.command)};
        return w;
      }
      if (attached) {
        w.values[name] = long_form ? arg.substr(equals + 1) : arg.substr(2);
      } else if (option->get_items_expected_max() > 0) {  // its value is the next word
        if (i + 1 == args.size())
          w.awaiting_value = true;
        else
          w.values[name] = args[++i];
      }
      continue;
    }
    if (auto* sub = find_command(w.command, arg); sub != nullptr) {
      w.command = sub;
      w.positionals = 0;
      continue;
    }
    if (!has_positionals(w.command) && w.command->get_require_subcommand_min() > 0) {
      const std::string where = w.command == &app ? "" : " of 'pbench " + path_of(w.command) + "'";
      w.problem = CommandLineProblem{
          CommandLineProblem::Kind::unknown_command,
          "unknown command '" + arg + "'" + where + did_you_mean(arg, command_names(w.command)),
          path_of(w.command)};
      return w;
    }
    ++w.positionals;
  }
  return w;
}

/// The positional "name" (a sweep's NAME) of `app`, if it takes one.
const CLI::Option* name_positional(CLI::App* app) {
  for (const CLI::Option* o : app->get_options()) {
    if (o->get_positional() && !o->nonpositional() && o->get_name(true) == "name") return o;
  }
  return nullptr;
}

}  // namespace

std::optional<CommandLineProblem> diagnose_command_line(CLI::App& app,
                                                        const std::vector<std::string>& args) {
  const Walk w = walk(app, args);
  if (w.problem) return w.problem;
  if (w.positionals == 0) {
    if (const CLI::Option* name = name_positional(w.command); name && name->get_required()) {
      return CommandLineProblem{CommandLineProblem::Kind::missing_name,
                                "'pbench " + path_of(w.command) + "' needs the NAME of a sweep",
                                path_of(w.command)};
    }
  }
  return std::nullopt;
}

std::vector<std::string> complete_command_line(
    CLI::App& app, const std::vector<std::string>& args,
    const std::function<std::vector<std::string>(const std::string& db)>& sweep_names) {
  if (args.empty()) return {};
  const std::string& word = args.back();
  const Walk w = walk(app, std::vector<std::string>(args.begin(), args.end() - 1));
  if (w.problem || w.awaiting_value) return {};  // an option's value: the shell's own (files)
  std::vector<std::string> candidates;
  if (word.rfind("-", 0) == 0) {
    candidates = option_names(w.command);
  } else {
    for (const CLI::App* sub : w.command->get_subcommands(
             [](const CLI::App* a) { return !a->get_group().empty(); })) {  // not the hidden
      candidates.push_back(sub->get_name());
    }
    if (w.positionals == 0 && name_positional(w.command) != nullptr) {
      const auto db = w.values.find("--db");
      for (auto& name : sweep_names(db == w.values.end() ? "" : db->second)) {
        candidates.push_back(std::move(name));
      }
    }
  }
  std::erase_if(candidates, [&](const std::string& c) { return c.rfind(word, 0) != 0; });
  std::sort(candidates.begin(), candidates.end());
  candidates.erase(std::unique(candidates.begin(), candidates.end()), candidates.end());
  return candidates;
}

}  // namespace pbench::cli
