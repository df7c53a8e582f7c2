#include "drive/SweepDriver.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <thread>
#include <tuple>

#include "collect/Collector.hpp"
#include "collect/DriverCollected.hpp"
#include "drive/PollBackoff.hpp"
#include "plan/ScriptTimeLimit.hpp"
#include "schedulers/Launcher.hpp"
#include "sweep/SweepSpec.hpp"
#include "sweepdir/Envelope.hpp"
#include "util/Error.hpp"
#include "util/StderrTail.hpp"
#include "util/Time.hpp"
#include "util/WritableDirectory.hpp"

namespace pbench::run {
namespace fs = std::filesystem;
using store::PointState;

namespace {

constexpr std::size_t kStderrTailBytes = 2048;
/// How much of a failed job's output is searched for the launcher's report of a killed rank.
constexpr std::size_t kLauncherReportBytes = 8192;
/// How much of a failed job's stderr is searched for the worker's own error line.
constexpr std::size_t kWorkerLineBytes = 65536;

/// A point's partition as (processes, nodes, processes per node): the points of one key have
/// the same directives, and the keys order by processes first.
std::tuple<int, int, int> shape_key(const store::PointRecord& point) {
  const auto p = sweep::Partition::of_point(
      point.partition, nlohmann::json::parse(point.params_json, nullptr, false));
  return {p.processes, p.nodes, p.procs_per_node};
}

}  // namespace

PointState point_state_of(schedulers::JobState s) {
  switch (s) {
    case schedulers::JobState::queued:
      return PointState::queued;
    case schedulers::JobState::running:
      return PointState::running;
    case schedulers::JobState::completed:
      return PointState::done;
    case schedulers::JobState::failed:
      return PointState::failed;
    case schedulers::JobState::cancelled:
      return PointState::cancelled;
    case schedulers::JobState::timeout:
      return PointState::timeout;
  }
  return PointState::failed;
}

namespace {

bool is_active(PointState s) {
  return s == PointState::queued || s == PointState::running;
}

/// While the scheduler cannot be reached, the driver keeps the outage here (in the sweep's
/// directory): "SINCE BUDGET" (seconds since the epoch, seconds) and the last failure's message.
constexpr const char* kOutageFile = "scheduler-unavailable";
/// An outage file younger than this is the same outage to a driver that takes over (the one
/// that wrote it updated it every cycle, at most a poll interval plus a command's timeout ago).
constexpr std::chrono::seconds kOutageFileFresh{120};

struct Outage {
  std::int64_t since = 0;
  std::int64_t budget = 0;
  std::string message;
};

std::optional<Outage> read_outage(const std::string& path) {
  std::ifstream in(path);
  Outage o;
  if (!(in >> o.since >> o.budget)) return std::nullopt;
  in.ignore();
  std::getline(in, o.message);
  return o;
}

std::int64_t epoch_seconds() {
  return std::chrono::duration_cast<std::chrono::seconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

/// A packed point's attempt directory names its job's directory in this file.
constexpr const char* kPackedInFile = "packed-in";

/// The packed job's directory of an attempt, or "" when the attempt is a job of its own.
std::string packed_in(const store::AttemptRecord& attempt) {
  std::ifstream in(fs::path(attempt.job_dir) / kPackedInFile);
  std::string dir;
  std::getline(in, dir);
  return dir;
}

}  // namespace

bool Progress::unfinished() const {
  return count(PointState::planned) + count(PointState::queued) + count(PointState::running) > 0;
}

std::string Progress::line() const {
  std::string out = std::to_string(total) + " points:";
  bool first = true;
  for (auto s : {PointState::done, PointState::running, PointState::queued, PointState::planned,
                 PointState::failed, PointState::cancelled, PointState::timeout}) {
    if (count(s) == 0) continue;
    out += (first ? " " : ", ") + std::to_string(count(s)) + " " + store::to_string(s);
    first = false;
  }
  return out;
}

std::string file_tail(const std::string& path, std::size_t max_bytes) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) return "";
  const std::streamoff size = in.tellg();
  const std::streamoff start = size > static_cast<std::streamoff>(max_bytes)
                                   ? size - static_cast<std::streamoff>(max_bytes)
                                   : 0;
  in.seekg(start);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (start > 0) {
    const auto newline = text.find('\n');
    if (newline != std::string::npos) text.erase(0, newline + 1);
  }
  return text;
}

SweepDriver::SweepDriver(store::Store& store, schedulers::Scheduler& scheduler,
                         store::SweepRecord sweep)
    : store_(store), scheduler_(scheduler), sweep_(std::move(sweep)) {}

Progress SweepDriver::progress() {
  Progress p;
  for (const auto& point : store_.points(sweep_.id)) {
    ++p.by_state[point.state];
    ++p.total;
  }
  if (const auto outage = read_outage(outage_file())) {
    p.note = "scheduler unreachable for " + std::to_string(epoch_seconds() - outage->since) +
             " s (gives up after " + std::to_string(outage->budget) + " s): " + outage->message;
  }
  return p;
}

std::string SweepDriver::outage_file() const {
  return (fs::path(sweep_.directory) / kOutageFile).string();
}

void SweepDriver::note_unavailable(const std::string& message) {
  const std::int64_t now = epoch_seconds();
  // This driver's own outage is counted from when it began even where the file cannot be kept
  // (the runs directory deleted under the driver: without it, each cycle began the outage anew
  // and the driver of a lab taken down waited for ever).
  std::int64_t since = in_outage_ ? std::min(outage_since_, now) : now;
  if (const auto previous = read_outage(outage_file())) {
    std::error_code ec;
    const auto age = fs::file_time_type::clock::now() - fs::last_write_time(outage_file(), ec);
    // This driver's own outage, or one that another driver saw until moments ago.
    if (!ec && (in_outage_ || age < kOutageFileFresh)) since = std::min(previous->since, since);
  }
  in_outage_ = true;
  outage_since_ = since;
  const std::string tmp = outage_file() + ".tmp";
  std::ofstream(tmp, std::ios::trunc) << since << " " << outage_budget_.count() << "\n"
                                      << message << "\n";
  std::error_code ec;
  fs::rename(tmp, outage_file(), ec);
  if (now - since > outage_budget_.count()) {
    throw SchedulerError("the scheduler has been unreachable for " + std::to_string(now - since) +
                         " s, longer than the outage budget of " +
                         std::to_string(outage_budget_.count()) +
                         " s (--scheduler-outage); last failure: " + message);
  }
}

void SweepDriver::note_available() {
  if (!in_outage_ && !fs::exists(outage_file())) return;
  in_outage_ = false;
  std::error_code ec;
  fs::remove(outage_file(), ec);
}

store::AttemptRecord SweepDriver::prepare_attempt(const store::PointRecord& point) {
  // A submission refused earlier is tried again as the same attempt: it never ran.
  // Before an attempt is recorded: a job script that is gone (its runs directory deleted) and a
  // runs directory where the job cannot write are said now.
  if (std::error_code ec; !fs::exists(point.script_path, ec) && !fs::exists(sweep_.directory, ec)) {
    throw std::runtime_error(
        "the job script '" + point.script_path + "' of " + describe_point(point) +
        " is gone (its runs directory deleted?): write the scripts again with the same `pbench "
        "sweep " +
        sweep_.name +
        " ...` line (an unchanged sweep keeps its points and results), "
        "then `pbench submit " +
        sweep_.name + " --retry-failed`");
  }
  require_writable_directory(fs::path(point.script_path).parent_path());
  auto previous = store_.latest_attempt(point.id);
  store::AttemptRecord attempt;
  if (previous && !previous->job_id && previous->native_state == "rejected") {
    attempt = *previous;
    attempt.state = PointState::queued;
    attempt.native_state.reset();
    attempt.stderr_tail.reset();
    attempt.ended_at.reset();
  } else {
    attempt.point_id = point.id;
    attempt.state = PointState::queued;
    attempt = store_.add_attempt(attempt);
  }
  const fs::path dir =
      fs::path(point.script_path).parent_path() / ("attempt-" + std::to_string(attempt.attempt_no));
  fs::create_directories(dir);
  attempt.job_dir = dir.string();
  attempt.stdout_path = (dir / "stdout.log").string();
  attempt.stderr_path = (dir / "stderr.log").string();
  attempt.result_path = (dir / "result.json").string();
  attempt.submitted_at = utc_now();
  return attempt;
}

void SweepDriver::record_rejection(store::AttemptRecord& attempt, const std::string& message,
                                   bool refused) {
  // Kept as an attempt that never ran; the point stays planned for the next cycle.
  attempt.state = PointState::failed;
  attempt.native_state = "rejected";
  attempt.stderr_tail = message;
  attempt.ended_at = utc_now();
  store_.update_attempt(attempt);
  if (refused) rejection_ = message;
}

bool asks_the_impossible(const std::string& message) {
  // Slurm's (and its qsub's) refusals of a request no node set of the cluster can meet, and
  // PBS's of a request beyond the queue's or server's limits. Other refusals (a wrong queue, a
  // full queue) keep the point planned: fixed, it can run.
  for (const char* words :
       {"Requested node configuration is not available", "Node count specification invalid",
        "More processors requested than permitted", "exceeds queue resource limits",
        "violates queue and/or server resource limits"}) {
    if (message.find(words) != std::string::npos) return true;
  }
  return false;
}

void SweepDriver::record_impossible(store::AttemptRecord& attempt, const std::string& message) {
  attempt.state = PointState::failed;
  attempt.native_state = "refused";
  attempt.stderr_tail = message;
  attempt.ended_at = utc_now();
  store_.update_attempt(attempt);
  store_.set_point_state(attempt.point_id, PointState::failed);
}

int SweepDriver::submit_ready(int max_active) {
  auto points = store_.points(sweep_.id);
  int active = 0;
  for (const auto& p : points) active += is_active(p.state) ? 1 : 0;
  int budget = max_active - active;
  const bool waiting = std::any_of(points.begin(), points.end(),
                                   [](const auto& p) { return p.state == PointState::planned; });
  if (max_queued_ > 0 && waiting && budget > 0) {
    // Unknown now (squeue failed): submit nothing this cycle rather than overfill the queue.
    const auto in_queue = scheduler_.user_jobs_in_queue();
    budget = in_queue ? std::min(budget, max_queued_ - *in_queue) : 0;
  }
  std::vector<store::PointRecord> ready;
  for (const auto& point : points) {
    if (static_cast<int>(ready.size()) >= budget || !stopped_.empty()) break;
    if (point.state != PointState::planned) continue;
    // The budget's gate: the next point would pass it, so nothing more is submitted.
    if (std::string why; gate_ && !gate_(point, why)) {
      stopped_ = why;
      break;
    }
    ready.push_back(point);
  }
  if (pack_ != PackMode::point) return submit_packs(points, max_active);
  if (array_throttle_ > 0) return submit_arrays(ready);
  int submitted = 0;
  for (const auto& point : ready) {
    std::vector<store::AttemptRecord> attempts{prepare_attempt(point)};
    const auto& a = attempts.front();
    const auto submit = [&] {
      return std::vector<std::string>{
          scheduler_.submit({point.script_path, a.job_dir, a.stdout_path, a.stderr_path})};
    };
    if (!submit_job(attempts, {point}, submit, true, submitted)) break;
  }
  return submitted;
}

bool SweepDriver::submit_job(std::vector<store::AttemptRecord>& attempts,
                             const std::vector<store::PointRecord>& points,
                             const std::function<std::vector<std::string>()>& submit,
                             bool may_be_impossible, int& submitted) {
  try {
    const auto ids = submit();
    for (std::size_t i = 0; i < points.size(); ++i) {
      attempts[i].job_id = ids.at(i);
      attempts[i].native_state = "submitted";
      store_.update_attempt(attempts[i]);
      store_.set_point_state(points[i].id, PointState::queued);
      ++submitted;
    }
    return true;
  } catch (const SchedulerUnavailable& e) {
    for (auto& a : attempts) record_rejection(a, e.what(), false);
    note_unavailable(e.what());
    return false;
  } catch (const SchedulerError& e) {
    if (may_be_impossible && asks_the_impossible(e.what())) {
      for (auto& a : attempts) record_impossible(a, e.what());
      return true;
    }
    for (auto& a : attempts) record_rejection(a, e.what());
    return false;
  }
}

int SweepDriver::submit_arrays(const std::vector<store::PointRecord>& ready) {
  // Points of one partition have the same directives (the batch options are the sweep's; a
  // shape NxP is part of the partition): one array each.
  std::map<std::tuple<int, int, int>, std::vector<store::PointRecord>> by_partition;
  for (const auto& point : ready) by_partition[shape_key(point)].push_back(point);
  int submitted = 0;
  for (const auto& [partition, group] : by_partition) {
    std::vector<store::AttemptRecord> attempts;
    std::vector<schedulers::JobSubmission> jobs;
    for (const auto& point : group) {
      attempts.push_back(prepare_attempt(point));
      const auto& a = attempts.back();
      jobs.push_back({point.script_path, a.job_dir, a.stdout_path, a.stderr_path});
    }
    const auto submit = [&] {
      return scheduler_.submit_array(jobs, array_throttle_, sweep_.directory + "/arrays");
    };
    if (!submit_job(attempts, group, submit, true, submitted)) break;
  }
  return submitted;
}

int SweepDriver::submit_packs(const std::vector<store::PointRecord>& points, int max_active) {
  // Budgets count jobs here: a packed job holds many points.
  std::set<std::string> active_jobs;
  // By partition (processes, nodes, processes per node), or one group for the sweep.
  std::map<std::tuple<int, int, int>, std::vector<store::PointRecord>> groups;
  for (const auto& point : points) {
    if (point.state == PointState::planned) {
      groups[pack_ == PackMode::sweep ? std::tuple<int, int, int>{} : shape_key(point)].push_back(
          point);
    } else if (is_active(point.state)) {
      if (auto a = store_.latest_attempt(point.id); a && a->job_id) active_jobs.insert(*a->job_id);
    }
  }
  if (groups.empty()) return 0;
  int budget = max_active - static_cast<int>(active_jobs.size());
  if (max_queued_ > 0 && budget > 0) {
    const auto in_queue = scheduler_.user_jobs_in_queue();
    budget = in_queue ? std::min(budget, max_queued_ - *in_queue) : 0;
  }
  const auto spec = sweep::SweepSpec::from_json(nlohmann::json::parse(sweep_.spec_json));
  int submitted = 0;
  for (const auto& [key, group] : groups) {
    if (budget-- <= 0) break;
    // The largest partition's shape (`pbench submit --pack sweep` refuses a sweep of shapes).
    sweep::Partition largest(0);
    for (const auto& p : group) {
      const auto partition =
          sweep::Partition::of_point(p.partition, nlohmann::json::parse(p.params_json));
      if (partition.processes > largest.processes) largest = partition;
    }
    const auto shape = sweep::node_shape(spec, largest);
    schedulers::JobResources resources;
    resources.job_name = ("pb-" + sweep_.name).substr(0, 15);  // PBS allows 15 characters
    resources.nodes = shape.nodes;
    resources.ntasks = largest.processes;
    resources.procs_per_node = shape.procs_per_node;
    resources.exclusive = !spec.share_nodes;
    // The steps run one after another: the job needs the sum of their limits.
    resources.time_limit_seconds = 0;
    for (const auto& p : group) {
      resources.time_limit_seconds +=
          script_time_limit(p.script_path).value_or(sweep::kDefaultTimeLimitSeconds);
    }
    resources.account = spec.account;
    resources.queue = spec.queue;
    resources.extra = spec.directives;
    resources.dialect = spec.dialect;
    std::vector<store::AttemptRecord> attempts;
    std::vector<PackStep> steps;
    for (const auto& point : group) {
      attempts.push_back(prepare_attempt(point));
      steps.push_back({point.key, point.script_path, attempts.back().job_dir});
    }
    // The packed job's directory is named after its first point's attempt: unique and stable.
    const fs::path dir = fs::path(sweep_.directory) / "packs" /
                         (group.front().key + "-" + std::to_string(attempts.front().attempt_no));
    fs::create_directories(dir);
    const std::string script = (dir / "job.sh").string();
    std::ofstream(script, std::ios::trunc) << render_pack_script(
        scheduler_.directives(resources), schedulers::job_script_parts(spec.scheduler).start,
        sweep_.name, steps);
    fs::remove(dir / "exit.json");
    for (const auto& a : attempts)
      std::ofstream(fs::path(a.job_dir) / kPackedInFile) << dir.string() << "\n";
    // One job for every point of the group: each attempt gets its id.
    const auto submit = [&] {
      const std::string id = scheduler_.submit(
          {script, dir.string(), (dir / "stdout.log").string(), (dir / "stderr.log").string()});
      return std::vector<std::string>(group.size(), id);
    };
    if (!submit_job(attempts, group, submit, false, submitted)) break;
  }
  return submitted;
}

int SweepDriver::requeue_failed() {
  int count = 0;
  for (const auto& point : store_.points(sweep_.id)) {
    if (point.state == PointState::failed || point.state == PointState::cancelled ||
        point.state == PointState::timeout) {
      store_.set_point_state(point.id, PointState::planned);
      ++count;
    }
  }
  return count;
}

void SweepDriver::record_final(store::AttemptRecord& attempt, const schedulers::JobStatus& status) {
  // An exit marker the job could only partly write (a full runs directory): named in the
  // attempt's state and removed, not left beside the attempt.
  if (std::error_code ec;
      !attempt.job_dir.empty() && fs::exists(fs::path(attempt.job_dir) / "exit.json.tmp", ec)) {
    fs::remove(fs::path(attempt.job_dir) / "exit.json.tmp", ec);
    attempt.native_state = attempt.native_state.value_or("") +
                           " (a partial exit.json.tmp was left: the runs directory full?; removed)";
  }
  attempt.exit_status = status.exit_status;
  attempt.signal = status.signal;
  if (status.started_at && !status.started_at->empty()) attempt.started_at = status.started_at;
  attempt.ended_at = status.ended_at && !status.ended_at->empty() ? *status.ended_at : utc_now();
  if (attempt.state == PointState::done && !fs::exists(attempt.result_path)) {
    attempt.state = PointState::failed;
    attempt.stderr_tail = "the job exited 0 but wrote no result document (" + attempt.result_path +
                          ")\n" + file_tail(attempt.stderr_path, kStderrTailBytes);
  } else if (attempt.state != PointState::done) {
    attempt.stderr_tail = file_tail(attempt.stderr_path, kStderrTailBytes);
    // The worker's own error line before the launcher's report, even when that report (Open
    // MPI's banners, every rank's abort) pushed it out of the tail.
    const auto own = worker_error_line(file_tail(attempt.stderr_path, kWorkerLineBytes));
    if (!own.empty() && attempt.stderr_tail->find(own) == std::string::npos) {
      attempt.stderr_tail = own + "\n" + *attempt.stderr_tail;
    }
  }
  if (attempt.state == PointState::failed) {
    // A rank killed by a signal ends the launcher with a status of its own: the launcher's
    // report names the signal that really ended the worker.
    const auto reported = schedulers::launcher_reported_signal(
        file_tail(attempt.stdout_path, kLauncherReportBytes) + "\n" +
        file_tail(attempt.stderr_path, kLauncherReportBytes));
    if (reported) attempt.signal = reported;
  }
}

void SweepDriver::poll_once() {
  std::vector<std::pair<store::PointRecord, store::AttemptRecord>> active;
  std::vector<schedulers::JobRef> refs;
  std::set<std::string> polled;
  std::map<std::int64_t, std::string> pack_dirs;  // attempt id -> its packed job's directory
  for (const auto& point : store_.points(sweep_.id)) {
    if (!is_active(point.state)) continue;
    auto attempt = store_.latest_attempt(point.id);
    if (!attempt || !attempt->job_id) continue;
    const std::string pack_dir = packed_in(*attempt);
    if (!pack_dir.empty()) pack_dirs[attempt->id] = pack_dir;
    // A packed job is polled once, with its own directory (its own exit marker).
    if (polled.insert(*attempt->job_id).second) {
      refs.push_back({*attempt->job_id, pack_dir.empty() ? attempt->job_dir : pack_dir});
    }
    active.emplace_back(point, *attempt);
  }
  if (refs.empty()) return;
  std::vector<schedulers::JobStatus> statuses;
  try {
    statuses = scheduler_.poll(refs);
  } catch (const SchedulerUnavailable& e) {
    note_unavailable(e.what());  // no news this cycle
    return;
  }
  note_available();
  // Each job's status by its id: one lookup per point, not a scan of every status (10,000
  // points in one poll would otherwise compare 10^8 ids).
  std::map<std::string, const schedulers::JobStatus*> by_job;
  for (const auto& s : statuses) by_job.emplace(s.job_id, &s);
  std::set<std::int64_t> ended;  // points done in this poll
  for (auto& [point, attempt] : active) {
    const auto it = by_job.find(*attempt.job_id);
    if (it == by_job.end()) continue;
    schedulers::JobStatus status = *it->second;
    if (pack_dirs.count(attempt.id) > 0) {
      // A step of a packed job: its own exit marker decides; without one it waits in a running
      // job (queued until its script starts) or shares the job's end (it never ran, or the job
      // ended without the step finishing).
      if (auto marker = schedulers::read_exit_marker(attempt.job_dir, status.job_id)) {
        marker->native_state = status.native_state + ", step " + marker->native_state;
        status = *marker;
      } else if (status.state == schedulers::JobState::running) {
        if (!fs::exists(fs::path(attempt.job_dir) / "job.env")) {
          status.state = schedulers::JobState::queued;
          status.native_state += ", step waiting";
        }
      } else if (status.state != schedulers::JobState::queued) {
        if (status.state == schedulers::JobState::completed) {
          status.state = schedulers::JobState::failed;
        }
        status.native_state += ", step without an exit marker";
        status.exit_status.reset();
        status.started_at.reset();
        status.ended_at.reset();
      }
    }
    const PointState state = point_state_of(status.state);
    if (state == attempt.state && attempt.native_state == status.native_state) continue;
    attempt.state = state;
    attempt.native_state = status.native_state;
    if (state == PointState::running && !attempt.started_at) attempt.started_at = utc_now();
    if (store::is_terminal(state) && !attempt.job_dir.empty() && !fs::exists(attempt.job_dir)) {
      // Its directory deleted under it (the runs directory removed): the job could write no
      // result or exit marker there, which is not a kill nor the scheduler's doing.
      status.signal.reset();
      status.native_state = "its attempt directory '" + attempt.job_dir +
                            "' was deleted while the job ran (the runs directory removed?): no "
                            "result or exit marker could be written";
      attempt.native_state = status.native_state;
    }
    if (store::is_terminal(state)) record_final(attempt, status);
    store_.update_attempt(attempt);
    if (store::is_terminal(attempt.state)) write_envelope(sweep_, point, attempt);
    store_.set_point_state(point.id, attempt.state);
    if (attempt.state == PointState::done) ended.insert(point.id);
  }
  // Stored now, while its result is surely on disk: a runs directory deleted or filled before
  // the sweep ends loses nothing finished.
  if (collect_as_points_end_ && !ended.empty()) {
    const auto now = collect_done_points(store_, sweep_, ended);
    // Kept for the next collect; where that cannot be written (the runs directory gone), here.
    if (!collected_for_collect_ || !add_driver_collected(sweep_.directory, now)) {
      merge_reports(collected_, now);
    }
  }
}

Progress SweepDriver::cycle(int max_active) {
  rejection_.clear();
  submit_ready(max_active);
  poll_once();
  if (rejection_.empty()) submit_ready(max_active);
  Progress p = progress();
  if (!rejection_.empty() && p.count(PointState::queued) + p.count(PointState::running) == 0) {
    throw SchedulerError(rejection_ + " (" + std::to_string(p.count(PointState::planned)) +
                         " points stay planned)");
  }
  return p;
}

void SweepDriver::drive(int max_active, std::chrono::milliseconds interval,
                        const std::function<void(const Progress&)>& on_cycle) {
  PollBackoff backoff(interval, poll_ceiling(scheduler_.max_poll_interval()));
  std::string last;
  for (;;) {
    const Progress p = cycle(max_active);
    if (on_cycle) on_cycle(p);
    if (!p.unfinished()) return;
    const bool changed = p.line() != last;
    last = p.line();
    std::this_thread::sleep_for(backoff.next(changed));
  }
}

int SweepDriver::cancel_all() {
  std::vector<schedulers::JobRef> refs;
  for (const auto& point : store_.points(sweep_.id)) {
    if (point.state == PointState::planned) {
      store_.set_point_state(point.id, PointState::cancelled);
      continue;
    }
    if (!is_active(point.state)) continue;
    auto attempt = store_.latest_attempt(point.id);
    if (attempt && attempt->job_id && std::none_of(refs.begin(), refs.end(), [&](const auto& r) {
          return r.job_id == *attempt->job_id;
        })) {
      refs.push_back({*attempt->job_id, attempt->job_dir});
    }
  }
  if (!refs.empty()) scheduler_.cancel(refs);
  return static_cast<int>(refs.size());
}

}  // namespace pbench::run
