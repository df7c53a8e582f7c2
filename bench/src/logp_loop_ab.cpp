// The worker's EEL loop (pbench::logp::PingPong, workers/logp/PingPong.cpp) beside the plain
// nonblocking ping-pong of the same calls (logp_plain_loop.h) in one process on 2 ranks, run
// by run in an order alternated from run to run, after one warm-up run of each: what the
// worker's loop itself costs, free of what moves from one launch to the next (the host's
// placement of the virtual CPUs and of the shared memory), which logp_vs_plain.sh's separate
// launches carry.
//
//   mpiexec -n 2 logp_loop_ab ROUNDTRIPS RUNS
//
// Rank 0 prints one line: plain_min_s=... plain_median_s=... logp_min_s=... logp_median_s=...
// ratio_median=... data_errors=...: the minimum and median over RUNS of half the round trip of
// each loop, the median over runs of logp/plain of each pair of neighbouring runs, and the
// worker's data check's count (0 unless a reply came back changed).
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "logp/PingPong.hpp"
#include "logp_plain_loop.h"

namespace {

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t n = values.size();
  return n % 2 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2;
}

}  // namespace

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  int nprocs = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
  const int roundtrips = argc == 3 ? std::atoi(argv[1]) : 0;
  const int runs = argc == 3 ? std::atoi(argv[2]) : 0;
  if (nprocs != 2 || roundtrips < 1 || runs < 1) {
    if (rank == 0) {
      std::fprintf(stderr,
                   "usage: mpiexec -n 2 logp_loop_ab ROUNDTRIPS RUNS (each a positive number)\n");
    }
    MPI_Finalize();
    return 2;
  }
  pbench::logp::PingPong worker(MPI_COMM_WORLD, 1 - rank);
  char in[8] = {0};
  char out[8] = {1};
  // The worker's run: a barrier, then the loop, as LogpRun makes it; half the round trip [s].
  const auto worker_run = [&](int count) {
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 1) {
      worker.respond(count);
      return 0.0;
    }
    return worker.initiate(count) / count / 2.0;
  };
  const int warmup = std::min(roundtrips, 1000);  // the worker's warm-up run
  logp_plain_pingpong_nonblocking(rank, in, out, warmup);
  worker_run(warmup);
  std::vector<double> plain;
  std::vector<double> logp;
  std::vector<double> ratios;
  for (int r = 0; r < runs; ++r) {
    if (r % 2 == 0) {
      plain.push_back(logp_plain_pingpong_nonblocking(rank, in, out, roundtrips));
      logp.push_back(worker_run(roundtrips));
    } else {
      logp.push_back(worker_run(roundtrips));
      plain.push_back(logp_plain_pingpong_nonblocking(rank, in, out, roundtrips));
    }
    ratios.push_back(logp.back() / plain.back());
  }
  if (rank == 0) {
    std::printf(
        "plain_min_s=%.9g plain_median_s=%.9g logp_min_s=%.9g logp_median_s=%.9g "
        "ratio_median=%.6g data_errors=%zu\n",
        *std::min_element(plain.begin(), plain.end()), median(plain),
        *std::min_element(logp.begin(), logp.end()), median(logp), median(ratios),
        worker.data_errors());
  }
  MPI_Finalize();
  return 0;
}
