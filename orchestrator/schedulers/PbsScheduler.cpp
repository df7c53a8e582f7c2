#include "schedulers/PbsScheduler.hpp"

#include <chrono>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "jobs/ShellQuote.hpp"
#include "schedulers/BatchSupport.hpp"
#include "util/Error.hpp"
#include "util/Time.hpp"

namespace pbench::schedulers {
namespace fs = std::filesystem;
namespace {

// qstat's status when it found none of the jobs asked for.
constexpr int kQstatUnknownJob = 153;

std::string numeric_prefix(const std::string& id) {
  std::size_t n = 0;
  while (n < id.size() && id[n] >= '0' && id[n] <= '9') ++n;
  return id.substr(0, n);
}

bool finished(const std::string& letter) {
  return letter == "C" || letter == "F" || letter == "X";
}

}  // namespace

std::vector<QstatLine> parse_qstat(const std::string& out) {
  std::vector<QstatLine> rows;
  std::istringstream in(out);
  bool in_table = false;
  for (std::string line; std::getline(in, line);) {
    const std::string text = trim(line);
    if (text.empty()) continue;
    if (!in_table) {
      in_table = text.rfind("---", 0) == 0;
      continue;
    }
    std::istringstream words(text);
    std::vector<std::string> w;
    for (std::string word; words >> word;) w.push_back(word);
    // Job id, name, user, time use, S, queue: the name may hold spaces, so count from the end.
    if (w.size() < 6 || w[w.size() - 2].size() != 1) {
      throw SchedulerError("pbs: unexpected qstat row '" + text + "'");
    }
    rows.push_back({w.front(), w[w.size() - 2]});
  }
  return rows;
}

JobState pbs_state(const std::string& letter) {
  if (letter == "R" || letter == "E" || letter == "S" || letter == "B" || letter == "U") {
    return JobState::running;
  }
  if (finished(letter)) return JobState::completed;
  return JobState::queued;  // Q, H, W, T, M
}

std::string parse_qsub_id(const std::string& out) {
  std::istringstream in(out);
  std::string last;
  for (std::string line; std::getline(in, line);) {
    if (!trim(line).empty()) last = trim(line);
  }
  static const std::regex id_pattern(R"(^[0-9]+(\[[0-9]*\])?(\.[A-Za-z0-9._-]+)?$)");
  if (!std::regex_match(last, id_pattern)) {
    throw SchedulerError("pbs: unexpected qsub output '" + trim(out) + "'");
  }
  return last;
}

std::optional<QstatLine> find_qstat_row(const std::string& id, const std::vector<QstatLine>& rows) {
  for (const auto& r : rows) {
    if (r.id == id) return r;
  }
  const std::string number = numeric_prefix(id);
  if (number.empty()) return std::nullopt;
  for (const auto& r : rows) {
    // qstat may print "12.server" for "12", or "12.serv*" (truncated) for "12.server".
    if (numeric_prefix(r.id) == number &&
        (r.id.size() == number.size() || r.id[number.size()] == '.')) {
      return r;
    }
  }
  return std::nullopt;
}

std::vector<std::string> pbs_dialects() {
  return {"torque", "pbspro"};
}

std::vector<std::string> PbsScheduler::directives(const JobResources& r) const {
  // PBS has no request for "P processes anywhere" that Slurm's PBS translation honours
  // (Torque's procs=P becomes one task there): without a node count, one node.
  const int nodes = r.nodes > 0 ? r.nodes : 1;
  const int ppn = r.procs_per_node > 0 ? r.procs_per_node : (r.ntasks + nodes - 1) / nodes;
  std::vector<std::string> lines = {"#PBS -N " + jobs::shell_quote(r.job_name)};
  if (r.dialect == "pbspro") {
    // PBS Pro: N chunks of P cpus with P MPI processes each, one chunk per node (scatter),
    // the nodes to this job alone (excl) unless the sweep shares them.
    lines.push_back("#PBS -l select=" + std::to_string(nodes) + ":ncpus=" + std::to_string(ppn) +
                    ":mpiprocs=" + std::to_string(ppn));
    lines.push_back(std::string("#PBS -l place=scatter") + (r.exclusive ? ":excl" : ":shared"));
  } else {
    lines.push_back("#PBS -l nodes=" + std::to_string(nodes) + ":ppn=" + std::to_string(ppn));
  }
  if (r.exclusive) {
    // Torque and Moab: the nodes run this job alone (PBS Pro says it in place=...:excl). Slurm's
    // PBS translation ignores that resource (and refuses Torque's "#PBS -n"), but reads #SBATCH
    // lines, which PBS takes for comments.
    if (r.dialect != "pbspro") lines.push_back("#PBS -l naccesspolicy=singlejob");
    lines.push_back("#SBATCH --exclusive");
  }
  add_limit_directives(lines, r, {"#PBS ", "-l walltime=", "-A ", "-q "});
  return lines;
}

std::string PbsScheduler::submit(const JobSubmission& job) {
  require_command("pbs", "qsub");
  // Slurm's qsub wrapper passes its arguments through a shell unquoted: refuse paths that a
  // shell would split or expand rather than let them go wrong.
  for (const auto& path : {job.script_path, job.stdout_path, job.stderr_path}) {
    if (jobs::shell_quote(path) != path) {
      throw SchedulerError("pbs: the path '" + path +
                           "' has characters qsub cannot take; use a --runs-dir without them");
    }
  }
  // The job starts in qsub's working directory ($PBS_O_WORKDIR): its attempt directory.
  const auto result = runner_.run({"env", "-C", job.job_dir, "qsub", "-o", job.stdout_path, "-e",
                                   job.stderr_path, job.script_path},
                                  kCommandTimeout);
  if (result.exit_code != 0) {
    throw SchedulerError("qsub refused " + job.script_path + ": " + command_message(result));
  }
  return parse_qsub_id(result.out);
}

std::vector<JobStatus> PbsScheduler::poll(const std::vector<JobRef>& jobs) {
  if (jobs.empty()) return {};
  require_command("pbs", "qstat");
  std::vector<std::string> argv{"qstat"};
  for (const auto& j : jobs) argv.push_back(j.job_id);
  const auto result = runner_.run(argv, kCommandTimeout);
  if (result.exit_code != 0 && result.exit_code != kQstatUnknownJob) {
    // The server down or restarting: the driver asks again within its outage budget.
    throw SchedulerUnavailable("pbs: qstat failed: " + command_message(result));
  }
  const auto rows = parse_qstat(result.out);
  std::vector<JobStatus> out;
  for (const auto& job : jobs) {
    const auto row = find_qstat_row(job.job_id, rows);
    if (row && !finished(row->state)) {
      JobStatus s;
      s.job_id = job.job_id;
      s.state = pbs_state(row->state);
      s.native_state = row->state;
      out.push_back(s);
      continue;
    }
    JobStatus s = status_of_gone_job(job, row ? "qstat (" + row->state + ")" : "qstat");
    if (!read_exit_marker(job.job_dir, job.job_id) &&
        fs::exists(fs::path(job.job_dir) / kCancelRequestFile)) {
      s.state = JobState::cancelled;
      s.native_state = (row ? row->state + ", " : std::string("gone, ")) +
                       "cancelled by pbench before it wrote an exit marker";
    }
    out.push_back(s);
  }
  return out;
}

std::optional<int> PbsScheduler::user_jobs_in_queue() {
  require_command("pbs", "qstat");
  const auto result = runner_.run({"qstat", "-u", user_name()}, kCommandTimeout);
  if (result.exit_code != 0 && result.exit_code != kQstatUnknownJob) return std::nullopt;
  int count = 0;
  for (const auto& row : parse_qstat(result.out)) count += finished(row.state) ? 0 : 1;
  return count;
}

std::map<std::string, std::string> parse_pbsnodes_list(const std::string& out) {
  std::map<std::string, std::string> nodes;
  std::istringstream in(out);
  for (std::string line; std::getline(in, line);) {
    std::istringstream fields(line);
    std::string node;
    std::string state;
    if (!(fields >> node >> state)) continue;
    std::string note;
    std::getline(fields, note);
    note = trim(note);
    nodes[node] = state + (note.empty() ? "" : ": " + note);
  }
  return nodes;
}

std::map<std::string, std::string> PbsScheduler::unavailable_nodes(
    const std::vector<std::string>& hosts) {
  if (hosts.empty() || !process::command_exists("pbsnodes")) return {};
  auto result = runner_.run({"pbsnodes", "-l", "-n"}, kCommandTimeout);
  if (result.exit_code != 0) result = runner_.run({"pbsnodes", "-l"}, kCommandTimeout);
  if (result.exit_code != 0) return {};
  // A host as the job saw it ("node3" or "node3.cluster") against pbsnodes' name, whole or
  // short.
  const auto short_name = [](const std::string& name) { return name.substr(0, name.find('.')); };
  std::map<std::string, std::string> by_short;
  for (const auto& [node, state] : parse_pbsnodes_list(result.out)) {
    by_short.emplace(short_name(node), state);
  }
  std::map<std::string, std::string> unavailable;
  for (const auto& host : hosts) {
    if (const auto it = by_short.find(short_name(host)); it != by_short.end()) {
      unavailable[host] = it->second;
    }
  }
  return unavailable;
}

void PbsScheduler::cancel(const std::vector<JobRef>& jobs) {
  if (jobs.empty()) return;
  require_command("pbs", "qdel");
  std::vector<std::string> argv{"qdel"};
  for (const auto& j : jobs) {
    std::ofstream(fs::path(j.job_dir) / kCancelRequestFile) << utc_now() << "\n";
    argv.push_back(j.job_id);
  }
  const auto result = runner_.run(argv, kCommandTimeout);
  // qdel counts jobs that had ended already in its status but says nothing about them.
  if (result.exit_code != 0 && !trim(result.out + result.err).empty()) {
    throw SchedulerError("qdel failed: " + command_message(result));
  }
}

}  // namespace pbench::schedulers
