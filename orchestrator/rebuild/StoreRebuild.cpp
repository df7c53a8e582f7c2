#include "rebuild/StoreRebuild.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <set>

#include "collect/Collector.hpp"
#include "drive/SweepDriver.hpp"
#include "plan/SweepPlanner.hpp"
#include "schedulers/Scheduler.hpp"
#include "store/Store.hpp"
#include "sweep/SweepSpec.hpp"
#include "sweepdir/DriverLock.hpp"
#include "sweepdir/SweepRecordFile.hpp"
#include "util/Error.hpp"

namespace pbench::run {
namespace fs = std::filesystem;
using store::PointState;

namespace {

/// What the damaged store can still say, read through a read-only connection (nothing it
/// cannot read is needed: each read stands alone).
struct OldStore {
  std::map<std::string, store::SweepRecord> sweeps;  ///< by name
  std::optional<std::int64_t> results;
  std::optional<std::int64_t> results_without_point;

  explicit OldStore(const std::string& path) {
    std::error_code ec;
    if (!fs::is_regular_file(path, ec)) return;
    try {
      store::Database db(path, store::Database::Mode::read_only);
      try {
        auto s = db.prepare("SELECT name, spec_json, scheduler, directory, created_at FROM sweeps");
        while (s.step()) {
          sweeps[s.text(0)] = {0, s.text(0), s.text(1), s.text(2), s.text(3), s.text(4)};
        }
      } catch (const StoreError&) {
        // The sweeps it could read before the damage are kept.
      }
      try {
        auto s =
            db.prepare("SELECT count(*), count(*) FILTER (WHERE point_id IS NULL) FROM results");
        if (s.step()) {
          results = s.int64(0);
          results_without_point = s.int64(1);
        }
      } catch (const StoreError&) {
        results.reset();
      }
    } catch (const StoreError&) {
      // Not even opened: the runs directory alone is the source.
    }
  }
};

nlohmann::json read_json(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return nlohmann::json();
  return nlohmann::json::parse(in, nullptr, false);
}

/// attempt-N directories of a point's directory, by N.
std::vector<std::pair<int, fs::path>> attempt_dirs(const fs::path& point_dir) {
  std::vector<std::pair<int, fs::path>> out;
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(point_dir, ec)) {
    const std::string name = entry.path().filename().string();
    if (!entry.is_directory() || name.rfind("attempt-", 0) != 0) continue;
    const std::string digits = name.substr(8);
    if (digits.empty() || digits.size() > 6 ||
        !std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; })) {
      continue;
    }
    const int n = std::stoi(digits);
    if (n > 0) out.emplace_back(n, entry.path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

/// An attempt as its directory records it: envelope.json (written when the attempt ended: its
/// state, job id, run), else the job's exit marker, else an attempt that never said how it
/// ended (failed).
store::AttemptRecord read_attempt(std::int64_t point_id, int attempt_no, const fs::path& dir,
                                  bool& run_known) {
  store::AttemptRecord a;
  a.point_id = point_id;
  a.attempt_no = attempt_no;
  a.job_dir = dir.string();
  a.stdout_path = (dir / "stdout.log").string();
  a.stderr_path = (dir / "stderr.log").string();
  a.result_path = (dir / "result.json").string();
  a.state = PointState::failed;
  a.native_state = "no envelope.json or exit.json (store rebuilt)";
  const auto envelope = read_json(dir / "envelope.json");
  std::optional<schedulers::JobStatus> marker;
  try {
    marker = schedulers::read_exit_marker(a.job_dir, "");
  } catch (const nlohmann::json::exception&) {
    // A marker with a status that is no number: as if there were none.
  }
  run_known = envelope.is_object() && envelope.contains("run") &&
              envelope["run"].is_number_integer() && envelope["run"].get<int>() > 0;
  a.run_no = run_known ? envelope["run"].get<int>() : 1;
  if (marker) {
    a.state = point_state_of(marker->state);
    a.native_state = marker->native_state;
    if (marker->exit_status) a.exit_status = *marker->exit_status;
    a.signal = marker->signal;
    if (marker->started_at && !marker->started_at->empty()) a.started_at = marker->started_at;
    if (marker->ended_at && !marker->ended_at->empty()) a.ended_at = marker->ended_at;
  }
  if (envelope.is_object()) {
    const auto text = [&](const char* key) -> std::optional<std::string> {
      if (envelope.contains(key) && envelope[key].is_string())
        return envelope[key].get<std::string>();
      return std::nullopt;
    };
    if (const auto state = text("state")) {
      try {
        a.state = store::point_state_from(*state);
      } catch (const StoreError&) {
        // An unknown state name: the exit marker's reading stays.
      }
    }
    if (const auto native = text("native_state")) a.native_state = native;
    a.job_id = text("job_id");
    if (envelope.contains("exit_status") && envelope["exit_status"].is_number_integer()) {
      a.exit_status = envelope["exit_status"].get<std::int64_t>();
    }
  }
  // A done attempt without its result document is what the driver records as failed.
  std::error_code ec;
  if (a.state == PointState::done && !fs::exists(a.result_path, ec)) a.state = PointState::failed;
  return a;
}

/// The result documents under a sweep directory's points (to say how many were not recovered).
int result_documents(const fs::path& sweep_dir) {
  int n = 0;
  std::error_code ec;
  for (auto it = fs::recursive_directory_iterator(sweep_dir / "points", ec);
       !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
    n += it->path().filename() == "result.json";
  }
  return n;
}

class Rebuilder {
 public:
  Rebuilder(store::Store& store, RebuildReport& report, const OldStore& old)
      : store_(store), report_(report), old_(old) {}

  void sweep(const fs::path& dir) {
    const std::string name = dir.filename().string();
    std::optional<store::SweepRecord> record;
    std::vector<store::RunRecord> runs;
    try {
      if (auto file = read_sweep_record(dir.string())) {
        record = file->sweep;
        runs = file->runs;
      }
    } catch (const UsageError& e) {
      note(name, e.what());
    }
    if (!record) {
      if (auto it = old_.sweeps.find(name); it != old_.sweeps.end()) {
        record = it->second;
      } else {
        note(name, "no sweep.json here and the old store does not hold the sweep: its " +
                       std::to_string(result_documents(dir)) +
                       " result documents are not recovered");
        return;
      }
    }
    record->directory = dir.string();
    std::vector<sweep::Point> expanded;
    try {
      expanded =
          sweep::expand(sweep::SweepSpec::from_json(nlohmann::json::parse(record->spec_json)));
    } catch (const std::exception& e) {
      note(name, std::string("its definition cannot be read (") + e.what() +
                     "): its result documents are not recovered");
      return;
    }
    std::vector<store::PointRecord> points;
    for (const auto& p : expanded) {
      points.push_back(point_record(p, job_script_path(record->directory, p.key)));
    }
    const auto stored = store_.insert_sweep(*record, points);
    ++report_.sweeps;
    report_.points += static_cast<int>(points.size());
    std::set<std::string> keys;
    for (const auto& p : points) keys.insert(p.key);
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(dir / "points", ec)) {
      if (entry.is_directory() && keys.count(entry.path().filename().string()) == 0) {
        note(name, "points/" + entry.path().filename().string() +
                       " is no point of the sweep's definition: not recovered");
      }
    }
    restore_attempts(stored, points, runs);
    const auto collected = collect(store_, stored);
    report_.results += collected.stored;
    report_.rejected += collected.rejected;
    for (const auto& m : collected.messages) note(name, m);
  }

 private:
  void restore_attempts(const store::SweepRecord& sweep,
                        const std::vector<store::PointRecord>& points,
                        const std::vector<store::RunRecord>& recorded_runs) {
    std::map<std::int64_t, std::vector<store::AttemptRecord>> by_point;
    int last_run = 1, unknown_runs = 0;
    std::map<int, std::string> run_started;
    for (const auto& point : points) {
      const fs::path point_dir = fs::path(point.script_path).parent_path();
      for (const auto& [n, dir] : attempt_dirs(point_dir)) {
        bool run_known = false;
        auto attempt = read_attempt(point.id, n, dir, run_known);
        unknown_runs += run_known ? 0 : 1;
        last_run = std::max(last_run, attempt.run_no);
        if (attempt.started_at) {
          auto& first = run_started[attempt.run_no];
          if (first.empty() || *attempt.started_at < first) first = *attempt.started_at;
        }
        by_point[point.id].push_back(std::move(attempt));
      }
    }
    // The runs the record names (with their start and envelope); else each from its first
    // attempt's start. Run 1 is made with the sweep.
    std::map<int, const store::RunRecord*> recorded;
    for (const auto& run : recorded_runs) {
      recorded[run.run_no] = &run;
      last_run = std::max(last_run, run.run_no);
    }
    if (unknown_runs > 0 && last_run > 1) {
      note(sweep.name, std::to_string(unknown_runs) +
                           " attempts have no run in their envelope.json (written before pbench "
                           "recorded it): counted in run 1");
    }
    const std::string rebuilt = nlohmann::json{{"rebuilt_from", report_.runs_dir}}.dump();
    if (const auto it = recorded.find(1); it != recorded.end()) {
      store_.set_run_envelope(store_.runs(sweep.id).front().id, it->second->envelope_json);
    }
    for (int run = 2; run <= last_run; ++run) {
      if (const auto it = recorded.find(run); it != recorded.end()) {
        store_.start_run(sweep.id, it->second->started_at, it->second->envelope_json);
      } else {
        const auto started = run_started.find(run);
        store_.start_run(
            sweep.id, started != run_started.end() ? started->second : sweep.created_at, rebuilt);
      }
    }
    report_.runs += last_run;
    store::Transaction txn(store_.db());
    for (const auto& point : points) {
      auto found = by_point.find(point.id);
      if (found == by_point.end()) continue;
      for (auto& attempt : found->second) {
        attempt = store_.restore_attempt(attempt);
        ++report_.attempts;
      }
      // The point's state is its latest attempt's in the latest run (planned when it has none).
      const auto& latest = found->second.back();
      if (latest.run_no == last_run) store_.set_point_state(point.id, latest.state);
    }
    txn.commit();
  }

  void note(const std::string& sweep, const std::string& message) {
    report_.messages.push_back("sweep " + sweep + ": " + message);
  }

  store::Store& store_;
  RebuildReport& report_;
  const OldStore& old_;
};

}  // namespace

RebuildReport rebuild_store(const std::string& old_path, const std::string& runs_dir,
                            const std::string& new_path) {
  std::error_code ec;
  if (!fs::is_directory(runs_dir, ec)) {
    throw UsageError("no runs directory '" + runs_dir +
                     "': give the one the sweeps ran in with --runs-dir; nothing was written");
  }
  if (fs::exists(new_path, ec) || fs::is_symlink(new_path, ec)) {
    throw UsageError("'" + new_path +
                     "' exists: rebuild writes a new store and overwrites nothing; choose "
                     "another with --output; nothing was written");
  }
  RebuildReport report;
  report.old_path = old_path;
  report.new_path = new_path;
  report.runs_dir = fs::absolute(runs_dir).lexically_normal().string();
  const OldStore old(old_path);
  report.old_results = old.results;
  report.old_results_without_point = old.results_without_point;
  std::vector<fs::path> sweep_dirs;
  for (const auto& entry : fs::directory_iterator(report.runs_dir, ec)) {
    if (entry.is_directory() && fs::is_directory(entry.path() / "points")) {
      sweep_dirs.push_back(entry.path());
    }
  }
  std::sort(sweep_dirs.begin(), sweep_dirs.end());
  // No driver may change a sweep's attempts while they are read: each sweep's lock is held to
  // the end (a runs directory that cannot be written cannot be driven either).
  std::vector<std::unique_ptr<DriverLock>> locks;
  for (const auto& dir : sweep_dirs) {
    std::unique_ptr<DriverLock> lock;
    try {
      lock = std::make_unique<DriverLock>(dir.string());
    } catch (const std::runtime_error&) {
      continue;
    }
    if (!lock->owns_lock()) {
      const std::string name = dir.filename().string();
      throw UsageError("sweep '" + name + "' is being driven: rebuild once its driver has ended (" +
                       "pbench wait " + name + ", or pbench cancel " + name +
                       "); nothing was written");
    }
    locks.push_back(std::move(lock));
  }
  auto store = store::Store::open(new_path, store::Store::Access::create);
  Rebuilder rebuilder(store, report, old);
  for (const auto& dir : sweep_dirs) rebuilder.sweep(dir);
  return report;
}

}  // namespace pbench::run
