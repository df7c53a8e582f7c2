#include "bcast/SyncWindows.hpp"

#include <algorithm>

#include "common/MpiCost.hpp"

namespace pbench::bcast {

namespace {

/// The first window starts this long after rank 0 chose it (plus one window): the start must
/// reach every rank before it.
constexpr double kLead = 5e-3;
/// The pilot doubles the window at most this often (1 ms to about 65 s).
constexpr int kPilotSteps = 17;

}  // namespace

SyncWindows::SyncWindows(MPI_Comm comm, Broadcaster& broadcaster, ClockSync& clock, int root,
                         double tolerance)
    : comm_(comm), broadcaster_(broadcaster), clock_(clock), root_(root), tolerance_(tolerance) {}

WindowFigures SyncWindows::measure(std::int64_t bytes, std::int64_t windows, double window) {
  if (static_cast<std::int64_t>(buffer_.size()) < bytes) {
    buffer_.assign(static_cast<std::size_t>(bytes), 0);
  }
  double start = comm_.rank() == 0 ? clock_.now() + kLead + window : 0;
  MPI_Bcast(&start, 1, MPI_DOUBLE, 0, comm_.get());
  worker::count_loops(windows);
  std::vector<int> late(static_cast<std::size_t>(windows), 0);
  std::vector<double> arrival(static_cast<std::size_t>(windows), 0);
  for (std::int64_t k = 0; k < windows; ++k) {
    const double t = start + static_cast<double>(k) * window;
    late[static_cast<std::size_t>(k)] = clock_.wait_until(t) > tolerance_ ? 1 : 0;
    broadcaster_.broadcast(buffer_.data(), bytes, root_);
    arrival[static_cast<std::size_t>(k)] = clock_.now() - t;
  }
  std::vector<int> spoiled(late.size(), 0);
  MPI_Allreduce(late.data(), spoiled.data(), static_cast<int>(windows), MPI_INT, MPI_MAX,
                comm_.get());
  WindowFigures out;
  double sum = 0;
  int kept = 0;
  for (std::size_t k = 0; k < late.size(); ++k) {
    out.missed += late[k];
    out.latest = std::max(out.latest, arrival[k]);
    if (spoiled[k]) {
      ++out.spoiled;
      continue;
    }
    sum += arrival[k];
    out.longest = kept == 0 ? arrival[k] : std::max(out.longest, arrival[k]);
    ++kept;
  }
  out.mean_arrival = kept > 0 ? sum / kept : 0;
  return out;
}

double SyncWindows::find_window(std::int64_t bytes, double factor) {
  constexpr std::int64_t kPilotWindows = 3;
  double window = kFirstWindow;
  for (int step = 0; step < kPilotSteps; ++step) {
    const WindowFigures pilot = measure(bytes, kPilotWindows, window);
    double longest = 0;
    MPI_Allreduce(&pilot.latest, &longest, 1, MPI_DOUBLE, MPI_MAX, comm_.get());
    const double wanted = std::max(kLeast, factor * longest + 2 * tolerance_);
    if (wanted <= window) return wanted;
    window = std::max(2 * window, wanted);
  }
  return window;
}

}  // namespace pbench::bcast
