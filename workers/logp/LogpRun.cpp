#include "logp/LogpRun.hpp"

#include <mpi.h>

#include <algorithm>
#include <memory>
#include <string>

#include "common/NodeLayout.hpp"
#include "logp/BusyLoop.hpp"
#include "logp/Flood.hpp"
#include "logp/FloodPlan.hpp"
#include "logp/OverlapTest.hpp"
#include "logp/PairLayout.hpp"
#include "logp/PingPong.hpp"
#include "logp/RankGather.hpp"

namespace pbench::logp {

namespace {

constexpr int kCalibrationTrials = 5;
constexpr std::int64_t kWarmupRoundtrips = 1000;

std::string communicator_name(MPI_Comm comm) {
  char name[MPI_MAX_OBJECT_NAME] = {};
  int length = 0;
  MPI_Comm_get_name(comm, name, &length);
  return length > 0 ? std::string(name, static_cast<std::size_t>(length)) : "unnamed";
}

}  // namespace

LogpRun::LogpRun(const worker::MpiSession& mpi, const LogpParameters& parameters,
                 worker::DeadlineWatch* deadline)
    : mpi_(mpi), parameters_(parameters), deadline_(deadline) {}

std::optional<LogpMeasurements> LogpRun::measure() {
  const MPI_Comm world = mpi_.world();
  // Pairs placed on the nodes from the host of every rank (the same list on every rank).
  const worker::NodeLayout nodes(mpi_.rank_hosts());
  const PairLayout layout(mpi_.rank(),
                          PairPlacement::place(nodes, parse_pair_mode(parameters_.pairs)));
  const bool root = mpi_.is_root();
  const PairRole role = layout.role();
  const double started = MPI_Wtime();

  LogpMeasurements m;
  m.parameters = parameters_;
  m.nprocs = mpi_.size();
  m.pairs = layout.pair_count();
  m.idle_ranks = layout.idle_ranks();
  m.placement_notes = layout.placement().notes();
  for (int k = 0; k < layout.pair_count(); ++k) {
    const int sender = layout.sender_of(k);
    const int receiver = layout.receiver_of(k);
    m.placement.push_back({k, sender, receiver, nodes.host_of(sender), nodes.host_of(receiver)});
  }
  if (layout.pair_count() == 0) {
    if (root) return m;
    return std::nullopt;
  }

  const BusyLoop busy = calibrate(m, layout);
  PingPong ping_pong(world, layout.partner());
  measure_eel(m, role, layout, ping_pong);
  // Flood sweep: repetitions outermost, so each point's repetitions are spread over the run.
  const FloodPlan plan(parameters_);
  const std::vector<int>& depths = parameters_.queue_depths;
  std::unique_ptr<Flood> flood;
  if (role != PairRole::idle) {
    flood = std::make_unique<Flood>(world, layout.partner(), plan.pool_bytes(depths));
  }
  measure_floods(m, role, layout, plan, flood.get());

  // CPU overlap test, 8 bytes at q = 1: send side, then receive side.
  OverlapTest overlap(world, layout, flood.get(), busy,
                      plan.messages(OverlapTest::kMessageBytes, 1),
                      static_cast<int>(parameters_.repetitions));
  for (OverlapSide side : {OverlapSide::send, OverlapSide::recv}) {
    if (deadline_reached(std::string("the overlap test, ") + side_name(side) + " side")) break;
    auto rows = overlap.run(side);
    m.overlap.insert(m.overlap.end(), rows.begin(), rows.end());
  }

  // Data checks of every rank.
  unsigned long long errors = ping_pong.data_errors() + (flood ? flood->data_errors() : 0);
  unsigned long long all_errors = 0;
  MPI_Reduce(&errors, &all_errors, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, 0, world);
  m.data_errors = static_cast<std::size_t>(all_errors);
  m.seconds = MPI_Wtime() - started;
  if (root) return m;
  return std::nullopt;
}

bool LogpRun::deadline_reached(const std::string& where) const {
  // The deadline's clean points: every rank asks at the same place, rank 0 decides.
  return deadline_ && deadline_->reached(mpi_.world(), where);
}

BusyLoop LogpRun::calibrate(LogpMeasurements& m, const PairLayout& layout) const {
  const MPI_Comm world = mpi_.world();
  // Busy loop calibration, every rank at once (as the loop will run during the test).
  MPI_Barrier(world);
  const BusyLoop busy = BusyLoop::calibrate(0.005, kCalibrationTrials);
  {
    std::vector<double> local{busy.iterations_per_second()};
    for (const auto& t : busy.trials()) {
      local.push_back(static_cast<double>(t.iterations));
      local.push_back(t.seconds);
    }
    local.resize(1 + 2 * kCalibrationTrials, 0.0);
    const auto all = gather_to_root(local, world);
    for (int r = 0; r < static_cast<int>(all.size()); ++r) {
      const auto& v = all[static_cast<std::size_t>(r)];
      for (int t = 0; t < kCalibrationTrials; ++t) {
        m.calibration.push_back({r, role_name(layout.role_of(r)), t,
                                 static_cast<std::uint64_t>(v[1 + 2 * t]), v[2 + 2 * t], v[0]});
      }
    }
  }

  return busy;
}

void LogpRun::measure_eel(LogpMeasurements& m, PairRole role, const PairLayout& layout,
                          PingPong& ping_pong) const {
  const MPI_Comm world = mpi_.world();
  // EEL: ping-pong, one untimed warm-up run, then the timed runs.
  const std::int64_t roundtrips = parameters_.eel_roundtrips;
  m.eel_communicator = communicator_name(world);
  std::vector<double> eel_totals;
  for (std::int64_t run = -1; run < parameters_.eel_runs; ++run) {
    if (deadline_reached("EEL run " + std::to_string(run + 1) + " of " +
                         std::to_string(parameters_.eel_runs) + " (0: the warm-up)")) {
      break;
    }
    const std::int64_t count = run < 0 ? std::min(kWarmupRoundtrips, roundtrips) : roundtrips;
    MPI_Barrier(world);
    double total = 0;
    if (role == PairRole::sender) total = ping_pong.initiate(count);
    if (role == PairRole::receiver) ping_pong.respond(count);
    if (run >= 0) eel_totals.push_back(total);
  }
  {
    const auto all = gather_to_root(eel_totals, world);
    for (int pair = 0; pair < layout.pair_count() && !all.empty(); ++pair) {
      const auto& totals = all[static_cast<std::size_t>(layout.sender_of(pair))];
      for (int run = 0; run < static_cast<int>(totals.size()); ++run) {
        m.eel.push_back({pair, run, roundtrips, totals[static_cast<std::size_t>(run)]});
      }
    }
  }
}

void LogpRun::measure_floods(LogpMeasurements& m, PairRole role, const PairLayout& layout,
                             const FloodPlan& plan, Flood* flood) const {
  const MPI_Comm world = mpi_.world();
  const std::vector<int>& depths = parameters_.queue_depths;
  auto flood_once = [&](const FloodPoint& point) {
    MPI_Barrier(world);
    if (role == PairRole::sender) return flood->send(point);
    if (role == PairRole::receiver) flood->receive(point);
    return 0.0;
  };
  if (!deadline_reached("the flood warm-up")) {
    const int deepest = *std::max_element(depths.begin(), depths.end());
    const std::size_t first = plan.sizes().front();
    flood_once({first, deepest, plan.messages(first, deepest), 0});  // warm-up, untimed
  }
  std::vector<double> flood_totals;
  int repetitions_done = 0;
  for (int rep = 0; rep < parameters_.repetitions; ++rep) {
    if (deadline_reached("flood repetition " + std::to_string(rep + 1) + " of " +
                         std::to_string(parameters_.repetitions))) {
      break;
    }
    ++repetitions_done;
    for (int q : depths) {
      for (std::size_t size : plan.sizes()) {
        flood_totals.push_back(flood_once({size, q, plan.messages(size, q), 0}));
      }
    }
  }
  {
    const auto all = gather_to_root(flood_totals, world);
    for (int pair = 0; pair < layout.pair_count() && !all.empty(); ++pair) {
      const auto& totals = all[static_cast<std::size_t>(layout.sender_of(pair))];
      std::size_t i = 0;
      for (int rep = 0; rep < repetitions_done; ++rep) {
        for (int q : depths) {
          for (std::size_t size : plan.sizes()) {
            m.flood.push_back({pair, q, size, plan.messages(size, q), rep, totals[i++]});
          }
        }
      }
    }
  }
}

}  // namespace pbench::logp
