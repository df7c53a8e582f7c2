#include <algorithm>
#include <filesystem>
#include <iostream>
#include <memory>

#include "cli/CommandSummary.hpp"
#include "cli/Commands.hpp"
#include "cli/SweepContext.hpp"
#include "jobs/PackScript.hpp"
#include "plan/LaunchPreflight.hpp"
#include "plan/SweepCost.hpp"
#include "site/ProfileSweep.hpp"
#include "sweep/SweepSpec.hpp"
#include "sweepdir/DriverLock.hpp"
#include "sweepdir/SweepRuns.hpp"
#include "util/Error.hpp"
#include "util/Time.hpp"

namespace pbench::cli {
namespace fs = std::filesystem;

namespace {
struct SubmitOptions {
  std::string name;
  int max_parallel = 1;
  int max_queued = 0;
  int array = 0;
  std::string pack = "point";
  bool retry_failed = false;
  bool foreground = false;
  bool again = false;
  std::string format = "table";
};

/// What submit says: each line as it goes (table), or at the end the sweep's progress as one row
/// with the lines as its notes (json, the one schema of every command's summary).
class SubmitSummary {
 public:
  SubmitSummary(std::string sweep, bool json) : sweep_(std::move(sweep)), json_(json) {}
  void say(const std::string& line) {
    if (json_) {
      lines_.push_back("sweep " + sweep_ + ": " + line);
    } else {
      std::cout << "sweep " << sweep_ << ": " << line << "\n";
    }
  }
  void finish(const run::Progress& progress, int exit_status) const {
    if (!json_) return;
    auto table = progress_table(sweep_, progress, exit_status);
    table.notes.insert(table.notes.begin(), lines_.begin(), lines_.end());
    print_summary_json(table, {});
  }

 private:
  std::string sweep_;
  bool json_;
  std::vector<std::string> lines_;
};
}  // namespace

namespace {

// The options that apply only to some schedulers or exclude each other; returns --pack's mode.
run::PackMode checked_pack(const SubmitOptions& o, SweepContext& context) {
  if (o.max_queued > 0 && context.sweep.scheduler == "local") {
    throw UsageError("--max-queued applies to a batch scheduler (slurm or pbs), not local");
  }
  if (o.array > 0 && context.sweep.scheduler != "slurm") {
    throw UsageError("--array applies to --scheduler slurm, not " + context.sweep.scheduler);
  }
  const auto pack = run::pack_mode_from(o.pack);
  if (pack != run::PackMode::point && context.sweep.scheduler == "local") {
    throw UsageError("--pack " + o.pack +
                     " applies to a batch scheduler (slurm or pbs), not local");
  }
  if (pack != run::PackMode::point && o.array > 0) {
    throw UsageError("--pack " + o.pack + " and --array exclude each other");
  }
  if (pack == run::PackMode::sweep) {
    // One job has one shape: its steps cannot be placed as 2x1 and as 2x2 at once.
    const auto spec = sweep::SweepSpec::from_json(nlohmann::json::parse(context.sweep.spec_json));
    const bool shaped = std::any_of(spec.partitions.begin(), spec.partitions.end(),
                                    [](const sweep::Partition& p) { return p.has_shape(); });
    if (shaped && spec.partitions.size() > 1) {
      throw UsageError(
          "--pack sweep runs every point in one job of one shape, but the sweep's partitions "
          "have nodes x processes of their own: use --pack partition");
    }
  }
  return pack;
}

// --again starts the next run; --retry-failed plans failed points again (longer where they ran
// out of time).
void start_runs(const SubmitOptions& o, SweepContext& context, SubmitSummary& said) {
  if (o.again && o.retry_failed) {
    throw UsageError("--again and --retry-failed exclude each other");
  }
  if (o.again) {
    const auto spec = sweep::SweepSpec::from_json(nlohmann::json::parse(context.sweep.spec_json));
    if (const auto drift = site::profile_drift(spec.site, o.name)) {
      std::cerr << "pbench: warning: " << *drift << "\n";
    }
    const auto next = run::start_next_run(context.store, context.sweep);
    said.say("run " + std::to_string(next.run_no));
  }
  if (o.retry_failed) {
    // A point that ran out of time is planned longer (and its script's limit says so).
    for (const auto& line : run::lengthen_timed_out(context.store, context.sweep,
                                                    run::describe_worker_with(context.runner))) {
      said.say(line);
    }
    const int again = context.driver->requeue_failed();
    said.say(std::to_string(again) + " failed points planned again");
  }
}

// A background driver in its own session submits and tracks the points, so this command returns
// and the sweep goes on. `pbench wait` follows it (or takes over if it died). Returns its log.
std::string start_background_driver(const SubmitOptions& o, SweepContext& context,
                                    const GlobalOptions& global) {
  const std::string self = fs::read_symlink("/proc/self/exe").string();
  const std::string log = context.sweep.directory + "/driver.log";
  const int rc = context.runner.run_redirected(
      {"setsid", "-f", self, "--db", fs::absolute(global.db).string(), "--runs-dir",
       fs::absolute(global.runs_dir).string(), "--scheduler-outage",
       std::to_string(global.scheduler_outage), "_drive", o.name, "--max-parallel",
       std::to_string(o.max_parallel), "--max-queued", std::to_string(o.max_queued), "--array",
       std::to_string(o.array), "--pack", o.pack},
      context.sweep.directory, log, log);
  if (rc != 0) throw SchedulerError("could not start the background driver (see " + log + ")");
  return log;
}

}  // namespace

void add_submit_command(CLI::App& app, GlobalOptions& global) {
  auto* command = app.add_subcommand("submit", "Submit a sweep's planned points to its scheduler");
  auto o = std::make_shared<SubmitOptions>();
  command->add_option("name", o->name, "Sweep name")->required();
  command->add_option("--max-parallel", o->max_parallel, "Points running at once")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  command
      ->add_option("--max-queued", o->max_queued,
                   "At most this many of your jobs queued or running at once, counting your "
                   "other jobs too (slurm, pbs)")
      ->check(CLI::PositiveNumber);
  command
      ->add_option("--array", o->array,
                   "Submit each partition's points as one job array running at most N at once "
                   "(slurm)")
      ->check(CLI::PositiveNumber);
  command
      ->add_option("--pack", o->pack,
                   "point: one job per point; partition: one job per partition size running its "
                   "points one after another; sweep: one job of the largest partition running "
                   "every point (slurm, pbs). Each point keeps its own attempt, exit marker and "
                   "result; --max-parallel then counts jobs")
      ->capture_default_str();
  command->add_flag("--retry-failed", o->retry_failed,
                    "Run failed, cancelled and timed-out points again (earlier attempts are kept)");
  command->add_flag("--again", o->again,
                    "Run every point again as the sweep's next run (the earlier runs are kept: "
                    "pbench history NAME)");
  command->add_flag("--foreground", o->foreground,
                    "Drive the sweep in this process until it ends instead of in the background");
  add_summary_format_option(*command, o->format);
  command->callback([o, &global] {
    SweepContext context(global.db, o->name);
    SubmitSummary said(o->name, o->format == "json");
    const auto pack = checked_pack(*o, context);
    context.driver->set_max_queued(o->max_queued);
    context.driver->set_array_throttle(o->array);
    context.driver->set_pack(pack);
    context.driver->set_outage_budget(std::chrono::seconds(global.scheduler_outage));
    start_runs(*o, context, said);
    const auto before = context.driver->progress();
    if (!before.unfinished()) {
      said.say("nothing to submit (" + before.line() +
               "); failed points run again with --retry-failed");
      said.finish(before, 0);
      return;
    }
    // Before any point is submitted: a launcher or worker that cannot start is said now, not
    // as every point failing with exit 127.
    if (before.count(store::PointState::planned) > 0) {
      run::LaunchPreflight::check(
          sweep::SweepSpec::from_json(nlohmann::json::parse(context.sweep.spec_json)),
          context.runner);
    }
    said.say("planned " + run::plan_stored_sweep(context.store, context.sweep,
                                                 run::describe_worker_with(context.runner))
                              .summary());
    if (o->foreground) {
      // Collected by the collect that follows, as always: this process is watched to its end.
      const auto p = follow_sweep(context, o->max_parallel, 0);
      said.say(p.line());
      global.exit_code = exit_code_of(p);
      said.finish(p, global.exit_code);
      return;
    }
    {
      run::DriverLock probe(context.sweep.directory);
      if (!probe.owns_lock()) {
        said.say("already being driven (" + before.line() + ")");
        said.finish(before, 0);
        return;
      }
      // The first submissions happen here, so a refusal or a missing scheduler command is
      // reported by this command, not only in the driver's log.
      context.driver->cycle(o->max_parallel);
    }
    const std::string log = start_background_driver(*o, context, global);
    said.say("submitting " + before.line() + " (background driver, log " + log +
             "); follow with 'pbench wait " + o->name + "'");
    said.finish(context.driver->progress(), 0);
  });
}

void add_drive_command(CLI::App& app, GlobalOptions& global) {
  auto* command = app.add_subcommand("_drive", "(internal) drive a sweep to its end");
  command->group("");  // hidden from --help
  auto o = std::make_shared<SubmitOptions>();
  command->add_option("name", o->name)->required();
  command->add_option("--max-parallel", o->max_parallel)->check(CLI::PositiveNumber);
  command->add_option("--max-queued", o->max_queued)->check(CLI::NonNegativeNumber);
  command->add_option("--array", o->array)->check(CLI::NonNegativeNumber);
  command->add_option("--pack", o->pack);
  command->callback([o, &global] {
    SweepContext context(global.db, o->name);
    context.driver->set_max_queued(o->max_queued);
    context.driver->set_array_throttle(o->array);
    context.driver->set_pack(run::pack_mode_from(o->pack));
    context.driver->set_outage_budget(std::chrono::seconds(global.scheduler_outage));
    // Each result stored as its point ends, reported by the next collect.
    context.driver->set_collect_as_points_end(true);
    context.driver->set_collected_for_collect(true);
    run::DriverLock lock(context.sweep.directory);
    if (!lock.owns_lock()) return;  // another process drives this sweep
    // The log (driver.log) says when the scheduler became unreachable and when it answered.
    auto last_note = std::make_shared<std::string>();
    context.driver->drive(
        o->max_parallel, std::chrono::milliseconds(200), [last_note](const run::Progress& p) {
          if (p.note.empty() == last_note->empty()) return;
          std::cerr << utc_now() << " " << (p.note.empty() ? "the scheduler answers again" : p.note)
                    << std::endl;
          *last_note = p.note;
        });
  });
}

}  // namespace pbench::cli
