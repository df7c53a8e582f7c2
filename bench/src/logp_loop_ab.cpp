// The worker's loops beside the plain loops of the same calls (logp_plain_loop.h) in one
// process on 2 ranks, run by run in an order alternated from run to run, after one warm-up run
// of each: what the worker's loops themselves cost, free of what moves from one launch to the
// next (the host's placement of the virtual CPUs and of the shared memory), which
// logp_vs_plain.sh's separate launches carry. Two pairs of loops: the EEL ping-pong
// (pbench::logp::PingPong, workers/logp/PingPong.cpp) and, with SIZE and MESSAGES, the flood at
// queue depth 1 (pbench::logp::Flood, workers/logp/Flood.cpp: its own buffer pool, the data
// marks, the reply receive posted before the first send).
//
//   mpiexec -n 2 logp_loop_ab ROUNDTRIPS RUNS [SIZE MESSAGES]
//
// Rank 0 prints one line: plain_min_s=... plain_median_s=... logp_min_s=... logp_median_s=...
// ratio_median=... data_errors=...: the minimum and median over RUNS of half the round trip of
// each loop, the median over runs of logp/plain of each pair of neighbouring runs, and the
// worker's data checks' count (0 unless a message came through changed); with SIZE and
// MESSAGES also flood_plain_min_s=... flood_logp_min_s=... flood_ratio_median=...: the
// minimum over RUNS of each flood's time and the median over runs of logp/plain (times).
#include <mpi.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "logp/Flood.hpp"
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
  const bool flood = argc == 5;
  const int roundtrips = argc == 3 || flood ? std::atoi(argv[1]) : 0;
  const int runs = argc == 3 || flood ? std::atoi(argv[2]) : 0;
  const int size = flood ? std::atoi(argv[3]) : 8;
  const int messages = flood ? std::atoi(argv[4]) : 1;
  if (nprocs != 2 || roundtrips < 1 || runs < 1 || size < 8 || messages < 1) {
    if (rank == 0) {
      std::fprintf(stderr,
                   "usage: mpiexec -n 2 logp_loop_ab ROUNDTRIPS RUNS [SIZE MESSAGES] (each a "
                   "positive number, SIZE at least 8)\n");
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
  // The flood at q = 1: the worker's (its buffer pool sized as LogpRun sizes it for q = 1)
  // against the plain loop with one buffer, run by run alternated.
  std::vector<double> flood_plain;
  std::vector<double> flood_logp;
  std::vector<double> flood_ratios;
  std::size_t flood_errors = 0;
  if (flood) {
    std::vector<char> buffer(static_cast<std::size_t>(size), 1);
    pbench::logp::Flood worker_flood(MPI_COMM_WORLD, 1 - rank, static_cast<std::size_t>(size));
    const pbench::logp::FloodPoint point{static_cast<std::size_t>(size), 1,
                                         static_cast<std::size_t>(messages), 0};
    const auto worker_flood_run = [&] {
      MPI_Barrier(MPI_COMM_WORLD);
      if (rank == 1) {
        worker_flood.receive(point);
        return 0.0;
      }
      return worker_flood.send(point);
    };
    logp_plain_flood(rank, buffer.data(), size, messages, 1);  // warm-up of each
    worker_flood_run();
    for (int r = 0; r < runs; ++r) {
      if (r % 2 == 0) {
        flood_plain.push_back(logp_plain_flood(rank, buffer.data(), size, messages, 1));
        flood_logp.push_back(worker_flood_run());
      } else {
        flood_logp.push_back(worker_flood_run());
        flood_plain.push_back(logp_plain_flood(rank, buffer.data(), size, messages, 1));
      }
      flood_ratios.push_back(flood_logp.back() / flood_plain.back());
    }
    flood_errors = worker_flood.data_errors();
  }
  // The receiver counts the flood's data errors: rank 0 prints the sum.
  std::size_t errors = worker.data_errors() + flood_errors;
  std::size_t all_errors = 0;
  MPI_Reduce(&errors, &all_errors, 1, MPI_UNSIGNED_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    std::printf(
        "plain_min_s=%.9g plain_median_s=%.9g logp_min_s=%.9g logp_median_s=%.9g "
        "ratio_median=%.6g data_errors=%zu",
        *std::min_element(plain.begin(), plain.end()), median(plain),
        *std::min_element(logp.begin(), logp.end()), median(logp), median(ratios), all_errors);
    if (flood) {
      std::printf(" flood_plain_min_s=%.9g flood_logp_min_s=%.9g flood_ratio_median=%.6g",
                  *std::min_element(flood_plain.begin(), flood_plain.end()),
                  *std::min_element(flood_logp.begin(), flood_logp.end()),
                  median(flood_ratios));
    }
    std::printf("\n");
  }
  MPI_Finalize();
  return 0;
}
