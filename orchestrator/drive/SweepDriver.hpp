#pragma once
// Moves a sweep's points through their states: submits planned points within the throttle,
// polls every active job in one scheduler call per cycle, and records each attempt's outcome.
#include <chrono>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "collect/Collector.hpp"
#include "jobs/PackScript.hpp"
#include "schedulers/Scheduler.hpp"
#include "store/Store.hpp"

namespace pbench::run {

/// Points of a sweep by state.
struct Progress {
  std::map<store::PointState, int> by_state;
  int total = 0;
  int count(store::PointState s) const {
    auto it = by_state.find(s);
    return it == by_state.end() ? 0 : it->second;
  }
  /// "scheduler unavailable for 12 s (gives up after 600 s): ..." while the scheduler cannot
  /// be reached (as the driving process last saw it), otherwise empty.
  std::string note;
  /// Planned, queued or running points remain.
  bool unfinished() const;
  /// "6 points: 3 done, 1 running, 2 planned".
  std::string line() const;
};

/// True when a scheduler's refusal of a submission says the cluster can never give what the job
/// asks for (Slurm: "Requested node configuration is not available", ...): its point fails with
/// the message instead of staying planned.
bool asks_the_impossible(const std::string& message);

/// The point state of a scheduler's canonical job state.
store::PointState point_state_of(schedulers::JobState state);

class SweepDriver {
 public:
  SweepDriver(store::Store& store, schedulers::Scheduler& scheduler, store::SweepRecord sweep);

  /// With n > 0, submits only while fewer than n of the user's jobs (pbench's and others', as
  /// the scheduler counts them) are queued or running; costs one more scheduler call per cycle
  /// while points wait to be submitted.
  void set_max_queued(int n) { max_queued_ = n; }
  /// With n > 0, submits the ready points of each partition as one job array with at most n
  /// elements running at once (schedulers with job arrays only).
  void set_array_throttle(int n) { array_throttle_ = n; }
  /// How ready points become jobs: one each (point), one job per partition size running its
  /// points in sequence (partition), or one job of the largest partition running every point
  /// (sweep). With packing, max_active counts jobs, not points; each point keeps its own
  /// attempt, exit marker and result, and its state comes from its own exit marker.
  void set_pack(PackMode mode) { pack_ = mode; }
  /// How long the scheduler may stay unreachable (polls and submissions failing with
  /// SchedulerUnavailable), counted from the first failure any driver of the sweep saw, before
  /// a cycle gives up with SchedulerError.
  void set_outage_budget(std::chrono::seconds budget) { outage_budget_ = budget; }
  /// With `on`, each point's result is collected in the poll that sees the point done (not
  /// only by a collect at the end): a runs directory filled or deleted later costs at most the
  /// points still running. What it stored and found is kept (collected()).
  void set_collect_as_points_end(bool on) { collect_as_points_end_ = on; }
  /// With `on` (a driver that outlives no command to report it: pbench submit's), what it
  /// collects as points end is kept in the sweep's directory for the next `pbench collect` to
  /// report (collect/DriverCollected.hpp) instead of in collected().
  void set_collected_for_collect(bool on) { collected_for_collect_ = on; }
  /// What this driver collected as points ended (set_collect_as_points_end).
  const CollectReport& collected() const { return collected_; }
  /// Asked before each point is submitted (one job per point): false stops submitting for good
  /// (a node-hour budget the next point would pass, plan/SweepBudget.hpp); the points submitted
  /// go on and are collected, the rest stay planned. `gate` returns why in `why`.
  using SubmitGate = std::function<bool(const store::PointRecord& next, std::string& why)>;
  void set_submit_gate(SubmitGate gate) { gate_ = std::move(gate); }
  /// Why submitting stopped at the gate; empty while it has not.
  const std::string& submission_stopped() const { return stopped_; }
  /// Submits planned points while fewer than `max_active` are queued or running (and the
  /// user's queue is under the max_queued limit); returns how many it submitted. A submission the
  /// scheduler refuses (its message kept as a "rejected" attempt) leaves its point planned and ends
  /// this round: it is tried again next cycle.
  int submit_ready(int max_active);
  /// One cycle: submit, poll every active job in one call, submit again. Throws SchedulerError
  /// with the scheduler's message when a submission was refused and no job is left queued or
  /// running (nothing would change by waiting); the refused points stay planned.
  Progress cycle(int max_active);
  /// Makes failed, cancelled and timed-out points planned again (their attempts are kept);
  /// returns how many.
  int requeue_failed();
  /// Polls every queued or running point's job in one scheduler call and records the states.
  /// While the scheduler cannot be reached nothing changes (the outage is noted); throws
  /// SchedulerError once the outage has outlasted its budget.
  void poll_once();
  /// Submits and polls until no point is planned, queued or running, waiting `interval` between
  /// cycles and backing off (with jitter) to the scheduler's max_poll_interval() while nothing
  /// changes; `on_cycle` is called after each cycle with the progress.
  void drive(int max_active, std::chrono::milliseconds interval,
             const std::function<void(const Progress&)>& on_cycle);
  /// Cancels every queued or running job of the sweep; returns how many.
  int cancel_all();
  Progress progress();

 private:
  void record_final(store::AttemptRecord& attempt, const schedulers::JobStatus& status);
  store::AttemptRecord prepare_attempt(const store::PointRecord& point);
  void record_rejection(store::AttemptRecord& attempt, const std::string& message,
                        bool refused = true);
  /// The scheduler refused the job because the cluster can never give what it asks for (more
  /// nodes than it has, say): the attempt and its point fail with the scheduler's message.
  void record_impossible(store::AttemptRecord& attempt, const std::string& message);
  /// The scheduler could not be reached: starts or extends the outage (kept in the sweep
  /// directory for other processes); throws SchedulerError past the budget.
  void note_unavailable(const std::string& message);
  /// The scheduler answered: the outage, if any, is over.
  void note_available();
  std::string outage_file() const;
  /// Submits one job for `points` (one batch job, array or packed job) with `submit`, which
  /// returns the job id of each point's attempt in `attempts`; marks the points queued and adds
  /// them to `submitted`. Returns false when submitting must stop: the scheduler unreachable
  /// (the outage noted) or refusing the job (the attempts record either). With
  /// `may_be_impossible`, a job the cluster can never run fails its points and submitting goes
  /// on.
  bool submit_job(std::vector<store::AttemptRecord>& attempts,
                  const std::vector<store::PointRecord>& points,
                  const std::function<std::vector<std::string>()>& submit, bool may_be_impossible,
                  int& submitted);
  int submit_arrays(const std::vector<store::PointRecord>& ready);
  int submit_packs(const std::vector<store::PointRecord>& points, int max_active);

  store::Store& store_;
  schedulers::Scheduler& scheduler_;
  store::SweepRecord sweep_;
  int max_queued_ = 0;
  int array_throttle_ = 0;
  PackMode pack_ = PackMode::point;
  std::string rejection_;  ///< the scheduler's message for a refused submission this cycle
  std::chrono::seconds outage_budget_{600};
  bool in_outage_ = false;
  std::int64_t outage_since_ = 0;  ///< when this driver's outage began (seconds since the epoch)
  bool collect_as_points_end_ = false;
  bool collected_for_collect_ = false;
  CollectReport collected_;
  SubmitGate gate_;
  std::string stopped_;
};

/// The last `max_bytes` of a file (whole lines), or "" when it cannot be read.
std::string file_tail(const std::string& path, std::size_t max_bytes);

}  // namespace pbench::run
