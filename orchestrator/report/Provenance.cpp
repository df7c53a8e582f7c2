#include "report/Provenance.hpp"

#include <algorithm>
#include <nlohmann/json.hpp>
#include <set>

#include "sweep/SweepSpec.hpp"
#include "sweep/WorkerCatalog.hpp"
#include "util/NodeList.hpp"
#include "util/NumberText.hpp"

namespace pbench::report {
namespace {

/// The widest host list the header shows (a longer one ends in "and N more").
constexpr std::size_t kHostsWidth = 140;

void add_once(std::vector<std::string>& list, const std::string& value) {
  if (!value.empty() && std::find(list.begin(), list.end(), value) == list.end())
    list.push_back(value);
}

std::string join(const std::vector<std::string>& items, const std::string& separator,
                 std::size_t most = 0) {
  std::string out;
  const std::size_t shown = most == 0 ? items.size() : std::min(most, items.size());
  for (std::size_t i = 0; i < shown; ++i) out += (i ? separator : "") + items[i];
  if (shown < items.size())
    out += separator + "... (" + std::to_string(items.size() - shown) + " more)";
  return out;
}

/// "VERSION+DESCRIBE" as "VERSION (git describe DESCRIBE)".
std::string version_text(const std::string& version) {
  const auto plus = version.find('+');
  if (plus == std::string::npos) return version;
  return version.substr(0, plus) + " (git describe " + version.substr(plus + 1) + ")";
}

/// One value of a sweep dimension as the provenance writes it: numbers with 6 significant digits
/// and the dimension's unit, an empty text as "-", a switch as on or off.
std::string value_text(const sweep::Dimension& dimension, const nlohmann::json& value) {
  switch (dimension.kind) {
    case sweep::ValueKind::kCount:
    case sweep::ValueKind::kSeconds:
    case sweep::ValueKind::kSize:
      return plain_significant(value.get<double>(), 6) + dimension.unit;
    case sweep::ValueKind::kText:
      return value.get<std::string>().empty() ? "-" : value.get<std::string>();
    case sweep::ValueKind::kSwitch:
      break;
  }
  return dimension.value_text(value);
}

}  // namespace

Provenance read_provenance(store::Store& store, const std::string& sweep) {
  Provenance p;
  p.sweep = sweep;
  auto s =
      store.db().prepare("SELECT spec_json, scheduler, created_at FROM sweeps WHERE name = ?1");
  s.bind(1, sweep);
  if (s.step()) {
    p.spec_json = s.text(0);
    p.scheduler = s.text(1);
    p.created_at = s.text(2);
  }
  std::set<std::string> hosts;
  auto r = store.db().prepare(
      "SELECT r.worker_version, r.started_at, r.ended_at, r.head "
      "FROM points p JOIN sweeps sw ON sw.id = p.sweep_id "
      "JOIN results r ON r.id = (SELECT max(id) FROM results WHERE point_id = p.id) "
      "WHERE sw.name = ?1 ORDER BY p.id");
  r.bind(1, sweep);
  while (r.step()) {
    ++p.results;
    add_once(p.worker_versions, r.text(0));
    const auto start = r.text(1), end = r.text(2);
    if (p.first_start.empty() || start < p.first_start) p.first_start = start;
    if (end > p.last_end) p.last_end = end;
    const auto document = nlohmann::json::parse(r.text(3), nullptr, false);
    if (!document.is_object()) continue;
    if (document.contains("hosts") && document["hosts"].is_array()) {
      for (const auto& h : document["hosts"])
        if (h.is_string()) hosts.insert(h.get<std::string>());
    }
    const auto mpi = document.value("mpi_library_version", nlohmann::json());
    if (mpi.is_string()) {
      // The first line: MPICH's string goes on with its configure options.
      auto text = mpi.get<std::string>();
      text = text.substr(0, text.find('\n'));
      while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r'))
        text.pop_back();
      add_once(p.mpi_versions, text);
    }
  }
  p.hosts.assign(hosts.begin(), hosts.end());
  auto a = store.db().prepare(
      "SELECT a.job_id FROM attempts a JOIN points p ON p.id = a.point_id "
      "JOIN sweeps sw ON sw.id = p.sweep_id WHERE sw.name = ?1 AND a.job_id IS NOT NULL "
      "ORDER BY a.id");
  a.bind(1, sweep);
  while (a.step()) add_once(p.job_ids, a.text(0));
  return p;
}

std::vector<std::pair<std::string, std::string>> spec_rows(const std::string& spec_json) {
  sweep::SweepSpec spec;
  try {
    spec = sweep::SweepSpec::from_json(nlohmann::json::parse(spec_json));
  } catch (const std::exception&) {
    return {{"sweep", spec_json}};
  }
  std::vector<std::pair<std::string, std::string>> rows;
  // The sweep as a whole: partitions, launch and the batch options given.
  std::vector<std::string> parts;
  std::vector<std::string> partitions;
  for (const auto& p : spec.partitions) partitions.push_back(p.text());
  parts.push_back("partitions " + join(partitions, ", "));
  if (spec.environments.empty()) parts.push_back("launcher " + spec.launcher.describe());
  if (!spec.account.empty()) parts.push_back("account " + spec.account);
  if (!spec.queue.empty()) parts.push_back("queue " + spec.queue);
  if (spec.time_limit_seconds > 0)
    parts.push_back("time limit " + std::to_string(spec.time_limit_seconds) + " s");
  if (spec.nodes > 0) parts.push_back(std::to_string(spec.nodes) + " nodes per job");
  if (spec.procs_per_node > 0)
    parts.push_back(std::to_string(spec.procs_per_node) + " processes per node");
  if (spec.share_nodes) parts.push_back("nodes shared with other jobs");
  if (!spec.directives.empty()) parts.push_back("directives " + join(spec.directives, " "));
  if (!spec.lines.empty()) parts.push_back("lines " + join(spec.lines, "; "));
  if (spec.site.is_object() && spec.site.contains("path") && spec.site["path"].is_string())
    parts.push_back("site profile " + spec.site["path"].get<std::string>());
  rows.emplace_back("sweep", spec.name + ": " + join(parts, "; "));
  // A row per worker: its own dimensions, then its settings.
  for (const auto& worker : spec.workers) {
    std::vector<std::string> items;
    for (const auto& dimension : sweep::find_worker(worker).dimensions) {
      if (spec.values(dimension.name).empty()) continue;
      std::vector<std::string> values;
      for (const auto& v : spec.values(dimension.name)) {
        values.push_back(value_text(dimension, v));
      }
      items.push_back(dimension.label + " " + join(values, dimension.separator));
    }
    std::vector<std::string> settings;
    if (const auto it = spec.settings.find(worker); it != spec.settings.end()) {
      for (const auto& [name, value] : it->second) settings.push_back(name + "=" + value);
    }
    items.push_back(settings.empty() ? std::string("the method's settings")
                                     : "settings " + join(settings, ", "));
    rows.emplace_back(worker, join(items, "; "));
  }
  if (!spec.environments.empty()) {
    std::vector<std::string> envs;
    for (const auto& env : spec.environments) {
      envs.push_back(env.name + ": workers in " + env.worker_dir + ", launcher " +
                     env.launcher.value_or(spec.launcher).describe() +
                     (env.lines.empty() ? std::string() : ", lines " + join(env.lines, "; ")));
    }
    rows.emplace_back("environments", join(envs, "; "));
  }
  return rows;
}

std::vector<std::pair<std::string, std::string>> provenance_rows(
    const Provenance& p, const std::string& report_version) {
  const auto none = [](const std::vector<std::string>& list, const std::string& separator,
                       std::size_t most = 0) {
    return list.empty() ? std::string("- (no stored result)") : join(list, separator, most);
  };
  auto rows = spec_rows(p.spec_json);
  rows.emplace_back(
      "scheduler",
      p.scheduler + (p.job_ids.empty() ? std::string(", no job submitted")
                                       : ", " + std::to_string(p.job_ids.size()) + " job" +
                                             (p.job_ids.size() == 1 ? "" : "s") + ": " +
                                             join(p.job_ids, ", ", 40)));
  // Hundreds of nodes as one compressed host list ("node[1-16]"), cut to a line when scattered.
  rows.emplace_back("hosts", p.hosts.empty() ? none(p.hosts, "")
                                             : compress_node_list(p.hosts, kHostsWidth) + " (" +
                                                   std::to_string(p.hosts.size()) +
                                                   (p.hosts.size() == 1 ? " host)" : " hosts)"));
  rows.emplace_back("MPI library", none(p.mpi_versions, "; "));
  std::vector<std::string> workers;
  for (const auto& v : p.worker_versions) workers.push_back(version_text(v));
  rows.emplace_back("pbench", "report by " + version_text(report_version) + "; results by " +
                                  none(workers, ", "));
  rows.emplace_back("dates",
                    "sweep created " + p.created_at +
                        (p.first_start.empty() ? std::string("; no stored result")
                                               : "; " + std::to_string(p.results) + " result" +
                                                     (p.results == 1 ? "" : "s") + " from " +
                                                     p.first_start + " to " + p.last_end));
  return rows;
}

}  // namespace pbench::report
