#include "sweep/SweepSpec.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <optional>
#include <regex>
#include <set>
#include <sstream>

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

std::vector<double> parse_seconds_list(const std::string& text, const std::string& option) {
  std::vector<double> out;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = text.find(',', start);
    const std::string item =
        text.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    double value = 0;
    auto [ptr, ec] = std::from_chars(item.data(), item.data() + item.size(), value);
    if (item.empty() || ec != std::errc() || ptr != item.data() + item.size() || !(value > 0) ||
        !std::isfinite(value)) {
      throw UsageError(option + ": '" + item + "' in '" + text +
                       "' is not a positive number of seconds");
    }
    out.push_back(value);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

void validate_hint_set(const std::string& hints) {
  static const std::regex item("^(type[0-4]:)?[A-Za-z0-9_.-]+=[^,=\\s'\"]+$");
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = hints.find(',', start);
    const std::string one =
        hints.substr(start, comma == std::string::npos ? std::string::npos : comma - start);
    if (!std::regex_match(one, item)) {
      throw UsageError("--hints '" + hints + "': '" + one +
                       "' is not key=value (or typeN:key=value)");
    }
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
}

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
  for (double t : schedule_times) {
    if (!(t > 0)) throw UsageError("--schedule-times: every time must be > 0 seconds");
  }
  for (const auto& h : hint_sets) validate_hint_set(h);
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
  nlohmann::json j = {{"name", name},         {"workers", workers},   {"partitions", partitions},
                      {"queue_depths", queue_depths}, {"scheduler", scheduler},
                      {"launcher", launcher}, {"settings", settings}};
  // Only when given, so the specification of a sweep without them is unchanged.
  if (!schedule_times.empty()) j["schedule_times"] = schedule_times;
  if (!hint_sets.empty()) j["hint_sets"] = hint_sets;
  return j;
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
    s.schedule_times = j.value("schedule_times", std::vector<double>{});
    s.hint_sets = j.value("hint_sets", std::vector<std::string>{});
    return s;
  } catch (const nlohmann::json::exception& e) {
    throw UsageError(std::string("malformed sweep specification: ") + e.what());
  }
}

std::vector<Point> expand(const SweepSpec& spec) {
  std::vector<Point> points;
  for (const auto& worker_name : spec.workers) {
    const WorkerInfo& worker = find_worker(worker_name);
    auto varies = [&](const char* dimension) {
      return std::find(worker.dimensions.begin(), worker.dimensions.end(), dimension) !=
             worker.dimensions.end();
    };
    const bool by_queue_depth = varies("queue_depth");
    const std::vector<int> depths = by_queue_depth ? spec.queue_depths : std::vector<int>{0};
    // Absent dimensions (or empty lists) contribute one value that adds nothing to the point.
    std::vector<std::optional<double>> times{std::nullopt};
    if (varies("schedule_time") && !spec.schedule_times.empty()) {
      times.assign(spec.schedule_times.begin(), spec.schedule_times.end());
    }
    std::vector<std::optional<std::string>> hint_sets{std::nullopt};
    if (varies("hints") && !spec.hint_sets.empty()) {
      hint_sets.assign(spec.hint_sets.begin(), spec.hint_sets.end());
    }
    nlohmann::json settings = nlohmann::json::object();
    if (auto it = spec.settings.find(worker_name); it != spec.settings.end()) {
      settings = it->second;
    }
    for (int partition : spec.partitions) {
      if (partition < worker.min_procs) continue;  // e.g. b_eff on 1 process: nothing to run
      for (int depth : depths) {
        for (const auto& time : times) {
          for (const auto& hints : hint_sets) {
            nlohmann::json params = {
                {"worker", worker_name}, {"partition", partition}, {"settings", settings}};
            if (by_queue_depth) params["queue_depth"] = depth;
            if (time) params["schedule_time"] = *time;
            if (hints) params["hints"] = *hints;
            Point p;
            p.worker = worker_name;
            p.partition = partition;
            p.params = params;
            p.key = sha256_hex(params.dump()).substr(0, 16);
            points.push_back(std::move(p));
          }
        }
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
  const std::string& partition_option = find_worker(point.worker).partition_option;
  if (!partition_option.empty()) {
    args.push_back(partition_option);
    args.push_back(std::to_string(point.partition));
  }
  if (point.params.contains("schedule_time")) {
    std::ostringstream text;
    text << point.params["schedule_time"].get<double>();
    args.push_back("--schedule-time");
    args.push_back(text.str());
  }
  if (point.params.contains("hints")) {
    args.push_back("--hint");
    args.push_back(point.params["hints"].get<std::string>());
  }
  for (const auto& [parameter, value] : point.params["settings"].items()) {
    args.push_back(dashed(parameter));
    args.push_back(value.get<std::string>());
  }
  return args;
}

}  // namespace pbench::sweep
