#include "sweep/SweepFile.hpp"

#include <toml++/toml.h>

#include <set>
#include <sstream>

#include "sweep/Dimension.hpp"
#include "sweep/TomlReader.hpp"
#include "util/Error.hpp"

namespace pbench::sweep {
namespace {

[[noreturn]] void fail_parse(const toml::parse_error& e, const std::string& path) {
  const auto& where = e.source().begin;
  throw UsageError("sweep file " + path + ", line " + std::to_string(where.line) + ": " +
                   std::string(e.description()));
}

/// A dimension's values in a sweep file, read as its kind.
nlohmann::json dimension_values(const TomlReader& r, const toml::node& node, const Dimension& d) {
  switch (d.kind) {
    case ValueKind::kCount:
      return r.integers(node, d.file_key);
    case ValueKind::kSeconds:
      return r.seconds(node, d.file_key);
    case ValueKind::kSize:
      return r.sizes(node, d.file_key);
    case ValueKind::kText:
      return r.texts(node, d.file_key);
    case ValueKind::kSwitch:
      return r.switches(node, d.file_key);
  }
  return nlohmann::json::array();
}

SweepSpec spec_from_table(const toml::table& root, const std::string& path,
                          const std::string& name) {
  const TomlReader r("sweep file " + path);
  std::set<std::string> keys = {"workers", "partitions", "launcher", "settings", "scheduler"};
  for (const Dimension* d : all_dimensions()) keys.insert(d->file_key);
  r.only_keys(root, "", keys);
  SweepSpec spec;
  spec.name = name;
  if (auto* n = root.get("workers")) spec.workers = r.texts(*n, "workers");
  if (auto* n = root.get("partitions")) spec.partitions = r.partitions(*n, "partitions");
  if (auto* n = root.get("launcher")) spec.launcher = r.text(*n, "launcher");
  // The workers' dimensions (logp's queue_depths, io's schedule_times, hints, ...).
  for (const Dimension* d : all_dimensions()) {
    if (auto* n = root.get(d->file_key)) spec.set_values(d->name, dimension_values(r, *n, *d));
  }
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
