#include "common/Parameters.hpp"

#include <algorithm>
#include <cstdlib>
#include <iostream>

namespace pbench::worker {

Parameters::Parameters(std::string worker, std::string description)
    : worker_(std::move(worker)), app_(std::move(description), "pbench-" + worker_) {
  app_.get_formatter()->column_width(34);
  app_.footer(
      "Every option can also be set in the environment as PBENCH_<NAME> (upper case, "
      "underscores); the command line wins.");
}

CLI::Option* Parameters::add_flag(const std::string& name, bool& value, const std::string& help) {
  CLI::Option* option = app_.add_flag(flag_of(name), value, help);
  option->envname(env_of(name));
  entries_.push_back({name, "", option, [&value] { return nlohmann::json(value); }});
  return option;
}

std::optional<int> Parameters::parse(int argc, char** argv) {
  argv_.assign(argv + 1, argv + argc);
  try {
    app_.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    if (is_reporting_process()) std::cout << app_.help();
    return 0;
  } catch (const CLI::ParseError& e) {
    if (is_reporting_process()) {
      std::cerr << "pbench-" << worker_ << ": error: " << e.what() << "\n"
                << "Run with --help for the parameters.\n";
    }
    return 2;
  }
  return std::nullopt;
}

nlohmann::json Parameters::echo() const {
  nlohmann::json out = nlohmann::json::object();
  for (const auto& entry : entries_) {
    std::string source = "default";
    if (entry.option->count() > 0) {
      source = "environment";
      for (const auto& arg : argv_) {
        for (const auto& lname : entry.option->get_lnames()) {
          const std::string flag = "--" + lname;
          if (arg == flag || arg.rfind(flag + "=", 0) == 0) source = "command_line";
        }
        for (const auto& sname : entry.option->get_snames()) {
          if (arg.rfind("-" + sname, 0) == 0) source = "command_line";
        }
      }
    }
    out[entry.name] = {{"value", entry.value()}, {"unit", entry.unit}, {"source", source}};
  }
  return out;
}

CLI::Validator Parameters::non_empty_number() {
  return CLI::Validator(
      [](std::string& word) {
        return word.empty() ? std::string("an empty value is not a number") : std::string();
      },
      "", "NON_EMPTY");
}

std::string Parameters::env_of(const std::string& name) {
  std::string env = "PBENCH_";
  for (char c : name) env += (c == '-') ? '_' : static_cast<char>(std::toupper(c));
  return env;
}

std::string Parameters::flag_of(const std::string& name) {
  std::string flag = "--";
  for (char c : name) flag += (c == '_') ? '-' : c;
  return flag;
}

std::string Parameters::describe(const std::string& help, const std::string& unit) {
  return unit.empty() ? help : help + " [" + unit + "]";
}

bool is_reporting_process() {
  for (const char* var : {"PMI_RANK", "PMIX_RANK", "OMPI_COMM_WORLD_RANK", "SLURM_PROCID"}) {
    if (const char* value = std::getenv(var)) return std::string(value) == "0";
  }
  return true;
}

}  // namespace pbench::worker
