/* comm_plain L [REPEATS]: the plain MPI loops bench/comm_vs_plain.sh sets beside pbench-comm, on
 * 2 processes with messages of L bytes:
 *   ping-pong: rank 0 MPI_Send then MPI_Recv, rank 1 the reverse; 2 * L bytes per iteration
 *   ring:      both ranks MPI_Sendrecv with each other (a ring of two); 2 * L bytes per iteration
 *   memcpy:    rank 0 alone copies L bytes between two buffers (one core's copy bandwidth)
 * Each is timed over a loop of about 50 ms, REPEATS times (default 3); the best repeat counts,
 * as in b_eff. Prints one line: "pingpong_Bps=... ring_Bps=... memcpy_Bps=..." (bytes per
 * second: bytes moved by all processes / the slowest process's time). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

volatile char sink; /* reads the copies so they are not optimised away */

static long loop_length(long size) {
  /* about 50 ms at 10 GB/s, at least 10 */
  long n = 500000000L / (size > 0 ? size : 1);
  return n < 10 ? 10 : n;
}

static double slowest(double seconds) {
  double max = 0;
  MPI_Allreduce(&seconds, &max, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return max;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  long length = argc > 1 ? atol(argv[1]) : 0;
  int repeats = argc > 2 ? atoi(argv[2]) : 3;
  if (size != 2 || length < 1 || length > 1L << 30 || repeats < 1) {
    if (rank == 0)
      fprintf(stderr, "usage: mpiexec -n 2 comm_plain L [REPEATS] (1 <= L <= 1 GiB)\n");
    MPI_Finalize();
    return 2;
  }
  const int count = (int)length;
  const int peer = 1 - rank;
  char *send = malloc((size_t)length), *recv = malloc((size_t)length);
  if (send == NULL || recv == NULL) MPI_Abort(MPI_COMM_WORLD, 1);
  memset(send, rank + 1, (size_t)length);
  memset(recv, 0, (size_t)length);
  const long loops = loop_length(length);
  double pingpong = 0, ring = 0, copy = 0;

  for (int r = 0; r < repeats; ++r) {
    MPI_Barrier(MPI_COMM_WORLD);
    double start = MPI_Wtime();
    for (long i = 0; i < loops; ++i) {
      if (rank == 0) {
        MPI_Send(send, count, MPI_BYTE, peer, 0, MPI_COMM_WORLD);
        MPI_Recv(recv, count, MPI_BYTE, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      } else {
        MPI_Recv(recv, count, MPI_BYTE, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        MPI_Send(send, count, MPI_BYTE, peer, 0, MPI_COMM_WORLD);
      }
    }
    double bw = 2.0 * (double)length * (double)loops / slowest(MPI_Wtime() - start);
    if (bw > pingpong) pingpong = bw;

    MPI_Barrier(MPI_COMM_WORLD);
    start = MPI_Wtime();
    for (long i = 0; i < loops; ++i) {
      MPI_Sendrecv(send, count, MPI_BYTE, peer, 1, recv, count, MPI_BYTE, peer, 1, MPI_COMM_WORLD,
                   MPI_STATUS_IGNORE);
    }
    bw = 2.0 * (double)length * (double)loops / slowest(MPI_Wtime() - start);
    if (bw > ring) ring = bw;

    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
      start = MPI_Wtime();
      for (long i = 0; i < loops; ++i) {
        memcpy(recv, send, (size_t)length);
        send[i % length] = (char)i; /* keeps the copies from being merged */
      }
      bw = (double)length * (double)loops / (MPI_Wtime() - start);
      if (bw > copy) copy = bw;
      sink += recv[length - 1];
    }
  }
  if (rank == 0) {
    printf("pingpong_Bps=%.6g ring_Bps=%.6g memcpy_Bps=%.6g\n", pingpong, ring, copy);
  }
  free(send);
  free(recv);
  MPI_Finalize();
  return 0;
}
