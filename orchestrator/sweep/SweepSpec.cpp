#include "sweep/SweepSpec.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <optional>
#include <regex>
#include <set>
#include <sstream>

#include "common/Units.hpp"
#include "schedulers/Launcher.hpp"
#include "schedulers/PbsScheduler.hpp"
#include "schedulers/Scheduler.hpp"
#include "sweep/ConsortiumSweep.hpp"
#include "sweep/WorkerCatalog.hpp"
#include "util/Error.hpp"
#include "util/Sha256.hpp"

namespace pbench::sweep {
namespace {

/// True when `text` is valid UTF-8 (what the stored JSON of a sweep can hold).
bool is_utf8(const std::string& text) {
  try {
    (void)nlohmann::json(text).dump();
    return true;
  } catch (const nlohmann::json::type_error&) {
    return false;
  }
}

/// Longer hint sets are refused before matching: std::regex recurses once per character and
/// overflowed the stack near 100 kB. (MPI bounds one hint's key by 255 and value by 1024 bytes.)
constexpr std::size_t kMaxHintSetBytes = 4096;

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

/// A list of a sweep holds each value once: a value given twice would plan the same point twice
/// (the store refuses that with a raw UNIQUE error) or say the same thing twice.
template <class T, class Text>
void refuse_twice(const T& values, const std::string& option, const Text& text) {
  for (std::size_t i = 0; i < values.size(); ++i) {
    for (std::size_t j = 0; j < i; ++j) {
      if (values[j] == values[i]) {
        throw UsageError(option + ": '" + text(values[i]) + "' is listed twice");
      }
    }
  }
}

/// Every dimension's values: one with defaults is never empty, each value is listed once and
/// passes the dimension's check; and one that needs its worker is not given without it.
void validate_dimensions(const SweepSpec& spec, const std::set<std::string>& workers) {
  for (const Dimension* d : all_dimensions()) {
    const auto& values = spec.values(d->name);
    if (!d->defaults.is_null() && values.empty()) throw UsageError(d->option() + ": empty list");
    refuse_twice(values, d->option(), [&](const nlohmann::json& v) { return d->value_text(v); });
    if (d->check) {
      for (const auto& v : values) d->check(v);
    }
  }
  for (const auto& worker : worker_catalog()) {
    if (workers.count(worker.name)) {
      if (worker.check) worker.check(spec);
      continue;
    }
    std::vector<std::string> options;
    bool given = false;
    for (const auto& d : worker.dimensions) {
      if (!d.needs_worker) continue;
      options.push_back(d.option());
      given = given || !spec.values(d.name).empty();
    }
    if (given) {
      std::string list;
      for (std::size_t i = 0; i < options.size(); ++i) {
        list += (i == 0 ? "" : i + 1 == options.size() ? " and " : ", ") + options[i];
      }
      throw UsageError(list + (options.size() > 1 ? " apply" : " applies") + " to the " +
                       worker.name + " worker, which the sweep does not run");
    }
  }
}

void validate_partitions(const SweepSpec& spec) {
  if (spec.partitions.empty()) throw UsageError("--partitions: empty list");
  std::set<std::string> seen;
  for (const auto& p : spec.partitions) {
    if (p.processes <= 0 || p.nodes < 0 || p.procs_per_node < 0 ||
        (p.has_shape() && p.nodes * p.procs_per_node != p.processes)) {
      throw UsageError("--partitions: '" + p.text() + "' must be positive");
    }
    if (!seen.insert(p.text()).second) {
      throw UsageError("--partitions: '" + p.text() + "' is listed twice");
    }
  }
}

void validate_batch_options(const SweepSpec& spec) {
  const bool batch = spec.scheduler != "local";
  const auto only_batch = [&](bool given, const std::string& option) {
    if (given && !batch) {
      throw UsageError(option + " applies to a batch scheduler (--scheduler slurm or pbs), not " +
                       spec.scheduler);
    }
  };
  only_batch(spec.nodes != 0, "--nodes");
  only_batch(spec.procs_per_node != 0, "--procs-per-node");
  only_batch(spec.time_limit_seconds != 0, "--time-limit");
  only_batch(!spec.account.empty(), "--account");
  only_batch(!spec.queue.empty(), "--queue");
  only_batch(!spec.directives.empty(), "--directive");
  only_batch(spec.share_nodes, "--share-nodes");
  if (spec.nodes < 0) throw UsageError("--nodes: must be positive");
  if (spec.procs_per_node < 0) throw UsageError("--procs-per-node: must be positive");
  if (spec.time_limit_seconds < 0) throw UsageError("--time-limit: must be positive");
  static const std::regex name_pattern("^[A-Za-z0-9][A-Za-z0-9._@+-]{0,127}$");
  if (!spec.account.empty() && !std::regex_match(spec.account, name_pattern)) {
    throw UsageError("--account: '" + spec.account +
                     "' is not an account name (letters, digits, '.', '_', '@', '+', '-')");
  }
  if (!spec.queue.empty() && !std::regex_match(spec.queue, name_pattern)) {
    throw UsageError("--queue: '" + spec.queue +
                     "' is not a queue name (letters, digits, '.', '_', '@', '+', '-')");
  }
  for (const auto& d : spec.directives) {
    if (!is_utf8(d)) throw UsageError("--directive: a directive is not valid UTF-8 text");
    if (d.empty() || d[0] != '-' ||
        d.find_first_of(std::string("\n\r\0", 3)) != std::string::npos) {
      throw UsageError("--directive: '" + d +
                       "' must be one option line starting with '-', e.g. --constraint=ib");
    }
  }
  for (const auto& p : spec.partitions) {
    if (!p.has_shape()) continue;
    if (!batch && p.nodes > 1) {
      throw UsageError("partition " + p.text() + " needs " + std::to_string(p.nodes) +
                       " nodes, but the " + spec.scheduler +
                       " scheduler runs every job on this machine (use --scheduler slurm or pbs)");
    }
    if (spec.nodes != 0 || spec.procs_per_node != 0) {
      throw UsageError("partition " + p.text() +
                       " gives its own nodes and processes per node: --nodes and "
                       "--procs-per-node apply to plain partitions only (write every partition "
                       "as NxP, or drop them)");
    }
  }
  for (const auto& p : spec.partitions) {
    if (p.has_shape()) continue;
    const int partition = p.processes;
    const NodeShape shape = node_shape(spec, p);
    if (shape.procs_per_node > 0 && partition > shape.nodes * shape.procs_per_node) {
      throw UsageError("partition " + std::to_string(partition) + " needs " +
                       std::to_string(partition) + " processes, but --nodes " +
                       std::to_string(shape.nodes) + " x --procs-per-node " +
                       std::to_string(shape.procs_per_node) + " gives only " +
                       std::to_string(shape.nodes * shape.procs_per_node));
    }
    if (shape.nodes > partition) {
      throw UsageError("--nodes " + std::to_string(shape.nodes) + " is more than partition " +
                       std::to_string(partition) + " has processes");
    }
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
    const auto value = units::parse_seconds(item);
    if (item.empty() || !value || !(*value > 0)) {
      throw UsageError(option + ": '" + item + "' in '" + text +
                       "' is not a positive time (seconds, or with a unit: " + units::kTimeUnits +
                       ")");
    }
    out.push_back(*value);
    if (comma == std::string::npos) break;
    start = comma + 1;
  }
  return out;
}

void validate_hint_set(const std::string& hints) {
  if (!is_utf8(hints)) throw UsageError("--hints: a hint set is not valid UTF-8 text");
  if (hints.size() > kMaxHintSetBytes) {
    throw UsageError("--hints: a hint set of " + std::to_string(hints.size()) +
                     " bytes is longer than the " + std::to_string(kMaxHintSetBytes) + " allowed");
  }
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
  if (!is_utf8(assignment)) {
    throw UsageError("--set " + worker + "." + parameter + ": the value is not valid UTF-8 text");
  }
  settings[worker][parameter] = assignment.substr(equals + 1);
}

NodeShape node_shape(const SweepSpec& spec, const Partition& partition) {
  NodeShape shape;
  if (partition.has_shape()) {
    shape.nodes = partition.nodes;
    shape.procs_per_node = partition.procs_per_node;
    shape.exact = true;
    return shape;
  }
  shape.procs_per_node = spec.procs_per_node;
  if (spec.nodes > 0) {
    shape.nodes = spec.nodes;
  } else if (spec.procs_per_node > 0) {
    shape.nodes = (partition.processes + spec.procs_per_node - 1) / spec.procs_per_node;
  }
  return shape;
}

int parse_time_limit(const std::string& text, const std::string& option) {
  static const std::regex pattern(R"(^(?:(\d{1,3})-)?(\d{1,6})(?::(\d{1,2}))?(?::(\d{1,2}))?$)");
  std::smatch m;
  const auto bad = [&] {
    return UsageError(option + ": '" + text +
                      "' is not a time limit (MINUTES, MINUTES:SECONDS, HOURS:MINUTES:SECONDS or "
                      "DAYS-HOURS:MINUTES:SECONDS)");
  };
  if (!text.empty() && text.front() == '-') {
    throw UsageError(option + ": '" + text + "' is negative: a time limit must be more than 0");
  }
  if (!std::regex_match(text, m, pattern)) throw bad();
  const long days = m[1].matched ? std::stol(m[1]) : 0;
  long seconds = 0;
  if (m[4].matched) {  // [D-]H:M:S
    if (std::stol(m[3]) > 59 || std::stol(m[4]) > 59) throw bad();
    seconds = std::stol(m[2]) * 3600 + std::stol(m[3]) * 60 + std::stol(m[4]);
  } else if (m[1].matched) {
    throw bad();              // D-H and D-H:M are Slurm's, but too easy to misread
  } else if (m[3].matched) {  // M:S
    if (std::stol(m[3]) > 59) throw bad();
    seconds = std::stol(m[2]) * 60 + std::stol(m[3]);
  } else {
    seconds = std::stol(m[2]) * 60;
  }
  seconds += days * 86400;
  if (seconds <= 0 || seconds > 365L * 86400) {
    throw UsageError(option + ": '" + text + "' must be more than 0 and at most a year");
  }
  return static_cast<int>(seconds);
}

const nlohmann::json& SweepSpec::values(const std::string& dimension) const {
  static const nlohmann::json none = nlohmann::json::array();
  const auto it = dimensions.find(dimension);
  return it == dimensions.end() ? none : it->second;
}

void SweepSpec::set_values(const std::string& dimension, const nlohmann::json& values) {
  dimensions[dimension] = find_dimension(dimension).typed(values);
}

void SweepSpec::validate() const {
  validate_sweep_name(name);
  if (workers.empty()) throw UsageError("--workers: empty list");
  std::set<std::string> seen;
  for (const auto& w : workers) {
    find_worker(w);
    if (!seen.insert(w).second) throw UsageError("--workers: '" + w + "' is listed twice");
  }
  validate_partitions(*this);
  for (const auto& w : workers) {
    const int least = find_worker(w).min_procs;
    if (std::none_of(partitions.begin(), partitions.end(),
                     [&](const Partition& p) { return p.processes >= least; })) {
      throw UsageError("--partitions: " + w + " needs at least " + std::to_string(least) +
                       " processes and no partition has that many");
    }
  }
  validate_dimensions(*this, seen);
  refuse_twice(directives, "--directive", [](const std::string& d) { return d; });
  if (!contains(schedulers::scheduler_names(), scheduler)) {
    throw UsageError("unknown scheduler '" + scheduler +
                     "' (known: " + join_words(schedulers::scheduler_names()) + ")");
  }
  launcher.validate();
  if (!dialect.empty()) {
    if (!contains(schedulers::pbs_dialects(), dialect)) {
      throw UsageError("unknown dialect '" + dialect +
                       "' (known: " + join_words(schedulers::pbs_dialects()) + ")");
    }
    if (scheduler != "pbs") {
      throw UsageError("the dialect '" + dialect + "' is for the pbs scheduler, not " + scheduler);
    }
  }
  std::set<std::string> env_names;
  for (const auto& env : environments) {
    if (!env_names.insert(env.name).second) {
      throw UsageError("--envs: the environment '" + env.name + "' is named twice");
    }
    if (env.launcher) env.launcher->validate();
  }
  validate_batch_options(*this);
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
  nlohmann::json partition_list = nlohmann::json::array();
  for (const auto& p : partitions) partition_list.push_back(p.to_json());
  nlohmann::json j = {{"name", name},
                      {"workers", workers},
                      {"partitions", partition_list},
                      {"scheduler", scheduler},
                      {"launcher", launcher.to_json()},
                      {"settings", settings}};
  // Batch options only when given, so a sweep without them keeps the JSON it always had.
  if (nodes != 0) j["nodes"] = nodes;
  if (procs_per_node != 0) j["procs_per_node"] = procs_per_node;
  if (time_limit_seconds != 0) j["time_limit_seconds"] = time_limit_seconds;
  if (!account.empty()) j["account"] = account;
  if (!queue.empty()) j["queue"] = queue;
  if (!directives.empty()) j["directives"] = directives;
  if (share_nodes) j["share_nodes"] = true;
  // The workers' dimensions: those with defaults always, the others only when given, so the
  // specification of a sweep without them is unchanged.
  for (const Dimension* d : all_dimensions()) {
    const auto& v = values(d->name);
    if (!d->defaults.is_null() || !v.empty()) j[d->spec_key] = v;
  }
  // A site profile's part, only when there is one.
  if (!dialect.empty()) j["dialect"] = dialect;
  if (!lines.empty()) j["lines"] = lines;
  if (!variables.empty()) {
    nlohmann::json vars = nlohmann::json::array();
    for (const auto& [n, v] : variables) vars.push_back({n, v});
    j["variables"] = vars;
  }
  if (!environments.empty()) {
    nlohmann::json envs = nlohmann::json::array();
    for (const auto& env : environments) envs.push_back(env.to_json());
    j["environments"] = envs;
  }
  if (!site.is_null()) j["site"] = site;
  if (!machine.is_null()) j["machine"] = machine;
  if (max_time_limit_seconds != 0) j["max_time_limit_seconds"] = max_time_limit_seconds;
  return j;
}

SweepSpec SweepSpec::from_json(const nlohmann::json& j) {
  try {
    SweepSpec s;
    s.name = j.at("name").get<std::string>();
    s.workers = j.at("workers").get<std::vector<std::string>>();
    s.partitions.clear();
    for (const auto& p : j.at("partitions")) s.partitions.push_back(Partition::from_json(p));
    for (const Dimension* d : all_dimensions()) {
      if (!d->defaults.is_null()) {
        s.dimensions[d->name] = d->typed(j.at(d->spec_key));
      } else if (j.contains(d->spec_key)) {
        s.dimensions[d->name] = d->typed(j[d->spec_key]);
      }
    }
    s.scheduler = j.at("scheduler").get<std::string>();
    s.launcher = schedulers::LaunchSpec::from_json(j.at("launcher"));
    s.settings = j.at("settings").get<std::map<std::string, std::map<std::string, std::string>>>();
    s.nodes = j.value("nodes", 0);
    s.procs_per_node = j.value("procs_per_node", 0);
    s.time_limit_seconds = j.value("time_limit_seconds", 0);
    s.account = j.value("account", "");
    s.queue = j.value("queue", "");
    s.directives = j.value("directives", std::vector<std::string>{});
    s.share_nodes = j.value("share_nodes", false);
    s.dialect = j.value("dialect", "");
    s.lines = j.value("lines", std::vector<std::string>{});
    for (const auto& pair : j.value("variables", nlohmann::json::array())) {
      s.variables.emplace_back(pair.at(0).get<std::string>(), pair.at(1).get<std::string>());
    }
    for (const auto& env : j.value("environments", nlohmann::json::array())) {
      s.environments.push_back(Environment::from_json(env));
    }
    s.site = j.value("site", nlohmann::json());
    s.machine = j.value("machine", nlohmann::json());
    s.max_time_limit_seconds = j.value("max_time_limit_seconds", 0);
    return s;
  } catch (const nlohmann::json::exception& e) {
    throw UsageError(std::string("malformed sweep specification: ") + e.what());
  }
}

namespace {

/// The combinations of a worker's dimensions and the environments, each a JSON object of the
/// point's values ({"queue_depth": 8, "env": "mpich"}), the first dimension varying slowest. A
/// dimension not given adds nothing (one with defaults and no values gives no point).
std::vector<nlohmann::json> combinations(const SweepSpec& spec, const WorkerInfo& worker) {
  std::vector<nlohmann::json> out{nlohmann::json::object()};
  const auto cross = [&out](const std::string& key, const nlohmann::json& values) {
    std::vector<nlohmann::json> next;
    for (const auto& combination : out) {
      for (const auto& value : values) {
        next.push_back(combination);
        next.back()[key] = value;
      }
    }
    out = std::move(next);
  };
  for (const auto& d : worker.dimensions) {
    const auto& values = spec.values(d.name);
    if (!values.empty() || !d.defaults.is_null()) cross(d.name, values);
  }
  // The environment (--envs) is a dimension of every worker.
  nlohmann::json envs = nlohmann::json::array();
  for (const auto& env : spec.environments) envs.push_back(env.name);
  if (!envs.empty()) cross("env", envs);
  return out;
}

}  // namespace

std::vector<Point> expand(const SweepSpec& spec) {
  std::vector<Point> points;
  for (const auto& worker_name : spec.workers) {
    const WorkerInfo& worker = find_worker(worker_name);
    const std::vector<nlohmann::json> cells = combinations(spec, worker);
    nlohmann::json settings = nlohmann::json::object();
    if (auto it = spec.settings.find(worker_name); it != spec.settings.end()) {
      settings = it->second;
    }
    for (const auto& partition : spec.partitions) {
      // e.g. b_eff on 1 process: nothing to run
      if (partition.processes < worker.min_procs) continue;
      for (const auto& cell : cells) {
        nlohmann::json params = {
            {"worker", worker_name}, {"partition", partition.processes}, {"settings", settings}};
        if (partition.has_shape()) {
          params["nodes"] = partition.nodes;
          params["procs_per_node"] = partition.procs_per_node;
        }
        params.update(cell);
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
  const WorkerInfo& worker = find_worker(point.worker);
  if (!worker.partition_option.empty()) {
    args.push_back(worker.partition_option);
    args.push_back(std::to_string(point.partition.processes));
  }
  // Each of the worker's dimensions the point has, as the worker option that carries it.
  for (const auto& d : worker.dimensions) {
    if (const auto value = point.params.find(d.name); value != point.params.end()) {
      args.push_back(d.worker_option);
      args.push_back(d.argument_text(*value));
    }
  }
  // --name=value, one word: a flag given a value (--set io.unguarded=true) and a value that
  // starts with '-' (--set logp.x=-1) reach the worker as that option's value.
  // find, not operator[]: on a const object a missing key is undefined behaviour (a point read
  // back from the store without settings read past its JSON, and collect crashed now and then).
  if (const auto settings = point.params.find("settings");
      settings != point.params.end() && settings->is_object()) {
    for (const auto& [parameter, value] : settings->items()) {
      args.push_back(dashed(parameter) + "=" + value.get<std::string>());
    }
  }
  return args;
}

}  // namespace pbench::sweep
