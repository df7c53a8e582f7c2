#include "sweepdir/Envelope.hpp"

#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "util/NodeList.hpp"

namespace pbench::run {
namespace fs = std::filesystem;

std::map<std::string, std::string> read_job_env(const std::string& job_dir) {
  std::map<std::string, std::string> env;
  std::ifstream in(fs::path(job_dir) / "job.env", std::ios::binary);
  for (std::string entry; std::getline(in, entry, '\0');) {
    const auto equals = entry.find('=');
    if (equals == std::string::npos || equals == 0) continue;
    env[entry.substr(0, equals)] = entry.substr(equals + 1);
  }
  return env;
}

std::vector<std::string> allocated_hosts(const std::string& job_dir) {
  if (job_dir.empty()) return {};
  const auto env = read_job_env(job_dir);
  const auto it = env.find("PBENCH_NODE_LIST");
  if (it == env.end() || it->second.empty()) return {};
  try {
    return expand_node_list(it->second);
  } catch (const std::invalid_argument&) {
    return {it->second};
  }
}

nlohmann::json make_envelope(const store::SweepRecord& sweep, const store::PointRecord& point,
                             const store::AttemptRecord& attempt) {
  auto env = read_job_env(attempt.job_dir);
  const auto take = [&](const std::string& name) -> nlohmann::json {
    auto it = env.find(name);
    if (it == env.end() || it->second.empty()) return nullptr;
    return it->second;
  };
  nlohmann::json j = {
      {"envelope_version", 1},
      {"sweep", sweep.name},
      {"point_key", point.key},
      {"attempt", attempt.attempt_no},
      {"run", attempt.run_no},
      {"scheduler", sweep.scheduler},
      {"job_id", attempt.job_id ? nlohmann::json(*attempt.job_id) : nlohmann::json(nullptr)},
      {"state", store::to_string(attempt.state)},
      {"native_state", attempt.native_state ? nlohmann::json(*attempt.native_state) : nullptr},
      {"exit_status", attempt.exit_status ? nlohmann::json(*attempt.exit_status) : nullptr},
      {"pbench_version", PBENCH_VERSION},
      {"script_path", point.script_path},
      {"host", take("PBENCH_HOST")},
      {"node_list", take("PBENCH_NODE_LIST")},
      {"script_sha256", take("PBENCH_SCRIPT_SHA256")},
      {"worker_binary", take("PBENCH_WORKER_BINARY")},
      {"worker_sha256", take("PBENCH_WORKER_SHA256")},
      {"mpi_version", take("PBENCH_MPI_VERSION")},
  };
  nlohmann::json environment = nlohmann::json::object();
  for (const auto& [name, value] : env) {
    if (name.rfind("SLURM_", 0) == 0 || name.rfind("PBS_", 0) == 0 ||
        name.rfind("PBENCH_", 0) == 0) {
      environment[name] = value;
    }
  }
  j["environment"] = environment;
  return j;
}

bool write_envelope(const store::SweepRecord& sweep, const store::PointRecord& point,
                    const store::AttemptRecord& attempt) {
  const fs::path path = fs::path(attempt.job_dir) / "envelope.json";
  const fs::path temporary = path.string() + ".tmp";
  {
    std::ofstream out(temporary, std::ios::trunc);
    out << make_envelope(sweep, point, attempt).dump(2) << "\n";
    if (!out) return false;
  }
  std::error_code ec;
  fs::rename(temporary, path, ec);
  return !ec;
}

}  // namespace pbench::run
