#include "run/WorkerSettings.hpp"

#include <algorithm>
#include <chrono>

#include "run/SweepPlanner.hpp"
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

}  // namespace

DescribeWorker describe_worker_with(process::ProcessRunner& runner) {
  return [&runner](const std::string& binary, const std::vector<std::string>& args) {
    std::vector<std::string> argv{locate_worker(binary)};
    argv.insert(argv.end(), args.begin(), args.end());
    argv.push_back("--describe-parameters");
    const auto result = runner.run(argv, std::chrono::seconds(30));
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
    const auto names = parameter_names(describe(binary, {}));
    std::vector<std::string> args;
    for (const auto& [name, value] : settings) {
      if (std::find(names.begin(), names.end(), name) == names.end()) {
        std::string known;
        for (const auto& n : names) known += (known.empty() ? "" : ", ") + n;
        throw UsageError("--set " + worker + "." + name + ": " + binary +
                         " has no parameter '" + name + "'" + did_you_mean(name, names) +
                         "; its parameters: " + known);
      }
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
