#include "bcast/BcastRun.hpp"

#include <algorithm>

#include "bcast/Broadcaster.hpp"
#include "bcast/TimedLoops.hpp"

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
  const RootOrder order =
      parameters_.root_order == "backward" ? RootOrder::backward : RootOrder::forward;
  const auto largest = [](const PerRank& all) {
    double most = 0;
    for (const auto& v : all) most = std::max(most, v[0]);
    return most;
  };

  const auto& sizes = parameters_.sizes.sizes();
  for (std::size_t index = 0; index < sizes.size(); ++index) {
    const std::int64_t size = sizes[index];
    const std::string at_size = "message size " + std::to_string(size) + " B (" +
                                std::to_string(index + 1) + " of " + std::to_string(sizes.size()) +
                                ")";
    if (deadline_ && deadline_->reached(world, at_size)) break;
    SizeMeasurements s;
    s.size = size;

    // Delivery from every root, not only the measured one: the own implementations relabel
    // ranks relative to the root, and a check from one root would not cover that.
    s.delivery_errors.assign(static_cast<std::size_t>(nprocs), 0);
    for (int from = 0; from < nprocs; ++from) {
      int wrong = 0;
      for (int trial = 0; trial < 2; ++trial) wrong |= loops.check_delivery(size, from, trial);
      MPI_Reduce(&wrong, &s.delivery_errors[static_cast<std::size_t>(from)], 1, MPI_INT, MPI_SUM, 0,
                 control);
    }

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

    for (int task = 0; whole && task < nprocs; ++task) {
      if (task == root) continue;
      TaskMeasurements t;
      t.task = task;
      whole = repeat(
          control, at_size + ", task " + std::to_string(task),
          [&] {
            const double rtl = loops.round_trip(task);
            const double e = loops.acknowledged_broadcasts(task, size);
            return std::vector<double>{rtl, e};
          },
          [&](const PerRank& all) {
            const auto& at_root = all[static_cast<std::size_t>(root)];
            t.rtl.add(at_root[0]);
            t.e.add(at_root[1]);
            return t.rtl.stable(rule_) && t.e.stable(rule_);
          });
      s.tasks.push_back(std::move(t));
    }

    whole = whole && repeat(
                         control, at_size + ", rounds",
                         [&] { return std::vector<double>{loops.rounds(size, order)}; },
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
                         [&] { return std::vector<double>{loops.all_acknowledge(size)}; },
                         [&](const PerRank& all) {
                           s.ack.add(all[static_cast<std::size_t>(root)][0]);
                           return s.ack.stable(rule_);
                         });

    if (!whole) break;
    if (reporter) m.sizes.push_back(std::move(s));
  }
  MPI_Comm_free(&control);
  m.seconds = MPI_Wtime() - started;
  if (reporter) return m;
  return std::nullopt;
}

}  // namespace pbench::bcast
