#include "plan/WorkerSettings.hpp"

#include <algorithm>
#include <cctype>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <sstream>

#include "common/Units.hpp"

#include "plan/SweepPlanner.hpp"
#include "plan/WorkerAnswers.hpp"
#include "sweep/WorkerCatalog.hpp"
#include "util/Error.hpp"
#include "util/Suggest.hpp"

namespace pbench::run {
namespace {

std::string dashed(const std::string& name) {
  std::string out = "--";
  for (char c : name) out += c == '_' ? '-' : c;
  return out;
}

/// The last non-empty line of a worker's stderr: its error message.
std::string last_line(const std::string& text) {
  std::string line, last;
  for (char c : text + "\n") {
    if (c == '\n') {
      if (!line.empty() && line.rfind("Run with --help", 0) != 0) last = line;
      line.clear();
    } else {
      line += c;
    }
  }
  return last;
}

/// A parameter's entry in a --describe-parameters answer (null when it has none).
nlohmann::json parameter_of(const nlohmann::json& description, const std::string& name) {
  if (!description.is_object() || !description.contains("parameters")) return nullptr;
  for (const auto& p : description["parameters"]) {
    if (p.is_object() && p.value("name", "") == name) return p;
  }
  return nullptr;
}

/// An item that is meant as a number: it starts as one does.
bool looks_numeric(const std::string& item) {
  return !item.empty() && (std::isdigit(static_cast<unsigned char>(item[0])) || item[0] == '-' ||
                           item[0] == '+' || item[0] == '.');
}

std::string range_text(const SettingRange& r) {
  return "its range: " + units::short_number(r.least, 6) + " to " +
         units::short_number(r.most, 6) + (r.unit.empty() ? "" : " " + r.unit);
}

}  // namespace

SettingRange setting_range(const nlohmann::json& parameter) {
  SettingRange range;
  const std::string unit = parameter.is_object() ? parameter.value("unit", "") : "";
  if (unit == "B") {
    range = {0, kMostSettingBytes, "B"};
  } else if (unit == "s" || unit == "us" || unit == "ms") {
    range = {-kMostSettingSeconds, kMostSettingSeconds, "s"};
  } else if (unit == "s since the epoch") {
    range = {0, 4102444800.0, unit};  // up to 2100-01-01
  } else if (unit == "flop/s") {
    range = {0, 1e21, unit};  // a zettaflop
  }
  // The worker's own range where it states one.
  if (parameter.is_object()) {
    if (parameter.contains("minimum") && parameter["minimum"].is_number()) {
      range.least = parameter["minimum"].get<double>();
    }
    if (parameter.contains("maximum") && parameter["maximum"].is_number()) {
      range.most = parameter["maximum"].get<double>();
    }
  }
  return range;
}

void check_setting_range(const std::string& worker, const std::string& name,
                         const std::string& value, const nlohmann::json& parameter) {
  const SettingRange range = setting_range(parameter);
  const std::string unit = parameter.is_object() ? parameter.value("unit", "") : "";
  std::string items = value;
  items.erase(std::remove_if(items.begin(), items.end(),
                             [](char c) { return c == '[' || c == ']' || c == ' '; }),
              items.end());
  std::istringstream list(items);
  for (std::string item; std::getline(list, item, ',');) {
    if (!looks_numeric(item)) continue;  // a word: the worker reads it (a choice, a switch)
    std::optional<double> number;
    if (unit == "B" && item[0] != '-') {
      if (const auto size = units::parse_size(item)) number = static_cast<double>(*size);
    } else if (range.unit == "s") {
      const double plain = unit == "us" ? 1e-6 : unit == "ms" ? 1e-3 : 1.0;
      number = units::parse_seconds(item, plain);
    }
    if (!number) {
      // Not read with its unit (past what the worker can hold, e-notation, negative): its
      // number as written.
      char* end = nullptr;
      const double n = std::strtod(item.c_str(), &end);
      if (end != item.c_str()) number = n;
    }
    if (!number) continue;  // not a number after all: the worker's own check names it
    if (!std::isfinite(*number) || *number < range.least || *number > range.most) {
      throw UsageError("--set " + worker + "." + name + "=" + value + ": '" + item +
                       "' is outside " + range_text(range));
    }
  }
}

DescribeWorker describe_worker_with(process::ProcessRunner& runner) {
  return [&runner](const std::string& binary, const std::vector<std::string>& args) {
    std::vector<std::string> argv{locate_worker(binary)};
    argv.insert(argv.end(), args.begin(), args.end());
    argv.push_back("--describe-parameters");
    // Asked once per binary per process (planning, the cost, a stored sweep's cost all ask).
    const auto result = WorkerAnswers::shared().ask(runner, argv, std::chrono::seconds(30));
    if (result.exit_code != 0) {
      const std::string message = last_line(result.err);
      throw UsageError(message.empty() ? binary + " --describe-parameters failed (exit " +
                                             std::to_string(result.exit_code) + ")"
                                       : message);
    }
    try {
      return nlohmann::json::parse(result.out);
    } catch (const nlohmann::json::exception&) {
      throw UsageError(binary + " --describe-parameters did not answer in JSON (is " + argv[0] +
                       " a pbench worker of this version?)");
    }
  };
}

std::vector<std::string> parameter_names(const nlohmann::json& description) {
  std::vector<std::string> names;
  if (!description.is_object() || !description.contains("parameters")) return names;
  for (const auto& p : description["parameters"]) {
    if (p.contains("name") && p["name"].is_string()) names.push_back(p["name"]);
  }
  return names;
}

void check_worker_settings(const sweep::SweepSpec& spec, const DescribeWorker& describe) {
  for (const auto& [worker, settings] : spec.settings) {
    if (settings.empty()) continue;
    const auto& binary = sweep::find_worker(worker).binary;
    const auto description = describe(binary, {});
    const auto names = parameter_names(description);
    std::vector<std::string> args;
    for (const auto& [name, value] : settings) {
      if (std::find(names.begin(), names.end(), name) == names.end()) {
        std::string known;
        for (const auto& n : names) known += (known.empty() ? "" : ", ") + n;
        throw UsageError("--set " + worker + "." + name + ": " + binary +
                         " has no parameter '" + name + "'" + did_you_mean(name, names) +
                         "; its parameters: " + known);
      }
      check_setting_range(worker, name, value, parameter_of(description, name));
      args.push_back(dashed(name) + "=" + value);
    }
    // The values, read by the worker as the job will (units, numbers, lists, choices).
    try {
      describe(binary, args);
    } catch (const UsageError& e) {
      throw UsageError("--set " + worker + ": " + e.what());
    }
  }
}

}  // namespace pbench::run
