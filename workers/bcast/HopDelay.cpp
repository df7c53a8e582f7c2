#include "bcast/HopDelay.hpp"

#include <mpi.h>

#include <cmath>
#include <ctime>

namespace pbench::bcast {

namespace {

// Why sleep, then spin. With more ranks than cores (the 3-4 rank validation runs on 2 cores)
// every rank waiting in MPI spins and never yields. A delaying rank that busy-waits competes
// with them for a core: its wait still ends on time by the wall clock, but it keeps a core from
// the rank that must receive its message next, and if it is preempted near its deadline the hop
// grows by a scheduler time slice (milliseconds). A rank that sleeps gives its core away for the
// delay and, as a woken sleeper, is scheduled promptly at the deadline. Measured on this 2-core
// machine (tests/integration/bcast, 4 ranks, d = 30 ms, linear, OL vs 3d): see the commit
// message and the report; sleeping held OL within a few percent of the model where busy waiting
// scattered more. The last kSpinSeconds are spun so the delay is exact to microseconds for small
// d (a sleep can overshoot by the timer slack, ~50 us), which keeps small-delay runs on idle
// cores as precise as a busy wait.
constexpr double kSpinSeconds = 200e-6;

void sleep_for(double seconds) {
  timespec request{};
  request.tv_sec = static_cast<time_t>(seconds);
  request.tv_nsec = static_cast<long>((seconds - std::floor(seconds)) * 1e9);
  while (nanosleep(&request, &request) != 0) {
  }
}

}  // namespace

HopDelay::HopDelay(double seconds) : seconds_(seconds > 0 ? seconds : 0) {}

void HopDelay::wait() const {
  if (seconds_ <= 0) return;
  ++waits_;
  const double deadline = MPI_Wtime() + seconds_;
  for (double left = seconds_; left > kSpinSeconds; left = deadline - MPI_Wtime()) {
    sleep_for(left - kSpinSeconds);
  }
  while (MPI_Wtime() < deadline) {
  }
}

}  // namespace pbench::bcast
