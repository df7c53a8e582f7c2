#include "sweepdir/SweepRuns.hpp"

#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "sweepdir/DriverLock.hpp"
#include "sweepdir/Envelope.hpp"
#include "sweepdir/SweepRecordFile.hpp"
#include "util/Error.hpp"
#include "util/Time.hpp"

namespace pbench::run {

std::string run_envelope_json() {
  // PBENCH_VERSION is "<project version>+<git describe>".
  const std::string version = PBENCH_VERSION;
  const auto plus = version.find('+');
  const std::string describe = plus == std::string::npos ? "" : version.substr(plus + 1);
  return nlohmann::json{{"pbench_version", version}, {"git_describe", describe}}.dump();
}

store::RunRecord start_next_run(store::Store& store, const store::SweepRecord& sweep) {
  DriverLock probe(sweep.directory);
  if (!probe.owns_lock()) {
    throw UsageError("sweep '" + sweep.name + "' is being driven; --again starts its next run " +
                     "once this one has ended (pbench wait " + sweep.name + ")");
  }
  int active = 0;
  for (const auto& p : store.points(sweep.id)) {
    active += p.state == store::PointState::queued || p.state == store::PointState::running;
  }
  if (active > 0) {
    throw UsageError("sweep '" + sweep.name + "' has " + std::to_string(active) +
                     " points queued or running; --again starts its next run once they have "
                     "ended (pbench wait " +
                     sweep.name + ")");
  }
  // The run on disk first (the sweep's record, which `pbench store rebuild` reads), then in the
  // store, with the same start and envelope.
  auto runs = store.runs(sweep.id);
  const std::string started_at = utc_now();
  const std::string envelope = run_envelope_json();
  runs.push_back({0, sweep.id, runs.empty() ? 1 : runs.back().run_no + 1, started_at, envelope});
  write_sweep_record(sweep, runs);
  return store.start_run(sweep.id, started_at, envelope);
}

void record_run_envelope(store::Store& store, const store::SweepRecord& sweep) {
  const auto runs = store.runs(sweep.id);
  if (runs.empty()) return;
  const auto& run = runs.back();
  std::set<std::string> hosts, mpi_versions;
  for (const auto& point : store.points(sweep.id)) {
    for (const auto& attempt : store.attempts(point.id)) {
      if (attempt.run_no != run.run_no || attempt.job_dir.empty()) continue;
      const auto env = read_job_env(attempt.job_dir);
      const auto take = [&](const char* name, std::set<std::string>& into) {
        if (auto it = env.find(name); it != env.end() && !it->second.empty()) {
          into.insert(it->second);
          return true;
        }
        return false;
      };
      if (!take("PBENCH_NODE_LIST", hosts)) take("PBENCH_HOST", hosts);
      take("PBENCH_MPI_VERSION", mpi_versions);
    }
  }
  // What the workers themselves recorded in their result documents (every scheduler,
  // the local one too, which writes no job.env).
  auto s = store.db().prepare(
      "SELECT r.head FROM results r JOIN points p ON p.id = r.point_id "
      "WHERE p.sweep_id = ?1 AND r.run_no = ?2");
  s.bind(1, sweep.id).bind(2, run.run_no);
  while (s.step()) {
    const auto document = nlohmann::json::parse(s.text(0), nullptr, false);
    if (!document.is_object()) continue;
    if (document.contains("hosts") && document["hosts"].is_array()) {
      for (const auto& h : document["hosts"]) {
        if (h.is_string()) hosts.insert(h.get<std::string>());
      }
    }
    if (document.contains("mpi_library_version") && document["mpi_library_version"].is_string()) {
      // The first line names the library and its version.
      const auto text = document["mpi_library_version"].get<std::string>();
      mpi_versions.insert(text.substr(0, text.find('\n')));
    }
  }
  auto envelope = nlohmann::json::parse(run.envelope_json, nullptr, false);
  if (!envelope.is_object()) envelope = nlohmann::json::object();
  envelope["hosts"] = hosts;
  envelope["mpi_versions"] = mpi_versions;
  const std::string updated =
      envelope.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace);
  if (updated != run.envelope_json) store.set_run_envelope(run.id, updated);
}

}  // namespace pbench::run
