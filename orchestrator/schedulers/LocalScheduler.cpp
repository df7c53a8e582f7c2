#include "schedulers/LocalScheduler.hpp"

#include <signal.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "util/Error.hpp"
#include "util/WritableDirectory.hpp"

namespace pbench::schedulers {
namespace fs = std::filesystem;

bool process_alive(long pid) {
  if (pid <= 0 || ::kill(static_cast<pid_t>(pid), 0) != 0) return false;
  std::ifstream stat("/proc/" + std::to_string(pid) + "/stat");
  std::string line;
  std::getline(stat, line);
  const auto close = line.rfind(')');
  if (close == std::string::npos || close + 2 >= line.size()) return true;
  return line[close + 2] != 'Z';
}

std::optional<JobStatus> read_exit_marker(const std::string& job_dir, const std::string& job_id) {
  std::ifstream in(fs::path(job_dir) / "exit.json");
  if (!in) return std::nullopt;
  nlohmann::json marker = nlohmann::json::parse(in, nullptr, false);
  if (marker.is_discarded() || !marker.contains("status")) return std::nullopt;
  JobStatus s;
  s.job_id = job_id;
  s.exit_status = marker["status"].get<int>();
  const std::string signal = marker.value("signal", "");
  if (!signal.empty()) s.signal = signal;
  s.started_at = marker.value("started_at", "");
  s.ended_at = marker.value("ended_at", "");
  // The job script says "time_limit" when a TERM came once its time limit had passed (the
  // batch system's kill), where the scheduler itself cannot tell a timeout from a cancel.
  // A TERM or INT that the script itself received is a cancel; one that ended only its command
  // ("signal_source": "command", e.g. the exit status of a launcher that lost a rank) is a
  // failure. Markers without the field come from older templates, whose signals were their own.
  const bool own_signal = marker.value("signal_source", "job") != "command";
  if (marker.value("reason", "") == "time_limit") {
    s.state = JobState::timeout;
  } else if (own_signal && (signal == "TERM" || signal == "INT")) {
    s.state = JobState::cancelled;
  } else {
    s.state = *s.exit_status == 0 ? JobState::completed : JobState::failed;
  }
  s.native_state =
      "exited " + std::to_string(*s.exit_status) + (signal.empty() ? "" : " " + signal);
  return s;
}

std::optional<JobStatus> unreadable_exit_marker(const std::string& job_dir,
                                                const std::string& job_id) {
  std::error_code ec;
  const bool written = fs::exists(fs::path(job_dir) / "exit.json", ec) ||
                       fs::exists(fs::path(job_dir) / "exit.json.tmp", ec);
  if (!written || read_exit_marker(job_dir, job_id)) return std::nullopt;
  JobStatus s;
  s.job_id = job_id;
  s.state = JobState::failed;
  s.native_state = "exit marker unreadable (disk full?)";
  return s;
}

std::string LocalScheduler::submit(const JobSubmission& job) {
  const fs::path pid_file = fs::path(job.job_dir) / "job.pid";
  fs::remove(pid_file);
  const int rc = runner_.run_redirected({"setsid", "-f", "bash", job.script_path}, job.job_dir,
                                        job.stdout_path, job.stderr_path);
  if (rc != 0) {
    throw SchedulerError("local: could not start " + job.script_path + " (setsid exit " +
                         std::to_string(rc) + ")");
  }
  // The script writes its pid first thing; wait for it briefly.
  for (int i = 0; i < 1000; ++i) {
    std::ifstream in(pid_file);
    long pid = 0;
    if (in >> pid && pid > 0) return std::to_string(pid);
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  // A directory that filled up (or turned read-only) since the attempt began says so here.
  require_writable_directory(job.job_dir);
  throw SchedulerError("local: " + job.script_path + " did not start within 10 s (no job.pid)");
}

std::vector<JobStatus> LocalScheduler::poll(const std::vector<JobRef>& jobs) {
  std::vector<JobStatus> out;
  for (const auto& job : jobs) {
    if (auto ended = read_exit_marker(job.job_dir, job.job_id)) {
      out.push_back(*ended);
      continue;
    }
    if (process_alive(std::stol(job.job_id))) {
      out.push_back({job.job_id, JobState::running, "running", {}, {}, {}, {}});
      continue;
    }
    // It may have written its marker between the two checks.
    if (auto ended = read_exit_marker(job.job_dir, job.job_id)) {
      out.push_back(*ended);
      continue;
    }
    if (auto unreadable = unreadable_exit_marker(job.job_dir, job.job_id)) {
      out.push_back(*unreadable);
      continue;
    }
    out.push_back(
        {job.job_id, JobState::failed, "vanished without an exit marker", {}, "KILL", {}, {}});
  }
  return out;
}

void LocalScheduler::cancel(const std::vector<JobRef>& jobs) {
  for (const auto& job : jobs) {
    const long pid = std::stol(job.job_id);
    // setsid made the script a session and process group leader: signal the whole group.
    if (process_alive(pid)) ::kill(-static_cast<pid_t>(pid), SIGTERM);
  }
}

}  // namespace pbench::schedulers
