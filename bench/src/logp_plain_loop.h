/* The plain nonblocking 8-byte ping-pong of rank 0 with rank 1 on MPI_COMM_WORLD, made of the
 * calls pbench-logp's EEL makes (METHODS.md 4, "nonblocking calls throughout"): MPI_Irecv,
 * MPI_Isend, two MPI_Waits; the partner MPI_Irecv, MPI_Wait, MPI_Isend, MPI_Wait; the worker's
 * tags and a barrier before each run. Returns half the mean round trip [s]. One definition for
 * logp_plain.c (a program of its own) and logp_loop_ab.cpp (beside the worker's loop). */
#pragma once
#include <mpi.h>

enum { LOGP_PING_TAG = 21, LOGP_PONG_TAG = 22 }; /* pbench-logp's (workers/logp/PingPong.cpp) */

static inline double logp_plain_pingpong_nonblocking(int rank, char* in, char* out,
                                                     int roundtrips) {
  MPI_Request send, recv;
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  for (int i = 0; i < roundtrips; ++i) {
    if (rank == 0) {
      MPI_Irecv(in, 8, MPI_BYTE, 1, LOGP_PONG_TAG, MPI_COMM_WORLD, &recv);
      MPI_Isend(out, 8, MPI_BYTE, 1, LOGP_PING_TAG, MPI_COMM_WORLD, &send);
      MPI_Wait(&send, MPI_STATUS_IGNORE);
      MPI_Wait(&recv, MPI_STATUS_IGNORE);
    } else if (rank == 1) {
      MPI_Irecv(in, 8, MPI_BYTE, 0, LOGP_PING_TAG, MPI_COMM_WORLD, &recv);
      MPI_Wait(&recv, MPI_STATUS_IGNORE);
      MPI_Isend(in, 8, MPI_BYTE, 0, LOGP_PONG_TAG, MPI_COMM_WORLD, &send);
      MPI_Wait(&send, MPI_STATUS_IGNORE);
    }
  }
  return (MPI_Wtime() - t0) / roundtrips / 2.0;
}
