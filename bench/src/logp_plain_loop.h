/* The plain loops of pbench-logp's measurements on rank 0 and rank 1 of MPI_COMM_WORLD, one
 * definition for logp_plain.c (a program of its own) and logp_loop_ab.cpp (beside the worker's
 * loops in one process). */
#pragma once
#include <mpi.h>
#include <stdlib.h>

enum { LOGP_PING_TAG = 21, LOGP_PONG_TAG = 22 }; /* pbench-logp's (workers/logp/PingPong.cpp) */

/* The plain nonblocking 8-byte ping-pong, made of the calls pbench-logp's EEL makes (METHODS.md
 * 4, "nonblocking calls throughout"): MPI_Irecv, MPI_Isend, two MPI_Waits; the partner
 * MPI_Irecv, MPI_Wait, MPI_Isend, MPI_Wait; the worker's tags and a barrier before each run.
 * Returns half the mean round trip [s]. */
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

/* The plain flood: rank 0 sends MESSAGES of SIZE bytes from BUF to rank 1 in batches of DEPTH
 * (MPI_Isend ... MPI_Waitall), rank 1 receives them into BUF the same way and closes with a
 * one-byte reply; a barrier before. Returns the time from the first send to the reply [s]. */
static inline double logp_plain_flood(int rank, char* buf, int size, int messages, int depth) {
  MPI_Request* requests = (MPI_Request*)malloc(sizeof(MPI_Request) * (size_t)depth);
  char reply = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  for (int done = 0; done < messages;) {
    int batch = messages - done < depth ? messages - done : depth;
    for (int k = 0; k < batch; ++k) {
      if (rank == 0) {
        MPI_Isend(buf, size, MPI_BYTE, 1, 1, MPI_COMM_WORLD, &requests[k]);
      } else {
        MPI_Irecv(buf, size, MPI_BYTE, 0, 1, MPI_COMM_WORLD, &requests[k]);
      }
    }
    MPI_Waitall(batch, requests, MPI_STATUSES_IGNORE);
    done += batch;
  }
  if (rank == 0) {
    MPI_Recv(&reply, 1, MPI_BYTE, 1, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else {
    MPI_Send(&reply, 1, MPI_BYTE, 0, 2, MPI_COMM_WORLD);
  }
  double elapsed = MPI_Wtime() - t0;
  free(requests);
  return elapsed;
}
