#include "site/SiteProfile.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "schedulers/PbsScheduler.hpp"
#include "schedulers/Scheduler.hpp"
#include "sweep/SweepSpec.hpp"
#include "sweep/TomlReader.hpp"
#include "util/Sha256.hpp"

namespace pbench::site {
namespace fs = std::filesystem;

namespace {

std::string join(const std::vector<std::string>& words) {
  std::string out;
  for (const auto& w : words) out += (out.empty() ? "" : ", ") + w;
  return out;
}

/// The text of `key`, one of the names in `known`; fails "unknown WHAT 'NAME' (known: ...)".
std::string known_text(const sweep::TomlReader& r, const toml::node& node, const std::string& key,
                       const std::string& what, const std::vector<std::string>& known) {
  std::string text = r.text(node, key);
  if (std::find(known.begin(), known.end(), text) == known.end()) {
    r.fail(key, "unknown " + what + " '" + text + "' (known: " + join(known) + ")");
  }
  return text;
}

// A line run before the worker: one line, no NUL.
std::vector<std::string> lines_of(const sweep::TomlReader& r, const toml::node& node,
                                  const std::string& key) {
  auto lines = r.texts(node, key);
  for (std::size_t i = 0; i < lines.size(); ++i) {
    if (lines[i].find_first_of(std::string("\n\r\0", 3)) != std::string::npos) {
      r.fail(key + "[" + std::to_string(i) + "]", "a line may not hold a newline or NUL");
    }
  }
  return lines;
}

sweep::Variables variables_of(const sweep::TomlReader& r, const toml::node& node,
                              const std::string& key) {
  const auto* table = node.as_table();
  if (!table) r.fail(key, "expected a table of NAME = \"value\"");
  sweep::Variables out;
  for (const auto& [name, value] : *table) {
    const std::string n(name.str());
    if (!is_variable_name(n)) r.fail(key + "." + n, "not a variable name the shell can export");
    const std::string v = r.text(value, key + "." + n);
    if (v.find('\0') != std::string::npos) r.fail(key + "." + n, "the value holds a NUL byte");
    out.emplace_back(n, v);
  }
  return out;
}

schedulers::LaunchSpec launcher_of(const sweep::TomlReader& r, const toml::node& node,
                                   const std::string& key) {
  schedulers::LaunchSpec spec;
  if (auto name = node.value_exact<std::string>()) {
    spec.name = *name;
  } else if (const auto* table = node.as_table()) {
    r.only_keys(*table, key + ".", {"name", "program", "args", "pmi", "line"});
    const auto* name = table->get("name");
    if (!name) r.fail(key + ".name", "missing (mpiexec, mpirun, srun or custom)");
    spec.name = r.text(*name, key + ".name");
    if (auto* v = table->get("program")) spec.program = r.text(*v, key + ".program");
    if (auto* v = table->get("args")) spec.args = r.texts(*v, key + ".args");
    if (auto* v = table->get("pmi")) spec.pmi = r.text(*v, key + ".pmi");
    if (auto* v = table->get("line")) spec.line = r.text(*v, key + ".line");
  } else {
    r.fail(key, "expected a launcher name or a table { name = ..., ... }");
  }
  try {
    spec.validate();
  } catch (const UsageError& e) {
    r.fail(key, e.what());
  }
  return spec;
}

sweep::Environment environment_of(const sweep::TomlReader& r, const toml::table& table,
                                  const std::string& key, const fs::path& base) {
  r.only_keys(table, key + ".", {"name", "worker_dir", "launcher", "lines", "variables"});
  sweep::Environment env;
  const auto* name = table.get("name");
  if (!name) r.fail(key + ".name", "missing: every environment has a name");
  env.name = r.text(*name, key + ".name");
  try {
    sweep::validate_sweep_name(env.name);
  } catch (const UsageError&) {
    r.fail(key + ".name", "'" + env.name + "' is not a name (letters, digits, . _ -)");
  }
  const std::string where = key + " '" + env.name + "'";
  const auto* dir = table.get("worker_dir");
  if (!dir) {
    r.fail(where + ".worker_dir",
           "missing: the directory of the four workers built against this environment's MPI");
  }
  const fs::path worker_dir = base / r.text(*dir, where + ".worker_dir");
  std::error_code ec;
  if (!fs::is_directory(worker_dir, ec)) {
    r.fail(where + ".worker_dir", "'" + worker_dir.string() + "' is not a directory");
  }
  env.worker_dir = fs::absolute(worker_dir).lexically_normal().string();
  if (auto* v = table.get("launcher")) env.launcher = launcher_of(r, *v, where + ".launcher");
  if (auto* v = table.get("lines")) env.lines = lines_of(r, *v, where + ".lines");
  if (auto* v = table.get("variables")) env.variables = variables_of(r, *v, where + ".variables");
  return env;
}

}  // namespace

bool is_variable_name(const std::string& name) {
  if (name.empty() || (name[0] >= '0' && name[0] <= '9')) return false;
  return std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_';
  });
}

const sweep::Environment& SiteProfile::environment(const std::string& name) const {
  std::vector<std::string> names;
  for (const auto& env : environments) {
    if (env.name == name) return env;
    names.push_back(env.name);
  }
  throw UsageError("--envs: the site profile " + path + " has no environment '" + name + "' (" +
                   (names.empty() ? std::string("it defines none") : "it has: " + join(names)) +
                   ")");
}

SiteProfile parse_site_profile(std::string_view text, const std::string& origin) {
  toml::table root;
  try {
    root = toml::parse(text, origin);
  } catch (const toml::parse_error& e) {
    throw UsageError("site profile " + origin + " is not TOML: line " +
                     std::to_string(e.source().begin.line) + ": " + std::string(e.description()));
  }
  const sweep::TomlReader r("site profile " + origin);
  r.only_keys(root, "",
              {"scheduler", "launcher", "lines", "variables", "environment", "machine"});
  SiteProfile profile;
  profile.path = origin;
  profile.sha256 = sha256_hex(text);
  // A relative worker directory is relative to the profile's own directory.
  const fs::path base = fs::absolute(fs::path(origin)).parent_path();
  if (auto* n = root.get("scheduler")) {
    const auto* table = n->as_table();
    if (!table) r.fail("scheduler", "expected a table [scheduler]");
    r.only_keys(*table, "scheduler.",
                {"name", "dialect", "account", "queue", "time_limit", "max_time_limit",
                 "directives"});
    if (auto* v = table->get("name")) {
      profile.scheduler =
          known_text(r, *v, "scheduler.name", "scheduler", schedulers::scheduler_names());
    }
    if (auto* v = table->get("dialect")) {
      profile.dialect =
          known_text(r, *v, "scheduler.dialect", "dialect", schedulers::pbs_dialects());
      if (profile.scheduler && *profile.scheduler != "pbs") {
        r.fail("scheduler.dialect",
               "a dialect is for the pbs scheduler, not " + *profile.scheduler);
      }
    }
    if (auto* v = table->get("account")) profile.account = r.text(*v, "scheduler.account");
    if (auto* v = table->get("queue")) profile.queue = r.text(*v, "scheduler.queue");
    if (auto* v = table->get("time_limit")) {
      try {
        profile.time_limit_seconds =
            sweep::parse_time_limit(r.text(*v, "scheduler.time_limit"), "scheduler.time_limit");
      } catch (const UsageError& e) {
        r.fail("scheduler.time_limit", e.what());
      }
    }
    if (auto* v = table->get("max_time_limit")) {
      try {
        profile.max_time_limit_seconds = sweep::parse_time_limit(
            r.text(*v, "scheduler.max_time_limit"), "scheduler.max_time_limit");
      } catch (const UsageError& e) {
        r.fail("scheduler.max_time_limit", e.what());
      }
    }
    if (auto* v = table->get("directives")) {
      profile.directives = lines_of(r, *v, "scheduler.directives");
    }
  }
  if (auto* n = root.get("launcher")) profile.launcher = launcher_of(r, *n, "launcher");
  if (auto* n = root.get("lines")) profile.lines = lines_of(r, *n, "lines");
  if (auto* n = root.get("variables")) profile.variables = variables_of(r, *n, "variables");
  if (auto* n = root.get("environment")) {
    const auto* array = n->as_array();
    if (!array) r.fail("environment", "expected [[environment]] tables");
    for (std::size_t i = 0; i < array->size(); ++i) {
      const std::string key = "environment[" + std::to_string(i) + "]";
      const auto* table = array->get(i)->as_table();
      if (!table) r.fail(key, "expected a table");
      sweep::Environment env = environment_of(r, *table, key, base);
      for (const auto& other : profile.environments) {
        if (other.name == env.name) {
          r.fail(key + ".name", "the environment '" + env.name + "' is named twice");
        }
      }
      profile.environments.push_back(std::move(env));
    }
  }
  profile.machine = machine_figures_of(text, origin);
  return profile;
}

SiteProfile read_site_profile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw UsageError("cannot read site profile '" + path + "'");
  std::ostringstream text;
  text << in.rdbuf();
  return parse_site_profile(text.str(), path);
}

std::vector<std::string> default_site_paths() {
  std::vector<std::string> paths;
  if (const char* config = std::getenv("XDG_CONFIG_HOME"); config && *config) {
    paths.push_back((fs::path(config) / "pbench" / "site.toml").string());
  } else if (const char* home = std::getenv("HOME"); home && *home) {
    paths.push_back((fs::path(home) / ".config" / "pbench" / "site.toml").string());
  }
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  if (!ec) {
    // An installation's own profile: PREFIX/etc/pbench/site.toml; a package in /usr keeps its
    // configuration in /etc, as GNU's installation directories do for that prefix.
    const fs::path prefix = self.parent_path().parent_path();
    paths.push_back(
        ((prefix == "/usr" ? fs::path("/etc") : prefix / "etc") / "pbench" / "site.toml").string());
  }
  return paths;
}

std::optional<SiteProfile> find_site_profile(const std::string& given) {
  if (!given.empty()) return read_site_profile(given);
  if (const char* env = std::getenv("PBENCH_SITE"); env && *env) return read_site_profile(env);
  for (const auto& path : default_site_paths()) {
    std::error_code ec;
    if (fs::is_regular_file(path, ec)) return read_site_profile(path);
  }
  return std::nullopt;
}

}  // namespace pbench::site
