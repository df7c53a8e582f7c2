#include "cli/SweepContext.hpp"

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iostream>
#include <thread>

#include "drive/PollBackoff.hpp"
#include "site/PartitionMaxTime.hpp"
#include "sweepdir/DriverLock.hpp"
#include "util/Error.hpp"

namespace pbench::cli {
namespace {

constexpr std::chrono::milliseconds kPollInterval{200};

volatile sig_atomic_t interrupted = 0;

/// The signal that came (SIGINT, SIGTERM); 0 while none has.
extern "C" void note_interrupt(int signal) {
  interrupted = signal;
}

/// SIGINT and SIGTERM set a flag while it lives (no SA_RESTART: a wait returns), and get their
/// earlier handlers back after.
class InterruptGuard {
 public:
  InterruptGuard() {
    interrupted = 0;
    struct sigaction action {};
    action.sa_handler = note_interrupt;
    sigemptyset(&action.sa_mask);
    ::sigaction(SIGINT, &action, &old_int_);
    ::sigaction(SIGTERM, &action, &old_term_);
  }
  ~InterruptGuard() {
    ::sigaction(SIGINT, &old_int_, nullptr);
    ::sigaction(SIGTERM, &old_term_, nullptr);
  }
  InterruptGuard(const InterruptGuard&) = delete;
  InterruptGuard& operator=(const InterruptGuard&) = delete;

 private:
  struct sigaction old_int_ {};
  struct sigaction old_term_ {};
};

/// Sleeps `duration` in short steps; false as soon as an interrupt came.
bool sleep_unless_interrupted(std::chrono::milliseconds duration) {
  const auto end = std::chrono::steady_clock::now() + duration;
  while (!interrupted) {
    const auto left = end - std::chrono::steady_clock::now();
    if (left <= std::chrono::milliseconds(0)) return true;
    std::this_thread::sleep_for(
        std::min<std::chrono::steady_clock::duration>(left, std::chrono::milliseconds(50)));
  }
  return false;
}

store::SweepRecord find(store::Store& store, const std::string& name) {
  auto sweep = store.find_sweep(name);
  if (!sweep) throw UsageError("no sweep named '" + name + "' in the store");
  return *sweep;
}

class ProgressDisplay {
 public:
  explicit ProgressDisplay(std::string name) : name_(std::move(name)), tty_(::isatty(2)) {}
  ~ProgressDisplay() {
    if (tty_ && shown_) std::cerr << "\n";
  }
  void show(const run::Progress& p) {
    const std::string line =
        "sweep " + name_ + ": " + p.line() + (p.note.empty() ? "" : "; " + p.note);
    if (line == last_) return;
    last_ = line;
    shown_ = true;
    if (tty_) {
      std::cerr << "\r\033[K" << line << std::flush;
    } else {
      std::cerr << line << "\n";
    }
  }

 private:
  std::string name_;
  bool tty_;
  bool shown_ = false;
  std::string last_;
};

}  // namespace

SweepContext::SweepContext(const std::string& db, const std::string& name,
                           store::Store::Access access)
    : store(store::Store::open(db, access)), sweep(find(store, name)) {
  scheduler = schedulers::make_scheduler(sweep.scheduler, runner);
  driver = std::make_unique<run::SweepDriver>(store, *scheduler, sweep);
}

std::string interrupted_message(const std::string& name, const run::Progress& progress) {
  using store::PointState;
  const int running = progress.count(PointState::running);
  const int queued = progress.count(PointState::queued);
  const int planned = progress.count(PointState::planned);
  std::string left;
  const auto add = [&](int n, const std::string& what) {
    if (n > 0) left += (left.empty() ? "" : ", ") + std::to_string(n) + " " + what;
  };
  add(running, "running");
  add(queued, "queued");
  add(planned, "planned (not submitted yet)");
  if (left.empty()) return "sweep " + name + ": interrupted; no point is left to run";
  return "sweep " + name + ": interrupted (" + progress.line() + "); still " + left +
         ": their jobs go on. Resume with 'pbench wait " + name +
         "' (follows them and submits the planned points), stop them with 'pbench cancel " + name +
         "'";
}

namespace {

/// How long a driver may take to end after the last point of its sweep settled (its last
/// scheduler call and store write; a scheduler command's own timeout is 60 s at most).
constexpr std::chrono::seconds kDriverEndWait{90};

/// Waits until no process holds the sweep's driver lock (the driver that settled its last point
/// has ended); says so when one still does after kDriverEndWait.
void await_driver_end(const std::string& sweep_dir) {
  const auto start = std::chrono::steady_clock::now();
  for (;;) {
    try {
      if (run::DriverLock(sweep_dir).owns_lock()) return;
    } catch (const std::runtime_error&) {
      return;  // no lock can be taken here at all (the runs directory gone or read-only)
    }
    if (std::chrono::steady_clock::now() - start > kDriverEndWait) {
      std::cerr << "pbench: warning: every point has settled, but the sweep's driver still runs "
                << kDriverEndWait.count() << " s later (see " << sweep_dir << "/driver.log)\n";
      return;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
}

}  // namespace

run::Progress follow_sweep(SweepContext& context, int max_parallel, double timeout_seconds,
                           bool* timed_out) {
  const InterruptGuard guard;
  if (timed_out) *timed_out = false;
  const auto stop = [&] {
    throw Interrupted(interrupted_message(context.sweep.name, context.driver->progress()),
                      interrupted);
  };
  ProgressDisplay display(context.sweep.name);
  const auto start = std::chrono::steady_clock::now();
  auto expired = [&] {
    const bool over =
        timeout_seconds > 0 &&
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() >
            timeout_seconds;
    if (over && timed_out) *timed_out = true;
    return over;
  };
  for (;;) {
    {
      run::DriverLock lock(context.sweep.directory);
      if (lock.owns_lock()) {
        // Nobody else drives this sweep: drive it here.
        run::PollBackoff backoff(kPollInterval,
                                 run::poll_ceiling(context.scheduler->max_poll_interval()));
        std::string last;
        for (;;) {
          const auto p = context.driver->cycle(max_parallel);
          display.show(p);
          if (!p.unfinished() || expired()) return p;
          // Submitting stopped at the budget: done once what was submitted has ended.
          if (!context.driver->submission_stopped().empty() &&
              p.count(store::PointState::queued) + p.count(store::PointState::running) == 0) {
            return p;
          }
          const bool changed = p.line() != last;
          last = p.line();
          if (interrupted ||
              !sleep_unless_interrupted(
                  std::chrono::duration_cast<std::chrono::milliseconds>(backoff.next(changed)))) {
            stop();
          }
        }
      }
    }
    const auto p = context.driver->progress();
    display.show(p);
    if (!p.unfinished()) {
      // Settled by another process's driver: it is gone (its lock free) before this says so,
      // so that nothing drives the sweep on after the command that followed it (issue 51).
      await_driver_end(context.sweep.directory);
      return p;
    }
    if (expired()) return p;
    if (!sleep_unless_interrupted(kPollInterval)) stop();
  }
}

std::vector<run::PastRun> stored_history(const std::string& db, const std::string& scheduler) {
  std::error_code ec;
  if (!std::filesystem::exists(db, ec)) return {};
  auto store = store::Store::open(db, store::Store::Access::read_only);
  return run::machine_history(store, scheduler);
}

void tell_max_time(run::PlanOptions& options, const sweep::SweepSpec& spec) {
  process::BoostProcessRunner runner;
  if (const auto told = site::partition_max_time(runner, spec.scheduler, spec.queue)) {
    options.told_max_time = told->seconds;
    options.told_max_source = told->source;
  }
}

int exit_code_of(const run::Progress& progress) {
  return progress.count(store::PointState::done) == progress.total ? 0 : 1;
}

int exit_code_of(const run::CollectReport& report) {
  // A result that breaks the contract, whether this collect or an earlier one refused it: 4;
  // a point that failed otherwise: 1, as for `run`.
  if (report.rejected > 0 || report.rejected_earlier > 0 || report.mislaunched > 0 ||
      report.impossible > 0 || report.not_its_point > 0 || report.breaks_rules > 0) {
    return 4;
  }
  return report.failed > 0 ? 1 : 0;
}

}  // namespace pbench::cli
