#include "cli/SweepContext.hpp"

#include <unistd.h>

#include <chrono>
#include <iostream>
#include <thread>

#include "run/DriverLock.hpp"
#include "run/PollBackoff.hpp"
#include "util/Error.hpp"

namespace pbench::cli {
namespace {

constexpr std::chrono::milliseconds kPollInterval{200};

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

run::Progress follow_sweep(SweepContext& context, int max_parallel, double timeout_seconds) {
  ProgressDisplay display(context.sweep.name);
  const auto start = std::chrono::steady_clock::now();
  auto expired = [&] {
    return timeout_seconds > 0 &&
           std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() >
               timeout_seconds;
  };
  for (;;) {
    {
      run::DriverLock lock(context.sweep.directory);
      if (lock.owns_lock()) {
        // Nobody else drives this sweep: drive it here.
        run::PollBackoff backoff(kPollInterval, context.scheduler->max_poll_interval());
        std::string last;
        for (;;) {
          const auto p = context.driver->cycle(max_parallel);
          display.show(p);
          if (!p.unfinished() || expired()) return p;
          const bool changed = p.line() != last;
          last = p.line();
          std::this_thread::sleep_for(backoff.next(changed));
        }
      }
    }
    const auto p = context.driver->progress();
    display.show(p);
    if (!p.unfinished() || expired()) return p;
    std::this_thread::sleep_for(kPollInterval);
  }
}

int exit_code_of(const run::Progress& progress) {
  return progress.count(store::PointState::done) == progress.total ? 0 : 1;
}

}  // namespace pbench::cli
