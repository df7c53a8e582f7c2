#pragma once
// What the commands that act on a stored sweep share: the store, the sweep, its scheduler and
// a driver, plus the foreground loop with a progress display.
#include <memory>
#include <stdexcept>
#include <string>

#include "collect/Collector.hpp"
#include "drive/SweepDriver.hpp"
#include "plan/SweepCost.hpp"
#include "plan/SweepPlanner.hpp"
#include "process/ProcessRunner.hpp"
#include "schedulers/Scheduler.hpp"
#include "store/Store.hpp"

namespace pbench::cli {

struct SweepContext {
  /// Opens the store and finds the sweep; throws UsageError when there is no such sweep.
  SweepContext(const std::string& db, const std::string& name,
               store::Store::Access access = store::Store::Access::existing);

  store::Store store;
  store::SweepRecord sweep;
  process::BoostProcessRunner runner;
  std::unique_ptr<schedulers::Scheduler> scheduler;
  std::unique_ptr<run::SweepDriver> driver;
};

/// Ctrl-C (SIGINT) or SIGTERM while a sweep is followed: the jobs go on; the message says which
/// points are still queued, running or planned and how to resume or stop them.
class Interrupted : public std::runtime_error {
 public:
  Interrupted(const std::string& message, int signal)
      : std::runtime_error(message), signal_(signal) {}
  /// The exit status: 128 + the signal, as a shell reports it (SIGINT 130, SIGTERM 143).
  int exit_status() const { return 128 + signal_; }

 private:
  int signal_;
};

/// What a follower interrupted with `progress` left behind, and the commands that go on from
/// there: "sweep s: interrupted; 2 points still running, 1 queued ... pbench wait s ...".
std::string interrupted_message(const std::string& name, const run::Progress& progress);

/// Drives the sweep to the end in this process (when no other process does) or watches the
/// one that does, showing progress on stderr; returns the final progress. Throws Interrupted on
/// SIGINT or SIGTERM (handled only while it runs). `timed_out`, when given, says whether it
/// returned because `timeout_seconds` passed with points still to end.
run::Progress follow_sweep(SweepContext& context, int max_parallel, double timeout_seconds,
                           bool* timed_out = nullptr);

/// This machine's earlier runs of sweeps of `scheduler` in the store `db` (none when there is no
/// store yet), for a new sweep's plan to learn from.
std::vector<run::PastRun> stored_history(const std::string& db, const std::string& scheduler);

/// The longest time limit the scheduler tells for `spec`'s queue (site/PartitionMaxTime.hpp),
/// into `options`; nothing on the local scheduler or where it tells none.
void tell_max_time(run::PlanOptions& options, const sweep::SweepSpec& spec);

/// 0 when every point is done, 1 otherwise (failed, cancelled, timed out or unfinished).
int exit_code_of(const run::Progress& progress);
/// `wait`'s exit status when its --timeout passed with points still queued, running or
/// planned: they go on, and a script can tell that from a point that ended badly (1).
inline constexpr int kWaitTimedOut = 8;
/// 4 when collecting refused a result or stored one not launched as its point asked, else 0.
int exit_code_of(const run::CollectReport& report);

}  // namespace pbench::cli
