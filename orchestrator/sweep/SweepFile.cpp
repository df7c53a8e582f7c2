#include "sweep/SweepFile.hpp"

#include <toml++/toml.h>

#include <set>
#include <sstream>

#include "sweep/ConsortiumSweep.hpp"
#include "util/Error.hpp"

namespace pbench::sweep {
namespace {

class Reader {
 public:
  explicit Reader(std::string path) : path_(std::move(path)) {}

  [[noreturn]] void fail(const std::string& key, const std::string& what) const {
    throw UsageError("sweep file " + path_ + ": " + key + ": " + what);
  }

  void only_keys(const toml::table& table, const std::string& where,
                 const std::set<std::string>& known) const {
    for (const auto& [key, value] : table) {
      if (!known.count(std::string(key.str()))) {
        std::string list;
        for (const auto& k : known) list += (list.empty() ? "" : ", ") + k;
        fail(where + std::string(key.str()), "unknown key (known: " + list + ")");
      }
    }
  }

  std::string text(const toml::node& node, const std::string& key) const {
    if (auto s = node.value<std::string>()) return *s;
    fail(key, "expected a string");
  }

  int integer(const toml::node& node, const std::string& key) const {
    auto v = node.value_exact<std::int64_t>();
    if (!v || *v < 1 || *v > 1000000000) fail(key, "expected a positive integer");
    return static_cast<int>(*v);
  }

  std::vector<int> integers(const toml::node& node, const std::string& key) const {
    const auto* array = node.as_array();
    if (!array) fail(key, "expected an array of positive integers");
    std::vector<int> out;
    for (std::size_t i = 0; i < array->size(); ++i) {
      out.push_back(integer(*array->get(i), key + "[" + std::to_string(i) + "]"));
    }
    return out;
  }

  // Plain partitions as integers (8), shapes as strings ("2x4"), as --partitions reads them.
  std::vector<Partition> partitions(const toml::node& node, const std::string& key) const {
    const auto* array = node.as_array();
    if (!array) fail(key, "expected an array of partitions (8 or \"2x4\")");
    std::vector<Partition> out;
    for (std::size_t i = 0; i < array->size(); ++i) {
      const std::string where = key + "[" + std::to_string(i) + "]";
      const auto* item = array->get(i);
      if (item->value_exact<std::int64_t>()) {
        out.push_back(integer(*item, where));
      } else if (auto t = item->value_exact<std::string>()) {
        out.push_back(parse_partition(*t, "sweep file " + path_ + ": " + where));
      } else {
        fail(where, "expected a partition (8 or \"2x4\")");
      }
    }
    return out;
  }

  std::vector<std::string> texts(const toml::node& node, const std::string& key) const {
    const auto* array = node.as_array();
    if (!array) fail(key, "expected an array of strings");
    std::vector<std::string> out;
    for (std::size_t i = 0; i < array->size(); ++i) {
      out.push_back(text(*array->get(i), key + "[" + std::to_string(i) + "]"));
    }
    return out;
  }

  std::vector<double> seconds(const toml::node& node, const std::string& key) const {
    const auto* array = node.as_array();
    if (!array) fail(key, "expected an array of positive numbers of seconds");
    std::vector<double> out;
    for (std::size_t i = 0; i < array->size(); ++i) {
      const auto value = array->get(i)->value<double>();  // integers too
      if (!value || !(*value > 0)) {
        fail(key + "[" + std::to_string(i) + "]", "expected a positive number of seconds");
      }
      out.push_back(*value);
    }
    return out;
  }

  std::vector<bool> switches(const toml::node& node, const std::string& key) const {
    const auto* array = node.as_array();
    if (!array) fail(key, "expected an array of booleans");
    std::vector<bool> out;
    for (std::size_t i = 0; i < array->size(); ++i) {
      const auto value = array->get(i)->value_exact<bool>();
      if (!value) fail(key + "[" + std::to_string(i) + "]", "expected true or false");
      out.push_back(*value);
    }
    return out;
  }

  // Sizes as integers (bytes) or strings with units ("64KiB"), as --transfer-sizes reads them.
  std::vector<std::int64_t> sizes(const toml::node& node, const std::string& key) const {
    const auto* array = node.as_array();
    if (!array) fail(key, "expected an array of sizes (4096 or \"64KiB\")");
    std::vector<std::int64_t> out;
    for (std::size_t i = 0; i < array->size(); ++i) {
      const std::string where = key + "[" + std::to_string(i) + "]";
      const auto* item = array->get(i);
      std::string text;
      if (auto n = item->value_exact<std::int64_t>()) {
        text = std::to_string(*n);
      } else if (auto t = item->value_exact<std::string>()) {
        text = *t;
      } else {
        fail(where, "expected a size (4096 or \"64KiB\")");
      }
      try {
        out.push_back(parse_size_list(text, where).at(0));
      } catch (const UsageError& e) {
        throw UsageError("sweep file " + path_ + ": " + e.what());
      }
    }
    return out;
  }

  // A worker parameter: its value as the command line would give it.
  std::string setting(const toml::node& node, const std::string& key) const {
    if (auto s = node.value_exact<std::string>()) return *s;
    if (auto i = node.value_exact<std::int64_t>()) return std::to_string(*i);
    if (auto b = node.value_exact<bool>()) return *b ? "true" : "false";
    if (auto d = node.value_exact<double>()) {
      std::ostringstream out;
      out.precision(17);
      out << *d;
      return out.str();
    }
    fail(key, "expected a string, integer, float or boolean");
  }

 private:
  std::string path_;
};

[[noreturn]] void fail_parse(const toml::parse_error& e, const std::string& path) {
  const auto& where = e.source().begin;
  throw UsageError("sweep file " + path + ", line " + std::to_string(where.line) + ": " +
                   std::string(e.description()));
}

SweepSpec spec_from_table(const toml::table& root, const std::string& path,
                          const std::string& name) {
  const Reader r(path);
  r.only_keys(root, "",
              {"workers", "partitions", "queue_depths", "launcher", "settings", "scheduler",
               "schedule_times", "hints", "transfer_sizes", "patterns", "collective"});
  SweepSpec spec;
  spec.name = name;
  if (auto* n = root.get("workers")) spec.workers = r.texts(*n, "workers");
  if (auto* n = root.get("partitions")) spec.partitions = r.partitions(*n, "partitions");
  if (auto* n = root.get("queue_depths")) spec.queue_depths = r.integers(*n, "queue_depths");
  if (auto* n = root.get("launcher")) spec.launcher = r.text(*n, "launcher");
  // io's dimensions: as -T, --hints, --transfer-sizes, --patterns and --collective.
  if (auto* n = root.get("schedule_times")) spec.schedule_times = r.seconds(*n, "schedule_times");
  if (auto* n = root.get("hints")) spec.hint_sets = r.texts(*n, "hints");
  if (auto* n = root.get("transfer_sizes")) spec.transfer_sizes = r.sizes(*n, "transfer_sizes");
  if (auto* n = root.get("patterns")) spec.patterns = r.texts(*n, "patterns");
  if (auto* n = root.get("collective")) spec.collective = r.switches(*n, "collective");
  if (auto* n = root.get("settings")) {
    const auto* workers = n->as_table();
    if (!workers) r.fail("settings", "expected tables [settings.WORKER]");
    for (const auto& [worker, params] : *workers) {
      const auto* table = params.as_table();
      const std::string key = "settings." + std::string(worker.str());
      if (!table) r.fail(key, "expected a table of PARAMETER = VALUE");
      for (const auto& [parameter, value] : *table) {
        const std::string assignment = std::string(worker.str()) + "." +
                                       std::string(parameter.str()) + "=" +
                                       r.setting(value, key + "." + std::string(parameter.str()));
        add_setting(spec.settings, assignment);
      }
    }
  }
  if (auto* n = root.get("scheduler")) {
    const auto* table = n->as_table();
    if (!table) r.fail("scheduler", "expected a table [scheduler]");
    r.only_keys(*table, "scheduler.",
                {"name", "nodes", "procs_per_node", "share_nodes", "time_limit", "account", "queue",
                 "directives"});
    if (auto* v = table->get("name")) spec.scheduler = r.text(*v, "scheduler.name");
    if (auto* v = table->get("nodes")) spec.nodes = r.integer(*v, "scheduler.nodes");
    if (auto* v = table->get("procs_per_node")) {
      spec.procs_per_node = r.integer(*v, "scheduler.procs_per_node");
    }
    if (auto* v = table->get("share_nodes")) {
      const auto share = v->value_exact<bool>();
      if (!share) r.fail("scheduler.share_nodes", "expected true or false");
      spec.share_nodes = *share;
    }
    if (auto* v = table->get("time_limit")) {
      spec.time_limit_seconds =
          parse_time_limit(r.text(*v, "scheduler.time_limit"), "scheduler.time_limit");
    }
    if (auto* v = table->get("account")) spec.account = r.text(*v, "scheduler.account");
    if (auto* v = table->get("queue")) spec.queue = r.text(*v, "scheduler.queue");
    if (auto* v = table->get("directives")) {
      spec.directives = r.texts(*v, "scheduler.directives");
    }
  }
  return spec;
}

}  // namespace

SweepSpec read_sweep_file(const std::string& path, const std::string& name) {
  toml::table root;
  try {
    root = toml::parse_file(path);
  } catch (const toml::parse_error& e) {
    fail_parse(e, path);
  }
  return spec_from_table(root, path, name);
}

SweepSpec parse_sweep_file(std::string_view text, const std::string& origin,
                           const std::string& name) {
  toml::table root;
  try {
    root = toml::parse(text, origin);
  } catch (const toml::parse_error& e) {
    fail_parse(e, origin);
  }
  return spec_from_table(root, origin, name);
}

}  // namespace pbench::sweep
