/* The plain MPI reference for bench/logp_vs_plain.sh: the same measurements as pbench-logp's
 * EEL and large-message flood, written as the shortest loops MPI allows, so any overhead of the
 * worker's harness shows as a difference.
 *
 *   logp_plain ROUNDTRIPS RUNS SIZE MESSAGES QUEUE_DEPTH
 *
 * Rank 0 prints one line: eel_min_s=... eel_nb_min_s=... eel_nb_median_s=... pingpong_bw_Bps=...
 * flood_bw_Bps=...
 * eel_min: the minimum over RUNS of half the 8-byte round trip (ROUNDTRIPS per run), blocking
 * MPI_Send/MPI_Recv as osu_latency and IMB PingPong do.
 * eel_nb_min: the same with the method's nonblocking calls (METHODS.md 4: "nonblocking calls
 * throughout"), as pbench-logp makes them (workers/logp/PingPong.cpp): MPI_Irecv, MPI_Isend, two
 * MPI_Waits; the partner MPI_Irecv, MPI_Wait, MPI_Isend, MPI_Wait; the worker's tags, its
 * communicator (MPI_COMM_WORLD; the worker's MPI_ERRORS_RETURN handler is not set here, so an
 * error still aborts: it made no difference to the time) and its barrier before each run. What
 * the worker adds, its data check, is made while the message is in flight. eel_nb_median: the
 * median over the RUNS of the same (pbench-logp's eel_median).
 * pingpong_bw: SIZE / half the round trip of a SIZE-byte ping-pong (best of RUNS).
 * flood_bw: SIZE * MESSAGES / time of a flood keeping QUEUE_DEPTH sends outstanding, closed by
 * a one-byte reply (best of RUNS). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "logp_plain_loop.h"

static double pingpong(int rank, char* buf, int size, int roundtrips) {
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  for (int i = 0; i < roundtrips; ++i) {
    if (rank == 0) {
      MPI_Send(buf, size, MPI_BYTE, 1, 0, MPI_COMM_WORLD);
      MPI_Recv(buf, size, MPI_BYTE, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    } else if (rank == 1) {
      MPI_Recv(buf, size, MPI_BYTE, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Send(buf, size, MPI_BYTE, 0, 0, MPI_COMM_WORLD);
    }
  }
  return (MPI_Wtime() - t0) / roundtrips / 2.0;
}

static int by_value(const void* a, const void* b) {
  double x = *(const double*)a, y = *(const double*)b;
  return (x > y) - (x < y);
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, nprocs = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nprocs);
  int roundtrips = 0, runs = 0, size = 0, messages = 0, depth = 0;
  if (argc == 6) {
    roundtrips = atoi(argv[1]), runs = atoi(argv[2]), size = atoi(argv[3]);
    messages = atoi(argv[4]), depth = atoi(argv[5]);
  }
  if (nprocs != 2 || roundtrips < 1 || runs < 1 || size < 8 || messages < 1 || depth < 1) {
    if (rank == 0)
      fprintf(stderr,
              "usage: mpiexec -n 2 logp_plain ROUNDTRIPS RUNS SIZE MESSAGES QUEUE_DEPTH "
              "(each a positive number, SIZE at least 8)\n");
    MPI_Finalize();
    return 2;
  }
  char* buf = malloc((size_t)size);
  memset(buf, 1, (size_t)size);
  int warmup = roundtrips < 1000 ? roundtrips : 1000; /* pbench-logp's warm-up run */
  char in[8] = {0}, out[8] = {1};
  double* nb_runs = malloc(sizeof(double) * (size_t)runs);
  double eel = 1e30, eel_nb = 1e30, pp = 1e30, fl = 1e30;
  /* pbench-logp's order: its EEL first, one untimed warm-up run and then the timed runs back to
   * back (a barrier before each), so that both minima are taken over the same span of time;
   * the blocking ping-pong the same way after it, then the large messages. */
  logp_plain_pingpong_nonblocking(rank, in, out, warmup);
  for (int r = 0; r < runs; ++r) {
    nb_runs[r] = logp_plain_pingpong_nonblocking(rank, in, out, roundtrips);
    if (nb_runs[r] < eel_nb) eel_nb = nb_runs[r];
  }
  pingpong(rank, buf, 8, warmup);
  for (int r = 0; r < runs; ++r) {
    double t = pingpong(rank, buf, 8, roundtrips);
    if (t < eel) eel = t;
  }
  for (int r = 0; r < runs; ++r) {
    double t = pingpong(rank, buf, size, 10);
    if (t < pp) pp = t;
    t = logp_plain_flood(rank, buf, size, messages, depth);
    if (t < fl) fl = t;
  }
  qsort(nb_runs, (size_t)runs, sizeof(double), by_value);
  double eel_nb_median =
      runs % 2 ? nb_runs[runs / 2] : (nb_runs[runs / 2 - 1] + nb_runs[runs / 2]) / 2;
  if (rank == 0) {
    printf(
        "eel_min_s=%.9g eel_nb_min_s=%.9g eel_nb_median_s=%.9g pingpong_bw_Bps=%.6g "
        "flood_bw_Bps=%.6g\n",
        eel, eel_nb, eel_nb_median, size / pp, (double)size * messages / fl);
  }
  free(nb_runs);
  free(buf);
  MPI_Finalize();
  return 0;
}
