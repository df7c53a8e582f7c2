#include "schedulers/BatchSupport.hpp"

#include <pwd.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

#include "jobs/ShellQuote.hpp"
#include "util/Error.hpp"

namespace pbench::schedulers {

void require_command(const std::string& scheduler, const std::string& command) {
  if (process::command_exists(command)) return;
  throw SchedulerError(scheduler + ": command '" + command +
                       "' not found on PATH; on a machine without " + scheduler +
                       ", start the local lab with 'eval \"$(tests/slurm-lab/up)\"'");
}

std::string user_name() {
  if (const passwd* pw = ::getpwuid(::geteuid()); pw && pw->pw_name) return pw->pw_name;
  const char* user = std::getenv("USER");
  return user ? user : std::to_string(::geteuid());
}

std::string format_hms(int seconds) {
  char text[32];
  std::snprintf(text, sizeof text, "%02d:%02d:%02d", seconds / 3600, seconds / 60 % 60,
                seconds % 60);
  return text;
}

std::string trim(const std::string& text) {
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string::npos) return "";
  const auto last = text.find_last_not_of(" \t\r\n");
  return text.substr(first, last - first + 1);
}

std::string command_message(const process::ProcessResult& result) {
  std::string message = trim(result.err.empty() ? result.out : result.err);
  if (message.empty()) message = "exit status " + std::to_string(result.exit_code);
  for (char& c : message) {
    if (c == '\n' || c == '\r') c = ' ';
  }
  return message;
}

void add_exit_marker(JobStatus& status, const std::string& job_dir) {
  const auto marker = read_exit_marker(job_dir, status.job_id);
  if (!marker) return;
  status.exit_status = marker->exit_status;
  status.signal = marker->signal;
  status.started_at = marker->started_at;
  status.ended_at = marker->ended_at;
}

JobStatus status_of_gone_job(const JobRef& job, const std::string& scheduler) {
  if (auto marker = read_exit_marker(job.job_dir, job.job_id)) {
    marker->native_state = "gone from " + scheduler + ", " + marker->native_state;
    return *marker;
  }
  if (auto unreadable = unreadable_exit_marker(job.job_dir, job.job_id)) {
    unreadable->native_state = "gone from " + scheduler + ", " + unreadable->native_state;
    return *unreadable;
  }
  JobStatus s;
  s.job_id = job.job_id;
  s.state = JobState::failed;
  s.native_state = "gone from " + scheduler + " without an exit marker";
  return s;
}

void add_limit_directives(std::vector<std::string>& lines, const JobResources& r,
                          const DirectiveSpelling& spelling) {
  const std::string& p = spelling.prefix;
  if (r.time_limit_seconds > 0)
    lines.push_back(p + spelling.time + format_hms(r.time_limit_seconds));
  if (!r.account.empty()) lines.push_back(p + spelling.account + jobs::shell_quote(r.account));
  if (!r.queue.empty()) lines.push_back(p + spelling.queue + jobs::shell_quote(r.queue));
  for (const auto& extra : r.extra) lines.push_back(p + extra);
}

}  // namespace pbench::schedulers
