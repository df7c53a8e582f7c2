#include "common/Parameters.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string_view>

#include "common/ResultDocument.hpp"
#include "common/Units.hpp"

namespace pbench::worker {

Parameters::Parameters(std::string worker, std::string description)
    : worker_(std::move(worker)), app_(std::move(description), "pbench-" + worker_) {
  app_.get_formatter()->column_width(34);
  app_.footer(
      "Every option can also be set in the environment as PBENCH_<NAME> (upper case, "
      "underscores); the command line wins. Sizes [B] take units (" +
      std::string(units::kSizeUnits) + "), times [s] too (" + units::kTimeUnits + ").");
  app_.add_flag("--describe-parameters", describe_parameters_,
                "Print the parameters (name, option, unit, default) as JSON and exit");
  // What the orchestrator runs before it submits a point (plan/LaunchPreflight.hpp): a binary
  // that cannot start (a missing library) is found before any job is.
  app_.set_version_flag("--version", "pbench-" + worker_ + " " + build_version(),
                        "Print the worker's name and pbench version and exit");
}

CLI::Option* Parameters::add_flag(const std::string& name, bool& value, const std::string& help) {
  CLI::Option* option = app_.add_flag(flag_of(name), value, help);
  option->envname(env_of(name));
  entries_.push_back({name, "", option, [&value] { return nlohmann::json(value); }, true});
  return option;
}

std::optional<int> Parameters::parse(int argc, char** argv) {
  argv_.assign(argv + 1, argv + argc);
  try {
    app_.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    if (is_reporting_process()) std::cout << app_.help();
    return 0;
  } catch (const CLI::CallForVersion& e) {
    if (is_reporting_process()) std::cout << e.what() << "\n";
    return 0;
  } catch (const CLI::ParseError& e) {
    if (is_reporting_process()) {
      std::cerr << "pbench-" << worker_ << ": error: " << e.what() << "\n"
                << "Run with --help for the parameters.\n";
    }
    return 2;
  }
  if (describe_parameters_) {
    if (is_reporting_process()) std::cout << describe_parameters().dump(2) << "\n";
    return 0;
  }
  return std::nullopt;
}

nlohmann::json Parameters::describe_parameters() const {
  nlohmann::json list = nlohmann::json::array();
  for (const auto& entry : entries_) {
    list.push_back({{"name", entry.name},
                    {"option", flag_of(entry.name)},
                    {"unit", entry.unit},
                    {"default", entry.flag ? nlohmann::json(false)
                                           : nlohmann::json(entry.option->get_default_str())},
                    {"flag", entry.flag},
                    {"help", entry.option->get_description()}});
    if (entry.range) {
      list.back()["min"] = static_cast<double>(entry.range->min);
      list.back()["max"] = static_cast<double>(entry.range->max);
    }
  }
  return {{"worker", worker_}, {"parameters", list}};
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

namespace {

/// An end of a range: a whole number in full, a fraction as units::plain_number writes it.
std::string range_end(long double value) {
  if (value != std::floor(value)) return units::plain_number(static_cast<double>(value));
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, "%.0Lf", value);
  return buffer;
}

}  // namespace

std::string Range::text() const {
  return range_end(min) + " to " + range_end(max);
}

CLI::Validator Parameters::in_range(Range range, bool whole) {
  return CLI::Validator(
      [range, whole](std::string& word) {
        // Read as a double: an integer too large for its type (99999999999999999999) is a large
        // number here, not a saturated or wrapped one, and is refused as outside the range.
        std::string_view text = word;
        while (!text.empty() && std::isspace(static_cast<unsigned char>(text.front()))) {
          text.remove_prefix(1);
        }
        if (!text.empty() && text.front() == '+') text.remove_prefix(1);
        long double value = 0;
        const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
        // Only a decimal number is read (CLI11 would also take 0x10 and 010 as 16 and 8), and
        // where the parameter counts, a whole one in digits (not 1e3 or 2.5).
        const bool digits =
            text.find_first_not_of("-0123456789") == std::string_view::npos && !text.empty();
        if (error == std::errc::invalid_argument || end != text.data() + text.size() ||
            (whole && !digits)) {
          return "'" + word + "' is not a " + (whole ? "whole" : "decimal") +
                 " number (the range is " + range.text() + ")";
        }
        if (error == std::errc::result_out_of_range || !std::isfinite(value) || value < range.min ||
            value > range.max) {
          return "'" + word + "' is outside the range " + range.text();
        }
        return std::string();
      },
      "", "RANGE");
}

CLI::Validator Parameters::non_empty_number() {
  return CLI::Validator(
      [](std::string& word) {
        return word.empty() ? std::string("an empty value is not a number") : std::string();
      },
      "", "NON_EMPTY");
}

std::optional<CLI::Validator> Parameters::unit_reader(const std::string& unit) {
  if (unit == "B") {
    return CLI::Validator(
        [](std::string& word) {
          const auto bytes = units::parse_size(word);
          if (!bytes) {
            return "'" + word + "' is not a size (a number of bytes, or with a unit: " +
                   units::kSizeUnits + ")";
          }
          word = std::to_string(*bytes);
          return std::string();
        },
        "", "SIZE");
  }
  if (unit == "s" || unit == "us") {
    const double scale = unit == "s" ? 1.0 : 1e6;  // the parameter's unit per second
    return CLI::Validator(
        [scale, unit](std::string& word) {
          // A number without a unit counts in the parameter's own unit (100 for [us] is 100 us).
          const auto seconds = units::parse_seconds(word, 1.0 / scale);
          if (!seconds) {
            return "'" + word + "' is not a time (a number of " + unit + ", or with a unit: " +
                   units::kTimeUnits + ")";
          }
          word = units::plain_number(*seconds * scale);
          return std::string();
        },
        "", "TIME");
  }
  return std::nullopt;
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

std::string Parameters::describe(const std::string& help, const std::string& unit,
                                 const std::optional<Range>& range) {
  std::string bracket = unit;
  if (range) bracket += (bracket.empty() ? "" : ", ") + range->text();
  return bracket.empty() ? help : help + " [" + bracket + "]";
}

bool is_reporting_process() {
  for (const char* var : {"PMI_RANK", "PMIX_RANK", "OMPI_COMM_WORLD_RANK", "SLURM_PROCID"}) {
    if (const char* value = std::getenv(var)) return std::string(value) == "0";
  }
  return true;
}

}  // namespace pbench::worker
