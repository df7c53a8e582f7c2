#include "cli/CommandLineHints.hpp"

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

}  // namespace

std::optional<CommandLineProblem> diagnose_command_line(CLI::App& app,
                                                        const std::vector<std::string>& args) {
  CLI::App* current = &app;
  std::size_t positionals = 0;
  for (std::size_t i = 0; i < args.size(); ++i) {
    const std::string& arg = args[i];
    if (arg == "--") break;
    if (arg.size() > 1 && arg[0] == '-' && !(arg[1] >= '0' && arg[1] <= '9')) {
      // --name, --name=value, -X or -Xvalue
      const bool long_form = arg.rfind("--", 0) == 0;
      const std::size_t equals = arg.find('=');
      const std::string name = long_form ? arg.substr(0, equals) : arg.substr(0, 2);
      const bool attached = long_form ? equals != std::string::npos : arg.size() > 2;
      const CLI::Option* option = find_option(current, name);
      if (option == nullptr) {
        const std::string where = current == &app ? "pbench" : "pbench " + path_of(current);
        return CommandLineProblem{CommandLineProblem::Kind::unknown_option,
                                  "unknown option '" + name + "' for '" + where + "'" +
                                      did_you_mean(name, option_names(current)),
                                  path_of(current)};
      }
      if (!attached && option->get_items_expected_max() > 0) ++i;  // its value
      continue;
    }
    if (auto* sub = find_command(current, arg); sub != nullptr) {
      current = sub;
      positionals = 0;
      continue;
    }
    if (!has_positionals(current) && current->get_require_subcommand_min() > 0) {
      const std::string where = current == &app ? "" : " of 'pbench " + path_of(current) + "'";
      return CommandLineProblem{CommandLineProblem::Kind::unknown_command,
                                "unknown command '" + arg + "'" + where +
                                    did_you_mean(arg, command_names(current)),
                                path_of(current)};
    }
    ++positionals;
  }
  if (positionals == 0) {
    for (const CLI::Option* o : current->get_options()) {
      if (o->get_positional() && !o->nonpositional() && o->get_name(true) == "name" &&
          o->get_required()) {
        return CommandLineProblem{CommandLineProblem::Kind::missing_name,
                                  "'pbench " + path_of(current) + "' needs the NAME of a sweep",
                                  path_of(current)};
      }
    }
  }
  return std::nullopt;
}

}  // namespace pbench::cli
