#include "sweep/SweepSpec.hpp"

#include <algorithm>
#include <regex>
#include <set>

#include "schedulers/Launcher.hpp"
#include "schedulers/Scheduler.hpp"
#include "sweep/WorkerCatalog.hpp"
#include "util/Error.hpp"
#include "util/Sha256.hpp"

namespace pbench::sweep {
namespace {

bool contains(const std::vector<std::string>& names, const std::string& name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

std::string join_words(const std::vector<std::string>& words) {
  std::string out;
  for (const auto& w : words) out += (out.empty() ? "" : ", ") + w;
  return out;
}

bool is_parameter_name(const std::string& s) {
  static const std::regex pattern("^[a-z][a-z0-9_]{0,63}$");
  return std::regex_match(s, pattern);
}

std::string dashed(const std::string& name) {
  std::string out = "--";
  for (char c : name) out += c == '_' ? '-' : c;
  return out;
}

void check_positive(const std::vector<int>& values, const std::string& option) {
  if (values.empty()) throw UsageError(option + ": empty list");
  for (int v : values) {
    if (v <= 0) throw UsageError(option + ": '" + std::to_string(v) + "' must be positive");
  }
}

}  // namespace

void validate_sweep_name(const std::string& name) {
  static const std::regex pattern("^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$");
  if (!std::regex_match(name, pattern)) {
    throw UsageError("sweep name '" + name +
                     "' is not allowed: use letters, digits, '.', '_' and '-' (at most 64, "
                     "starting with a letter or digit)");
  }
}

void add_setting(std::map<std::string, std::map<std::string, std::string>>& settings,
                 const std::string& assignment) {
  const auto dot = assignment.find('.');
  const auto equals = assignment.find('=');
  if (dot == std::string::npos || equals == std::string::npos || dot > equals) {
    throw UsageError("--set '" + assignment + "': expected WORKER.PARAMETER=VALUE");
  }
  const std::string worker = assignment.substr(0, dot);
  const std::string parameter = assignment.substr(dot + 1, equals - dot - 1);
  find_worker(worker);
  if (!is_parameter_name(parameter)) {
    throw UsageError("--set '" + assignment + "': '" + parameter +
                     "' is not a parameter name (lower case, digits, '_')");
  }
  if (parameter == "output") {
    throw UsageError("--set '" + assignment + "': pbench sets the output path itself");
  }
  settings[worker][parameter] = assignment.substr(equals + 1);
}

void SweepSpec::validate() const {
  validate_sweep_name(name);
  if (workers.empty()) throw UsageError("--workers: empty list");
  std::set<std::string> seen;
  for (const auto& w : workers) {
    find_worker(w);
    if (!seen.insert(w).second) throw UsageError("--workers: '" + w + "' is listed twice");
  }
  check_positive(partitions, "--partitions");
  for (const auto& w : workers) {
    const int least = find_worker(w).min_procs;
    if (std::none_of(partitions.begin(), partitions.end(), [&](int p) { return p >= least; })) {
      throw UsageError("--partitions: " + w + " needs at least " + std::to_string(least) +
                       " processes and no partition has that many");
    }
  }
  check_positive(queue_depths, "--queue-depths");
  if (!contains(schedulers::scheduler_names(), scheduler)) {
    throw UsageError("unknown scheduler '" + scheduler + "' (known: " +
                     join_words(schedulers::scheduler_names()) + ")");
  }
  if (!contains(schedulers::launcher_names(), launcher)) {
    throw UsageError("unknown launcher '" + launcher + "' (known: " +
                     join_words(schedulers::launcher_names()) + ")");
  }
  for (const auto& [worker, params] : settings) {
    find_worker(worker);
    if (!seen.count(worker)) {
      throw UsageError("--set names worker '" + worker + "', which the sweep does not run");
    }
    for (const auto& [parameter, value] : params) {
      if (!is_parameter_name(parameter) || parameter == "output") {
        throw UsageError("--set: '" + parameter + "' is not a settable parameter");
      }
      if (value.find('\0') != std::string::npos) {
        throw UsageError("--set " + worker + "." + parameter + ": the value contains a NUL byte");
      }
    }
  }
}

nlohmann::json SweepSpec::to_json() const {
  return {{"name", name},           {"workers", workers},     {"partitions", partitions},
          {"queue_depths", queue_depths}, {"scheduler", scheduler}, {"launcher", launcher},
          {"settings", settings}};
}

SweepSpec SweepSpec::from_json(const nlohmann::json& j) {
  try {
    SweepSpec s;
    s.name = j.at("name").get<std::string>();
    s.workers = j.at("workers").get<std::vector<std::string>>();
    s.partitions = j.at("partitions").get<std::vector<int>>();
    s.queue_depths = j.at("queue_depths").get<std::vector<int>>();
    s.scheduler = j.at("scheduler").get<std::string>();
    s.launcher = j.at("launcher").get<std::string>();
    s.settings = j.at("settings").get<std::map<std::string, std::map<std::string, std::string>>>();
    return s;
  } catch (const nlohmann::json::exception& e) {
    throw UsageError(std::string("malformed sweep specification: ") + e.what());
  }
}

std::vector<Point> expand(const SweepSpec& spec) {
  std::vector<Point> points;
  for (const auto& worker_name : spec.workers) {
    const WorkerInfo& worker = find_worker(worker_name);
    const bool by_queue_depth =
        std::find(worker.dimensions.begin(), worker.dimensions.end(), "queue_depth") !=
        worker.dimensions.end();
    const std::vector<int> depths = by_queue_depth ? spec.queue_depths : std::vector<int>{0};
    nlohmann::json settings = nlohmann::json::object();
    if (auto it = spec.settings.find(worker_name); it != spec.settings.end()) {
      settings = it->second;
    }
    for (int partition : spec.partitions) {
      if (partition < worker.min_procs) continue;  // e.g. b_eff on 1 process: nothing to run
      for (int depth : depths) {
        nlohmann::json params = {
            {"worker", worker_name}, {"partition", partition}, {"settings", settings}};
        if (by_queue_depth) params["queue_depth"] = depth;
        Point p;
        p.worker = worker_name;
        p.partition = partition;
        p.params = params;
        p.key = sha256_hex(params.dump()).substr(0, 16);
        points.push_back(std::move(p));
      }
    }
  }
  return points;
}

std::vector<std::string> worker_arguments(const Point& point) {
  std::vector<std::string> args;
  if (point.params.contains("queue_depth")) {
    args.push_back("--queue-depths");
    args.push_back(std::to_string(point.params["queue_depth"].get<int>()));
  }
  for (const auto& [parameter, value] : point.params["settings"].items()) {
    args.push_back(dashed(parameter));
    args.push_back(value.get<std::string>());
  }
  return args;
}

}  // namespace pbench::sweep
