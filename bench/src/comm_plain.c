/* comm_plain L [REPEATS]: the plain MPI loops bench/comm_vs_plain.sh sets beside pbench-comm, on
 * 2 processes with messages of L bytes:
 *   ping-pong: rank 0 MPI_Send then MPI_Recv, rank 1 the reverse; 2 * L bytes per iteration
 *   ring:      both ranks MPI_Sendrecv with each other (a ring of two); 2 * L bytes per iteration
 *   memcpy:    rank 0 alone copies L bytes between two buffers (one core's copy bandwidth)
 * The two MPI loops run twice: on one fixed buffer pair ("hot": the same cache lines every
 * time), and moving through 6 message slots per direction as b_eff does ("cycled").
 * Each is timed over a loop of about 50 ms, REPEATS times (default 3); the best repeat counts,
 * as in b_eff. Prints one line of name=value pairs in bytes per second (bytes moved by all
 * processes / the slowest process's time): pingpong, pingpong_cycled, ring, ring_cycled,
 * memcpy. */
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
  /* 6 slots of L rounded up to 8 bytes, as pbench-comm's buffers for a ring of two */
  const size_t slot = ((size_t)length + 7) / 8 * 8;
  const size_t slots = 6;
  char *send = malloc(slots * slot), *recv = malloc(slots * slot);
  if (send == NULL || recv == NULL) MPI_Abort(MPI_COMM_WORLD, 1);
  memset(send, rank + 1, slots * slot);
  memset(recv, 0, slots * slot);
  const long loops = loop_length(length);
  double pingpong[2] = {0, 0}, ring[2] = {0, 0}, copy = 0;

  for (int r = 0; r < repeats; ++r) {
    for (int cycled = 0; cycled < 2; ++cycled) {
      size_t next = 0;
#define OFFSET() (cycled ? (next = (next + 1) % slots) * slot : 0)
      MPI_Barrier(MPI_COMM_WORLD);
      double start = MPI_Wtime();
      for (long i = 0; i < loops; ++i) {
        const size_t out = OFFSET(), in = OFFSET();
        if (rank == 0) {
          MPI_Send(send + out, count, MPI_BYTE, peer, 0, MPI_COMM_WORLD);
          MPI_Recv(recv + in, count, MPI_BYTE, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        } else {
          MPI_Recv(recv + in, count, MPI_BYTE, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
          MPI_Send(send + out, count, MPI_BYTE, peer, 0, MPI_COMM_WORLD);
        }
      }
      double bw = 2.0 * (double)length * (double)loops / slowest(MPI_Wtime() - start);
      if (bw > pingpong[cycled]) pingpong[cycled] = bw;

      MPI_Barrier(MPI_COMM_WORLD);
      start = MPI_Wtime();
      for (long i = 0; i < loops; ++i) {
        const size_t at = OFFSET();
        MPI_Sendrecv(send + at, count, MPI_BYTE, peer, 1, recv + at, count, MPI_BYTE, peer, 1,
                     MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      }
      bw = 2.0 * (double)length * (double)loops / slowest(MPI_Wtime() - start);
      if (bw > ring[cycled]) ring[cycled] = bw;
#undef OFFSET
    }

    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
      const double start = MPI_Wtime();
      for (long i = 0; i < loops; ++i) {
        memcpy(recv, send, (size_t)length);
        send[i % length] = (char)i; /* keeps the copies from being merged */
      }
      const double bw = (double)length * (double)loops / (MPI_Wtime() - start);
      if (bw > copy) copy = bw;
      sink += recv[length - 1];
    }
  }
  if (rank == 0) {
    printf("pingpong=%.6g pingpong_cycled=%.6g ring=%.6g ring_cycled=%.6g memcpy=%.6g\n",
           pingpong[0], pingpong[1], ring[0], ring[1], copy);
  }
  free(send);
  free(recv);
  MPI_Finalize();
  return 0;
}
