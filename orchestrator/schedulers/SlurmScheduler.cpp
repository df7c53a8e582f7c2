#include "schedulers/SlurmScheduler.hpp"

#include <string.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <unordered_map>
#include <unordered_set>

#include "jobs/ShellQuote.hpp"
#include "schedulers/BatchSupport.hpp"
#include "util/Error.hpp"
#include "util/NodeList.hpp"

namespace pbench::schedulers {
namespace fs = std::filesystem;
namespace {

// sbatch reads %-patterns in --output/--error; a literal % is %%.
std::string slurm_path(const std::string& path) {
  std::string out;
  for (char c : path) {
    if (c == '%') out += '%';
    out += c;
  }
  return out;
}

std::string base_id(const std::string& id) {
  return id.substr(0, id.find_first_of("_+"));
}

/// Half the kernel's limit on one argument (MAX_ARG_STRLEN, 128 KiB).
constexpr std::size_t kMaxIdListBytes = 64 * 1024;

/// "12" for an array element "12_3"; the id itself otherwise.
std::string array_of(const std::string& id) {
  const auto bar = id.find('_');
  if (bar == std::string::npos || bar + 1 == id.size()) return id;
  for (std::size_t i = bar + 1; i < id.size(); ++i) {
    if (id[i] < '0' || id[i] > '9') return id;
  }
  return id.substr(0, bar);
}

// Worst first: how a group of finished array elements or het components ended.
int end_rank(JobState s) {
  switch (s) {
    case JobState::failed:
      return 0;
    case JobState::timeout:
      return 1;
    case JobState::cancelled:
      return 2;
    default:
      return 3;
  }
}

/// The non-blank lines of `command`'s output (`|`-separated, trimmed), each split at its first
/// two `|`: the id (not empty), the state, and the rest; throws SchedulerError naming the
/// command and the `expected` fields on a line without two `|`.
std::vector<std::array<std::string, 3>> barred_lines(const std::string& out,
                                                     const std::string& command,
                                                     const std::string& expected) {
  std::vector<std::array<std::string, 3>> lines;
  std::istringstream in(out);
  for (std::string line; std::getline(in, line);) {
    line = trim(line);
    if (line.empty()) continue;
    const auto first = line.find('|');
    const auto second = first == std::string::npos ? first : line.find('|', first + 1);
    if (second == std::string::npos || first == 0) {
      throw SchedulerError("slurm: unexpected " + command + " line '" + line + "' (expected " +
                           expected + ")");
    }
    lines.push_back({line.substr(0, first), line.substr(first + 1, second - first - 1),
                     line.substr(second + 1)});
  }
  return lines;
}

}  // namespace

std::vector<SqueueLine> parse_squeue(const std::string& out) {
  std::vector<SqueueLine> lines;
  for (auto& [id, state, reason] : barred_lines(out, "squeue", "id|state|reason")) {
    lines.push_back({std::move(id), std::move(state), std::move(reason)});
  }
  return lines;
}

JobState slurm_state(const std::string& native) {
  static const std::map<std::string, JobState> states = {
      {"PENDING", JobState::queued},       {"PD", JobState::queued},
      {"CONFIGURING", JobState::queued},   {"CF", JobState::queued},
      {"REQUEUED", JobState::queued},      {"RQ", JobState::queued},
      {"REQUEUE_HOLD", JobState::queued},  {"RH", JobState::queued},
      {"REQUEUE_FED", JobState::queued},   {"RF", JobState::queued},
      {"RESV_DEL_HOLD", JobState::queued}, {"RD", JobState::queued},
      {"RUNNING", JobState::running},      {"R", JobState::running},
      {"COMPLETING", JobState::running},   {"CG", JobState::running},
      {"SIGNALING", JobState::running},    {"SI", JobState::running},
      {"STAGE_OUT", JobState::running},    {"SO", JobState::running},
      {"RESIZING", JobState::running},     {"RS", JobState::running},
      {"SUSPENDED", JobState::running},    {"S", JobState::running},
      {"STOPPED", JobState::running},      {"ST", JobState::running},
      {"COMPLETED", JobState::completed},  {"CD", JobState::completed},
      {"FAILED", JobState::failed},        {"F", JobState::failed},
      {"NODE_FAIL", JobState::failed},     {"NF", JobState::failed},
      {"BOOT_FAIL", JobState::failed},     {"BF", JobState::failed},
      {"OUT_OF_MEMORY", JobState::failed}, {"OOM", JobState::failed},
      {"PREEMPTED", JobState::failed},     {"PR", JobState::failed},
      {"SPECIAL_EXIT", JobState::failed},  {"SE", JobState::failed},
      {"CANCELLED", JobState::cancelled},  {"CA", JobState::cancelled},
      {"REVOKED", JobState::cancelled},    {"RV", JobState::cancelled},
      {"TIMEOUT", JobState::timeout},      {"TO", JobState::timeout},
      {"DEADLINE", JobState::timeout},     {"DL", JobState::timeout},
  };
  // "CANCELLED by 1000" (scontrol, sacct) names who cancelled.
  const std::string word = native.substr(0, native.find(' '));
  auto it = states.find(word);
  // A state this table does not know yet is still in the queue's hands: wait and see.
  return it == states.end() ? JobState::queued : it->second;
}

std::string parse_sbatch_id(const std::string& out) {
  const std::string line = trim(out.substr(0, out.find(';')));
  const bool numeric = !line.empty() && std::all_of(line.begin(), line.end(),
                                                    [](char c) { return c >= '0' && c <= '9'; });
  if (!numeric) throw SchedulerError("slurm: unexpected sbatch output '" + trim(out) + "'");
  return line;
}

namespace {

/// Job `id` in the state Slurm names `native` (squeue's or sacct's word).
JobStatus slurm_job_status(const std::string& id, const std::string& native) {
  JobStatus s;
  s.job_id = id;
  s.state = slurm_state(native);
  s.native_state = native;
  return s;
}

}  // namespace

std::optional<JobStatus> slurm_status(const std::string& id, const std::vector<SqueueLine>& lines) {
  for (const auto& l : lines) {
    if (l.id != id) continue;
    JobStatus s = slurm_job_status(id, l.state);
    if (!l.reason.empty() && l.reason != "None") s.native_state += " (" + l.reason + ")";
    return s;
  }
  std::vector<const SqueueLine*> parts;
  for (const auto& l : lines) {
    if (base_id(l.id) == id) parts.push_back(&l);
  }
  if (parts.empty()) return std::nullopt;
  JobStatus s;
  s.job_id = id;
  bool any_running = false;
  bool any_queued = false;
  JobState end = JobState::completed;
  std::map<std::string, int> counts;
  for (const auto* p : parts) {
    const JobState state = slurm_state(p->state);
    ++counts[p->state];
    any_running = any_running || state == JobState::running;
    any_queued = any_queued || state == JobState::queued;
    if (state != JobState::running && state != JobState::queued &&
        end_rank(state) < end_rank(end)) {
      end = state;
    }
  }
  s.state = any_running ? JobState::running : any_queued ? JobState::queued : end;
  for (const auto& [state, n] : counts) {
    s.native_state += (s.native_state.empty() ? "" : ", ") + state + " x" + std::to_string(n);
  }
  return s;
}

std::vector<SacctLine> parse_sacct(const std::string& out) {
  std::vector<SacctLine> lines;
  for (auto& [id, state, rest] : barred_lines(out, "sacct", "id|state|exit")) {
    lines.push_back({std::move(id), std::move(state), rest.substr(0, rest.find('|'))});
  }
  return lines;
}

std::optional<JobStatus> sacct_status(const std::string& id, const std::vector<SacctLine>& lines) {
  for (const auto& l : lines) {
    if (l.id != id) continue;
    JobStatus s = slurm_job_status(id, l.state);
    s.native_state += " (sacct)";
    const auto colon = l.exit_code.find(':');
    try {
      if (colon != std::string::npos) {
        const int status = std::stoi(l.exit_code.substr(0, colon));
        const int signal = std::stoi(l.exit_code.substr(colon + 1));
        s.exit_status = signal > 0 ? 128 + signal : status;
        if (signal > 0) {
          const char* name = ::sigabbrev_np(signal);
          s.signal = name ? name : std::to_string(signal);
        }
      }
    } catch (const std::exception&) {
      throw SchedulerError("slurm: unexpected sacct exit code '" + l.exit_code + "'");
    }
    return s;
  }
  return std::nullopt;
}

std::vector<std::string> job_id_lists(const std::vector<JobRef>& jobs, std::size_t max_bytes,
                                      bool whole_arrays) {
  std::vector<std::string> lists;
  std::unordered_set<std::string> seen;
  std::string list;
  for (const auto& job : jobs) {
    const std::string id = whole_arrays ? array_of(job.job_id) : job.job_id;
    if (!seen.insert(id).second) continue;
    if (!list.empty() && list.size() + 1 + id.size() > max_bytes) {
      lists.push_back(std::move(list));
      list.clear();
    }
    list += (list.empty() ? "" : ",") + id;
  }
  if (!list.empty()) lists.push_back(std::move(list));
  return lists;
}

std::vector<SacctLine> SlurmScheduler::ask_accounting(const std::vector<JobRef>& gone) {
  if (gone.empty() || !accounting_ || !process::command_exists("sacct")) return {};
  std::vector<SacctLine> lines;
  for (const auto& ids : job_id_lists(gone, kMaxIdListBytes, false)) {
    const auto result = runner_.run(
        {"sacct", "-n", "-P", "-X", "-j", ids, "-o", "JobID,State,ExitCode"}, kCommandTimeout);
    if (result.exit_code != 0) {
      // "Slurm accounting storage is disabled": never ask again; other failures: the exit
      // markers decide this time.
      if ((result.out + result.err).find("accounting storage is disabled") != std::string::npos) {
        accounting_ = false;
      }
      return {};
    }
    auto more = parse_sacct(result.out);
    lines.insert(lines.end(), more.begin(), more.end());
  }
  return lines;
}

std::vector<std::string> SlurmScheduler::directives(const JobResources& r) const {
  std::vector<std::string> lines = {"#SBATCH --job-name=" + jobs::shell_quote(r.job_name)};
  // Without a node count Slurm places the tasks where it has room (--nodes=1 was refused on
  // nodes with fewer cores, and measured shared memory on bigger ones without saying so).
  if (r.nodes > 0) lines.push_back("#SBATCH --nodes=" + std::to_string(r.nodes));
  lines.push_back("#SBATCH --ntasks=" + std::to_string(r.ntasks));
  if (r.procs_per_node > 0) {
    lines.push_back("#SBATCH --ntasks-per-node=" + std::to_string(r.procs_per_node));
  }
  if (r.exclusive) lines.push_back("#SBATCH --exclusive");
  add_limit_directives(lines, r, {"#SBATCH ", "--time=", "--account=", "--partition="});
  return lines;
}

std::string SlurmScheduler::submit(const JobSubmission& job) {
  require_command("slurm", "sbatch");
  const auto result = runner_.run(
      {"sbatch", "--parsable", "--chdir=" + job.job_dir, "--output=" + slurm_path(job.stdout_path),
       "--error=" + slurm_path(job.stderr_path), job.script_path},
      kCommandTimeout);
  if (result.exit_code != 0) {
    // No connection, so nothing was submitted: the controller is away, not refusing the job.
    if (result.err.find("Unable to contact slurm controller") != std::string::npos) {
      throw SchedulerUnavailable("slurm: sbatch could not reach slurmctld: " +
                                 command_message(result));
    }
    throw SchedulerError("sbatch refused " + job.script_path + ": " + command_message(result));
  }
  return parse_sbatch_id(result.out);
}

std::vector<std::string> SlurmScheduler::submit_array(const std::vector<JobSubmission>& jobs,
                                                      int throttle, const std::string& array_dir) {
  if (jobs.empty()) return {};
  require_command("slurm", "sbatch");
  fs::create_directories(array_dir);
  // The directives of the first script (every job has the same shape), then one case per job.
  std::ifstream first(jobs.front().script_path);
  if (!first) throw SchedulerError("slurm: cannot read " + jobs.front().script_path);
  std::string script = "#!/usr/bin/env bash\n";
  for (std::string line; std::getline(first, line);) {
    if (line.rfind("#SBATCH ", 0) == 0) script += line + "\n";
  }
  script += "# pbench job array: element i runs job i's script in its attempt directory.\n";
  script += "case \"$SLURM_ARRAY_TASK_ID\" in\n";
  for (std::size_t i = 0; i < jobs.size(); ++i) {
    const auto& j = jobs[i];
    script += "  " + std::to_string(i) + ") cd " + jobs::shell_quote(j.job_dir) + " && exec bash " +
              jobs::shell_quote(j.script_path) + " >>" + jobs::shell_quote(j.stdout_path) + " 2>>" +
              jobs::shell_quote(j.stderr_path) + " ;;\n";
  }
  script += "esac\necho \"pbench: no job for array element $SLURM_ARRAY_TASK_ID\" >&2\nexit 2\n";
  const fs::path base =
      fs::path(array_dir) /
      ("array-" + fs::path(jobs.front().job_dir).parent_path().filename().string() + "-" +
       fs::path(jobs.front().job_dir).filename().string());
  const std::string script_path = base.string() + ".sh";
  {
    std::ofstream out(script_path, std::ios::trunc);
    out << script;
    if (!out) throw SchedulerError("slurm: cannot write " + script_path);
  }
  std::string range = "0-" + std::to_string(jobs.size() - 1);
  if (throttle > 0) range += "%" + std::to_string(throttle);
  const auto result =
      runner_.run({"sbatch", "--parsable", "--array=" + range, "--chdir=" + array_dir,
                   "--output=" + slurm_path(base.string()) + "-%A_%a.log", script_path},
                  kCommandTimeout);
  if (result.exit_code != 0) {
    throw SchedulerError("sbatch refused the job array " + script_path + ": " +
                         command_message(result));
  }
  const std::string id = parse_sbatch_id(result.out);
  std::vector<std::string> ids;
  for (std::size_t i = 0; i < jobs.size(); ++i) ids.push_back(id + "_" + std::to_string(i));
  return ids;
}

std::vector<JobStatus> SlurmScheduler::poll(const std::vector<JobRef>& jobs) {
  if (jobs.empty()) return {};
  require_command("slurm", "squeue");
  std::vector<SqueueLine> lines;
  for (const auto& ids : job_id_lists(jobs, kMaxIdListBytes, true)) {
    const auto result = runner_.run(
        {"squeue", "-h", "-r", "-t", "all", "-j", ids, "-o", "%i|%T|%r"}, kCommandTimeout);
    if (result.exit_code == 0) {
      auto more = parse_squeue(result.out);
      lines.insert(lines.end(), more.begin(), more.end());
    } else if (result.err.find("Invalid job id") == std::string::npos) {
      // slurmctld down, busy or restarting: the driver asks again within its outage budget.
      throw SchedulerUnavailable("slurm: squeue failed: " + command_message(result));
    }
    // Otherwise every job of this list is gone: squeue says "Invalid job id specified" only
    // when it knows none of them.
  }
  // Each job's lines (its own, or its array's elements "12_3" and het components "12+1") by
  // its id: slurm_status reads those alone, so a poll of N jobs is O(N), not N x N lines.
  std::unordered_map<std::string, std::vector<SqueueLine>> lines_of;
  for (const auto& l : lines) {
    lines_of[l.id].push_back(l);
    if (const auto base = base_id(l.id); base != l.id) lines_of[base].push_back(l);
  }
  const std::vector<SqueueLine> none;
  std::vector<JobStatus> out;
  std::vector<JobRef> gone;
  for (const auto& job : jobs) {
    const auto found = lines_of.find(job.job_id);
    if (auto status = slurm_status(job.job_id, found == lines_of.end() ? none : found->second)) {
      const bool ended = status->state != JobState::queued && status->state != JobState::running;
      if (ended) add_exit_marker(*status, job.job_dir);
      out.push_back(*status);
    } else {
      gone.push_back(job);
    }
  }
  // Past MinJobAge only accounting remembers a job: ask it once for all of them; without it
  // the exit marker decides.
  std::unordered_map<std::string, std::vector<SacctLine>> accounted;
  for (const auto& l : ask_accounting(gone)) accounted[l.id].push_back(l);
  const std::vector<SacctLine> unaccounted;
  for (const auto& job : gone) {
    const auto found = accounted.find(job.job_id);
    if (auto status =
            sacct_status(job.job_id, found == accounted.end() ? unaccounted : found->second)) {
      const auto exit_status = status->exit_status;
      add_exit_marker(*status, job.job_dir);
      if (!status->exit_status) status->exit_status = exit_status;
      out.push_back(*status);
    } else {
      out.push_back(status_of_gone_job(job, "squeue"));
    }
  }
  return out;
}

std::map<std::string, std::string> parse_unavailable_nodes(const std::string& out) {
  std::map<std::string, std::string> nodes;
  std::istringstream in(out);
  for (std::string line; std::getline(in, line);) {
    line = trim(line);
    const auto bar = line.find('|');
    if (bar == std::string::npos) continue;
    const auto second = line.find('|', bar + 1);
    const std::string node = line.substr(0, bar);
    const std::string state =
        line.substr(bar + 1, second == std::string::npos ? std::string::npos : second - bar - 1);
    const std::string reason = second == std::string::npos ? "" : trim(line.substr(second + 1));
    const bool unusable = state.rfind("down", 0) == 0 || state.rfind("drain", 0) == 0 ||
                          state.rfind("fail", 0) == 0 || (!state.empty() && state.back() == '*');
    if (node.empty() || !unusable) continue;
    nodes[node] = state + (reason.empty() || reason == "none" ? "" : ": " + reason);
  }
  return nodes;
}

std::map<std::string, std::string> SlurmScheduler::unavailable_nodes(
    const std::vector<std::string>& hosts) {
  if (hosts.empty() || !process::command_exists("sinfo")) return {};
  const auto result = runner_.run(
      {"sinfo", "-h", "-N", "-n", compress_node_list(hosts), "-o", "%N|%T|%E"}, kCommandTimeout);
  if (result.exit_code != 0) return {};
  return parse_unavailable_nodes(result.out);
}

std::optional<int> SlurmScheduler::user_jobs_in_queue() {
  require_command("slurm", "squeue");
  // Without -t, squeue lists the jobs that are not finished: pending, running, suspended, ...
  const auto result = runner_.run({"squeue", "-h", "-u", user_name(), "-o", "%i"}, kCommandTimeout);
  if (result.exit_code != 0) return std::nullopt;
  int count = 0;
  std::istringstream in(result.out);
  for (std::string line; std::getline(in, line);) count += trim(line).empty() ? 0 : 1;
  return count;
}

void SlurmScheduler::cancel(const std::vector<JobRef>& jobs) {
  if (jobs.empty()) return;
  require_command("slurm", "scancel");
  std::vector<std::string> argv{"scancel"};
  for (const auto& j : jobs) argv.push_back(j.job_id);
  const auto result = runner_.run(argv, kCommandTimeout);
  // Jobs that ended meanwhile are not an error.
  if (result.exit_code != 0 && result.err.find("Invalid job id") == std::string::npos &&
      result.err.find("already completing or completed") == std::string::npos) {
    throw SchedulerError("scancel failed: " + command_message(result));
  }
}

}  // namespace pbench::schedulers
