#include "common/ResultDocument.hpp"

#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fstream>
#include <iostream>
#include <stdexcept>

#include "common/MetricCatalogue.hpp"
#include "common/MpiLibrary.hpp"
#include "common/MpiSession.hpp"
#include "common/NodeLayout.hpp"
#include "common/UtcClock.hpp"

namespace pbench::worker {

void Table::add_row(std::vector<nlohmann::json> row) {
  if (row.size() != columns_.size()) {
    throw std::logic_error("table row has " + std::to_string(row.size()) + " values for " +
                           std::to_string(columns_.size()) + " columns");
  }
  rows_.push_back(std::move(row));
}

nlohmann::json Table::to_json() const {
  nlohmann::json columns = nlohmann::json::array();
  for (const auto& c : columns_) columns.push_back({{"name", c.name}, {"unit", c.unit}});
  nlohmann::json rows = nlohmann::json::array();
  for (const auto& row : rows_) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& v : row) {
      // JSON has no NaN or infinity: a value that could not be computed is null.
      out.push_back(v.is_number_float() && !std::isfinite(v.get<double>()) ? nlohmann::json() : v);
    }
    rows.push_back(std::move(out));
  }
  return {{"columns", columns}, {"rows", rows}};
}

ResultDocument::ResultDocument(std::string worker)
    : worker_(std::move(worker)), started_at_(utc_now()) {}

Table& ResultDocument::add_table(const std::string& name, std::vector<Column> columns) {
  for (auto& [existing, table] : tables_) {
    if (existing == name) return table = Table(std::move(columns));
  }
  tables_.emplace_back(name, Table(std::move(columns)));
  return tables_.back().second;
}

void ResultDocument::add_metric(const std::string& name, std::optional<double> value,
                                const std::string& unit, std::size_t samples,
                                nlohmann::json labels) {
  // The metric catalogue is the one list of what a worker writes: a metric it does not hold
  // (or in another unit) would be refused on ingest, so it is a programming error here.
  const auto* spec = metrics::find_metric(worker_, name);
  if (spec == nullptr || spec->unit != unit) {
    throw std::logic_error("pbench-" + worker_ + ": metric '" + name + "' [" + unit + "] is not " +
                           "in the metric catalogue (workers/common/MetricCatalogue.cpp)");
  }
  nlohmann::json v;  // null unless a finite value exists
  if (value && std::isfinite(*value)) v = *value;
  summary_.push_back(
      {{"name", name}, {"value", v}, {"unit", unit}, {"labels", labels}, {"samples", samples}});
}

void ResultDocument::set_environment(const MpiSession& session) {
  const NodeLayout layout(session.rank_hosts());
  rank_hosts_ = layout.rank_hosts();
  hosts_ = layout.hosts();
  procs_per_node_ = session.procs_per_node();
  nprocs_ = session.size();
  // Ranks that wait for a core time the scheduler, not the method: the run's first reason.
  node_cores_ = session.node_cores(rank_hosts_);
  if (auto reason = oversubscription_reason(node_cores_)) invalidate(std::move(*reason));
  mpi_version_ = MpiSession::library_version();
  mpi_ = running_mpi_library().to_json();
}

void ResultDocument::finish() {
  ended_at_ = utc_now();
}

nlohmann::json ResultDocument::validity() const {
  nlohmann::json out = {{"valid", reasons_.empty()}, {"reasons", reasons_}};
  if (partial_) out["partial"] = *partial_;
  return out;
}

void ResultDocument::mark_partial(const std::string& reason, const std::string& deadline) {
  if (std::find(reasons_.begin(), reasons_.end(), reason) == reasons_.end()) invalidate(reason);
  partial_ = nlohmann::json{{"reason", reason}, {"deadline", deadline}};
}

nlohmann::json ResultDocument::to_json() const {
  nlohmann::json measurements = nlohmann::json::object();
  for (const auto& [name, table] : tables_) measurements[name] = table.to_json();
  std::vector<std::string> hosts = hosts_;
  if (hosts.empty()) {
    char name[256] = {};
    gethostname(name, sizeof(name) - 1);
    hosts.emplace_back(name);
  }
  nlohmann::json document = {{"schema_version", kResultSchemaVersion},
                             {"worker", worker_},
                             {"worker_version", build_version()},
                             {"started_at", started_at_},
                             {"ended_at", ended_at_.empty() ? utc_now() : ended_at_},
                             {"hosts", hosts},
                             {"mpi_library_version", mpi_version_},
                             {"nprocs", nprocs_},
                             {"procs_per_node", procs_per_node_},
                             {"parameters", parameters_},
                             {"seeds", seeds_},
                             {"measurements", measurements},
                             {"summary", summary_},
                             {"validity", validity()},
                             {"warnings", warnings_}};
  if (arguments_) document["arguments"] = *arguments_;
  // Which sweep, point and attempt of a pbench job this is; absent outside a job.
  if (!origin_.is_null()) document["origin"] = origin_;
  // Host of rank i at index i; absent only when no MPI session recorded it.
  if (!rank_hosts_.empty()) document["rank_hosts"] = rank_hosts_;
  // The MPI library by name, its MPI-IO layer and the launch; absent only without a session.
  if (!mpi_.is_null()) document["mpi"] = mpi_;
  // What the run sent, called and looped, summed over ranks; absent only without a session.
  if (!cost_.is_null()) document["cost"] = cost_;
  // Every node's ranks and the cores they may use; absent only without a session.
  if (!node_cores_.empty()) {
    nlohmann::json nodes = nlohmann::json::array();
    for (const auto& node : node_cores_) {
      nlohmann::json entry = {{"host", node.host}, {"ranks", node.ranks}, {"cores", node.cores}};
      if (!node.machine.empty()) entry["machine"] = node.machine;
      if (node.machine_cpus > 0) entry["machine_cpus"] = node.machine_cpus;
      nodes.push_back(std::move(entry));
    }
    document["node_cores"] = std::move(nodes);
  }
  return document;
}

void ResultDocument::write(const std::string& path) const {
  const std::string text = to_json().dump(1) + "\n";
  if (path == "-" || path.empty()) {
    std::cout << text << std::flush;
    return;
  }
  const std::string temporary = path + ".tmp." + std::to_string(getpid());
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out << text;
    out.flush();
    if (!out) {
      const int error = errno;
      std::remove(temporary.c_str());
      throw std::runtime_error("cannot write result '" + path + "': " + std::strerror(error));
    }
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    const int error = errno;
    std::remove(temporary.c_str());
    throw std::runtime_error("cannot write result '" + path + "': " + std::strerror(error));
  }
}

nlohmann::json job_origin() {
  const char* sweep = std::getenv("PBENCH_SWEEP");
  if (sweep == nullptr) return nullptr;
  nlohmann::json origin = {{"sweep", sweep}};
  for (const auto& [key, variable] :
       {std::pair{"point", "PBENCH_POINT"}, std::pair{"attempt", "PBENCH_ATTEMPT"},
        std::pair{"nonce", "PBENCH_NONCE"}}) {
    if (const char* value = std::getenv(variable)) origin[key] = value;
  }
  return origin;
}

std::string build_version() {
  return PBENCH_VERSION;
}

}  // namespace pbench::worker
