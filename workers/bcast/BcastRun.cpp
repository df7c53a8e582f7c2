#include "bcast/BcastRun.hpp"

#include <algorithm>
#include <memory>
#include <random>

#include "bcast/Broadcaster.hpp"
#include "bcast/RankSample.hpp"
#include "common/NodeCores.hpp"

namespace pbench::bcast {

BcastRun::BcastRun(const worker::MpiSession& mpi, const BcastParameters& parameters,
                   worker::DeadlineWatch* deadline)
    : mpi_(mpi),
      parameters_(parameters),
      rule_{parameters.min_measurements(), parameters.max_measurements, kStableRelativeStddev},
      deadline_(deadline) {}

bool BcastRun::repeat(MPI_Comm control, const std::string& where,
                      const std::function<std::vector<double>()>& measure,
                      const std::function<bool(const PerRank&)>& absorb) const {
  const int nprocs = mpi_.size();
  for (std::int64_t count = 1;; ++count) {
    if (deadline_ &&
        deadline_->reached(control, where + ", measurement " + std::to_string(count))) {
      return false;
    }
    const std::vector<double> local = measure();
    const int k = static_cast<int>(local.size());
    std::vector<double> all(mpi_.is_root() ? static_cast<std::size_t>(k * nprocs) : 0);
    MPI_Gather(local.data(), k, MPI_DOUBLE, all.data(), k, MPI_DOUBLE, 0, control);
    int stop = 0;
    if (mpi_.is_root()) {
      PerRank per_rank(static_cast<std::size_t>(nprocs));
      for (int r = 0; r < nprocs; ++r) {
        per_rank[static_cast<std::size_t>(r)].assign(all.begin() + r * k,
                                                     all.begin() + (r + 1) * k);
      }
      const bool stable = absorb(per_rank);
      stop = (stable || rule_.exhausted(count)) ? 1 : 0;
    }
    MPI_Bcast(&stop, 1, MPI_INT, 0, control);
    if (stop) return true;
  }
}

void BcastRun::check_delivery(SizeMeasurements& s, TimedLoops& loops,
                              const std::vector<int>& roots, MPI_Comm control) const {
  // Delivery from more than the measured root: the own implementations relabel ranks relative
  // to the root, and a check from one root would not cover that.
  s.delivery_roots = roots;
  s.delivery_errors.assign(roots.size(), 0);
  for (std::size_t k = 0; k < roots.size(); ++k) {
    int wrong = 0;
    for (int trial = 0; trial < 2; ++trial) wrong |= loops.check_delivery(s.size, roots[k], trial);
    MPI_Reduce(&wrong, &s.delivery_errors[k], 1, MPI_INT, MPI_SUM, 0, control);
  }
}

bool BcastRun::measure_ol_i(SizeMeasurements& s, TimedLoops& loops, const std::vector<int>& tasks,
                            MPI_Comm control, const std::string& at_size) const {
  const int root = parameters_.root;
  for (int task : tasks) {
    TaskMeasurements t;
    t.task = task;
    const bool whole = repeat(
        control, at_size + ", task " + std::to_string(task),
        [&] {
          const double rtl = loops.round_trip(task);
          const double e = loops.acknowledged_broadcasts(task, s.size);
          return std::vector<double>{rtl, e};
        },
        [&](const PerRank& all) {
          const auto& at_root = all[static_cast<std::size_t>(root)];
          t.rtl.add(at_root[0]);
          t.e.add(at_root[1]);
          return t.rtl.stable(rule_) && t.e.stable(rule_);
        });
    s.tasks.push_back(std::move(t));
    if (!whole) return false;
  }
  return true;
}

std::vector<int> BcastRun::pick_checked(const SyncMeasurements& sync, std::uint64_t seed) const {
  const int root = parameters_.root;
  std::vector<std::pair<double, int>> by_arrival;
  for (int j = 0; j < static_cast<int>(sync.arrivals.size()); ++j) {
    if (j != root) by_arrival.emplace_back(sync.arrivals[static_cast<std::size_t>(j)].stats().mean, j);
  }
  std::stable_sort(by_arrival.begin(), by_arrival.end(),
                   [](const auto& a, const auto& b) { return a.first > b.first; });
  std::vector<int> out;
  const auto k = static_cast<std::size_t>(parameters_.check_tasks);
  for (std::size_t i = 0; i < by_arrival.size() && i < k; ++i) out.push_back(by_arrival[i].second);
  if (by_arrival.size() > out.size()) {
    std::mt19937_64 random(seed);
    std::uniform_int_distribution<std::size_t> pick(out.size(), by_arrival.size() - 1);
    out.push_back(by_arrival[pick(random)].second);
  }
  return out;
}

bool BcastRun::measure_sync(SizeMeasurements& s, ClockSync& clock, SyncWindows& windows,
                            BcastMeasurements& m, MPI_Comm control, const std::string& at_size,
                            std::vector<int>& checked) const {
  const int nprocs = mpi_.size();
  const int root = parameters_.root;
  const double bound = parameters_.clock_error_bound_us * 1e-6;
  int learned = 0;
  // Collective: every rank sees the same largest predicted error, so all decide alike.
  const auto relearn = [&] {
    const bool first = clock.learnings() == 0;
    if (!first && (learned >= kRelearningsPerSize || clock.largest_predicted_error() <= bound))
      return;
    clock.learn();
    ++learned;
    const ClockRecord record = clock.check();
    double largest = 0;
    MPI_Reduce(&record.measured_error, &largest, 1, MPI_DOUBLE, MPI_MAX, 0, control);
    if (mpi_.is_root()) m.learned_errors.push_back(largest);
  };
  relearn();
  SyncMeasurements sync;
  sync.predicted_error = clock.largest_predicted_error();
  sync.window = windows.find_window(s.size, kWindowFactor);
  sync.missed.assign(static_cast<std::size_t>(nprocs), 0);
  sync.arrivals.resize(static_cast<std::size_t>(nprocs));
  const std::int64_t windows_per = parameters_.repetitions;
  const bool whole = repeat(
      control, at_size + ", synchronized windows",
      [&] {
        relearn();
        const WindowFigures f = windows.measure(s.size, windows_per, sync.window);
        return std::vector<double>{f.mean_arrival, static_cast<double>(f.spoiled),
                                   static_cast<double>(f.missed)};
      },
      [&](const PerRank& all) {
        const auto spoiled = static_cast<std::int64_t>(all[0][1]);
        sync.windows += windows_per;
        sync.spoiled += spoiled;
        double latest = 0;
        for (int j = 0; j < nprocs; ++j) {
          const auto& v = all[static_cast<std::size_t>(j)];
          sync.missed[static_cast<std::size_t>(j)] += static_cast<std::int64_t>(v[2]);
          if (spoiled >= windows_per) continue;
          sync.arrivals[static_cast<std::size_t>(j)].add(v[0]);
          if (j != root) latest = std::max(latest, v[0]);
        }
        if (spoiled < windows_per) sync.ol.add(latest);
        return sync.ol.stable(rule_);
      });
  sync.learnings = clock.learnings();
  std::vector<int> picked;
  if (mpi_.is_root()) picked = pick_checked(sync, m.seed);
  int count = static_cast<int>(picked.size());
  MPI_Bcast(&count, 1, MPI_INT, 0, control);
  picked.resize(static_cast<std::size_t>(count));
  MPI_Bcast(picked.data(), count, MPI_INT, 0, control);
  checked = picked;
  sync.checked = picked;
  if (parameters_.check_tasks < static_cast<std::int64_t>(picked.size())) {
    sync.random_task = picked.back();
  }
  s.sync = std::move(sync);
  return whole;
}

bool BcastRun::measure_classic(SizeMeasurements& s, TimedLoops& loops, const BcastMeasurements& m,
                               MPI_Comm control, const std::string& at_size) const {
  const int root = parameters_.root;
  const std::int64_t size = s.size;
  const auto largest = [](const PerRank& all) {
    double most = 0;
    for (const auto& v : all) most = std::max(most, v[0]);
    return most;
  };
  bool whole = repeat(
      control, at_size + ", rounds",
      [&] { return std::vector<double>{loops.rounds(size, m.round_roots)}; },
      [&](const PerRank& all) {
        s.rounds.add(largest(all));
        return s.rounds.stable(rule_);
      });
  whole = whole && repeat(
                       control, at_size + ", barrier pairs",
                       [&] { return std::vector<double>{loops.barrier_pairs(size)}; },
                       [&](const PerRank& all) {
                         s.barrier.add(largest(all));
                         return s.barrier.stable(rule_);
                       });
  whole = whole && repeat(
                       control, at_size + ", acknowledgements",
                       [&] { return std::vector<double>{loops.all_acknowledge(size, m.ack_tasks)}; },
                       [&](const PerRank& all) {
                         s.ack.add(all[static_cast<std::size_t>(root)][0]);
                         return s.ack.stable(rule_);
                       });
  return whole;
}

void BcastRun::gather_clocks(ClockSync& clock, BcastMeasurements& m, MPI_Comm control) const {
  const ClockRecord r = clock.check();
  constexpr int kFields = 6;
  const double mine[kFields] = {r.offset,          r.drift_ppm,      r.drift_uncertainty_ppm,
                                r.predicted_error, r.measured_error, r.check_uncertainty};
  std::vector<double> all(mpi_.is_root() ? static_cast<std::size_t>(kFields * mpi_.size()) : 0);
  MPI_Gather(mine, kFields, MPI_DOUBLE, all.data(), kFields, MPI_DOUBLE, 0, control);
  m.learnings = clock.learnings();
  for (int j = 0; mpi_.is_root() && j < mpi_.size(); ++j) {
    const double* v = all.data() + kFields * j;
    m.clocks.push_back({v[0], v[1], v[2], v[3], v[4], v[5]});
  }
}

std::optional<BcastMeasurements> BcastRun::measure() {
  const MPI_Comm world = mpi_.world();
  const int nprocs = mpi_.size();
  const int root = parameters_.root;
  const bool reporter = mpi_.is_root();
  const double started = MPI_Wtime();

  BcastMeasurements m;
  m.parameters = parameters_;
  m.nprocs = nprocs;
  m.rule = rule_;
  m.method = parameters_.method_for(nprocs);
  m.rank_hosts = mpi_.rank_hosts();  // collective: before any rank leaves
  if (nprocs < 2) {
    if (reporter) return m;
    return std::nullopt;
  }

  MPI_Comm control = MPI_COMM_NULL;
  MPI_Comm_dup(world, &control);
  // A validation run (synthetic hop delay) polls for its messages: see MessageWait.
  const MessageWait wait(parameters_.hop_delay_us > 0 ? kValidationPollSeconds : 0);
  auto broadcaster =
      make_broadcaster(parameters_.impl, world, parameters_.hop_delay_us * 1e-6, wait);
  m.shape = broadcaster->shape();
  TimedLoops loops(world, *broadcaster, root, parameters_.repetitions, wait);
  const int sample = static_cast<int>(std::min<std::int64_t>(parameters_.classic_sample, nprocs));
  m.round_roots = round_roots(nprocs, root, parameters_.root_order == "backward" ? -1 : 1, sample);
  m.ack_tasks = spread_ranks(nprocs, root, sample);
  const std::vector<int> delivery_roots = spread_ranks(nprocs, -1, sample);
  const bool sync = m.method == "sync";
  std::unique_ptr<ClockSync> clock;
  std::unique_ptr<SyncWindows> windows;
  if (sync) {
    // The clock's ping-pongs spin in MPI where every rank has a core: a polling wait's sleep
    // and wake-up (tens of microseconds, unevenly on the two ways) would enter each fit point's
    // offset and, over a short fit, the drift. With more ranks than cores they poll (see
    // MessageWait): a spinning rank would hold the core its partner needs.
    const bool oversubscribed =
        worker::oversubscription_reason(mpi_.node_cores(m.rank_hosts)).has_value();
    clock = std::make_unique<ClockSync>(world, kClockFitPoints, kClockPingPongs,
                                        parameters_.clock_fit_seconds,
                                        oversubscribed ? wait : MessageWait(0));
    windows = std::make_unique<SyncWindows>(world, *broadcaster, *clock, root,
                                            parameters_.clock_error_bound_us * 1e-6);
    if (reporter) m.seed = std::random_device{}();
  }
  std::vector<int> every_task;
  for (int task = 0; task < nprocs; ++task) {
    if (task != root) every_task.push_back(task);
  }

  const auto& sizes = parameters_.sizes.sizes();
  for (std::size_t index = 0; index < sizes.size(); ++index) {
    const std::int64_t size = sizes[index];
    const std::string at_size = "message size " + std::to_string(size) + " B (" +
                                std::to_string(index + 1) + " of " + std::to_string(sizes.size()) +
                                ")";
    if (deadline_ && deadline_->reached(world, at_size)) break;
    SizeMeasurements s;
    s.size = size;
    check_delivery(s, loops, delivery_roots, control);

    s.gaps.resize(static_cast<std::size_t>(nprocs));
    // A size the deadline cuts short is dropped whole: the sizes kept are complete.
    bool whole = repeat(
        control, at_size + ", repeated broadcasts",
        [&] { return std::vector<double>{loops.repeated_broadcasts(size)}; },
        [&](const PerRank& all) {
          bool stable = true;
          for (int j = 0; j < nprocs; ++j) {
            auto& series = s.gaps[static_cast<std::size_t>(j)];
            series.add(all[static_cast<std::size_t>(j)][0]);
            stable = series.stable(rule_) && stable;
          }
          return stable;
        });
    std::vector<int> tasks = every_task;
    if (sync && whole) whole = measure_sync(s, *clock, *windows, m, control, at_size, tasks);
    whole = whole && measure_ol_i(s, loops, tasks, control, at_size);
    whole = whole && measure_classic(s, loops, m, control, at_size);
    if (!whole) break;
    if (reporter) m.sizes.push_back(std::move(s));
  }
  if (sync) gather_clocks(*clock, m, control);
  MPI_Comm_free(&control);
  m.seconds = MPI_Wtime() - started;
  if (reporter) return m;
  return std::nullopt;
}

}  // namespace pbench::bcast
