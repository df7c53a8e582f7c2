#include "bcast/ClockSync.hpp"

#include <cmath>
#include <ctime>
#include <functional>
#include <limits>
#include <stdexcept>

#include "common/MpiCost.hpp"

namespace pbench::bcast {

namespace {

constexpr int kClockPingTag = 51;
constexpr int kClockStampTag = 52;
constexpr int kClockModelTag = 53;
/// A wait for a global time sleeps until this close to it, then spins.
constexpr double kClockSpinSeconds = 200e-6;

void sleep_seconds(double seconds) {
  if (seconds <= 0) return;
  timespec request{};
  request.tv_sec = static_cast<time_t>(seconds);
  request.tv_nsec = static_cast<long>((seconds - std::floor(seconds)) * 1e9);
  while (nanosleep(&request, &request) != 0) {
  }
}

/// The lowest set bit of `rank` > 0.
int lowest_set_bit(int rank) {
  return rank & -rank;
}

}  // namespace

ClockSync::ClockSync(MPI_Comm comm, int fit_points, int ping_pongs, double fit_seconds,
                     MessageWait wait)
    : comm_(comm),
      fit_points_(fit_points),
      ping_pongs_(ping_pongs),
      fit_seconds_(fit_seconds),
      wait_(wait) {}

FitPoint ClockSync::ping(int server, bool global) const {
  FitPoint best;
  best.round_trip = std::numeric_limits<double>::infinity();
  char ping = 0;
  double stamp = 0;
  for (int k = 0; k < ping_pongs_; ++k) {
    const double t1 = global ? now() : MPI_Wtime();
    wait_.send(&ping, 1, server, kClockPingTag, comm_.get());
    wait_.receive(&stamp, sizeof stamp, server, kClockStampTag, comm_.get());
    const double t2 = global ? now() : MPI_Wtime();
    if (t2 - t1 < best.round_trip) best = {(t1 + t2) / 2, stamp - (t1 + t2) / 2, t2 - t1};
  }
  return best;
}

void ClockSync::answer(int client, int count, bool global) const {
  char ping = 0;
  for (int k = 0; k < count; ++k) {
    wait_.receive(&ping, 1, client, kClockPingTag, comm_.get());
    const double stamp = global ? now() : MPI_Wtime();
    wait_.send(&stamp, sizeof stamp, client, kClockStampTag, comm_.get());
  }
}

template <class Client, class Server>
void ClockSync::rounds(Client&& client, Server&& server) const {
  const int rank = comm_.rank();
  const int nprocs = comm_.size();
  for (int distance = 1; distance < nprocs; distance *= 2) {
    if (rank > 0 && lowest_set_bit(rank) == distance) {
      client(rank - distance);
    } else if ((rank == 0 || lowest_set_bit(rank) > distance) && rank + distance < nprocs) {
      server(rank + distance);
    }
  }
}

std::vector<double> ClockSync::pass_down(
    int count, const std::function<std::vector<double>(const std::vector<double>&)>& own) const {
  const int bytes = count * static_cast<int>(sizeof(double));
  const int rank = comm_.rank();
  const int nprocs = comm_.size();
  std::vector<double> parent;
  if (rank > 0) {
    parent.assign(static_cast<std::size_t>(count), 0);
    wait_.receive(parent.data(), bytes, rank - lowest_set_bit(rank), kClockModelTag, comm_.get());
  }
  const std::vector<double> mine = own(parent);
  for (int distance = 1; distance < nprocs && (rank == 0 || distance < lowest_set_bit(rank));
       distance *= 2) {
    if (rank + distance < nprocs) {
      wait_.send(mine.data(), bytes, rank + distance, kClockModelTag, comm_.get());
    }
  }
  return mine;
}

void ClockSync::learn() {
  ClockModel relative;  // local -> parent's local
  const int answers = fit_points_ * ping_pongs_;
  rounds(
      [&](int parent) {
        std::vector<FitPoint> points;
        for (int f = 0; f < fit_points_; ++f) {
          points.push_back(ping(parent, false));
          if (f + 1 < fit_points_) sleep_seconds(fit_seconds_ / (fit_points_ - 1));
        }
        relative = fit_clock(points);
      },
      [&](int child) { answer(child, answers, false); });
  worker::count_loops(answers);
  // Down the tree: a rank composes its model with its parent's, then passes it on.
  pass_down(5, [&](const std::vector<double>& p) {
    model_ = p.empty() ? ClockModel{} : relative.then(ClockModel{p[0], p[1], p[2], p[3], p[4]});
    return std::vector<double>{model_.slope, model_.intercept, model_.base_error, model_.error_rate,
                               model_.reference};
  });
  ++learnings_;
}

ClockRecord ClockSync::check() {
  FitPoint own;
  rounds([&](int parent) { own = ping(parent, true); },
         [&](int child) { answer(child, ping_pongs_, true); });
  ClockRecord record;
  pass_down(2, [&](const std::vector<double>& p) {
    if (!p.empty()) {
      record.measured_error = std::abs(own.offset) + p[0];
      record.check_uncertainty = own.round_trip / 2 + p[1];
    }
    return std::vector<double>{record.measured_error, record.check_uncertainty};
  });
  const double at = now();
  record.offset = model_.offset_at(at);
  record.drift_ppm = model_.drift_ppm();
  record.drift_uncertainty_ppm = model_.error_rate * 1e6;
  record.predicted_error = model_.predicted_error(at);
  return record;
}

double ClockSync::largest_predicted_error() const {
  const double own = model_.predicted_error(now());
  double largest = 0;
  MPI_Allreduce(&own, &largest, 1, MPI_DOUBLE, MPI_MAX, comm_.get());
  return largest;
}

double ClockSync::wait_until(double global) const {
  const double target = model_.local(global);
  for (double left = target - MPI_Wtime(); left > kClockSpinSeconds; left = target - MPI_Wtime()) {
    sleep_seconds(left - kClockSpinSeconds);
  }
  while (MPI_Wtime() < target) {
  }
  return now() - global;
}

}  // namespace pbench::bcast
