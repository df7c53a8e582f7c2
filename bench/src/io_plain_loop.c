/* io_plain_loop DIR BYTES_PER_PROCESS CHUNK: the plainest MPI-IO loop, as a yardstick for
 * pbench-io. Each process writes BYTES_PER_PROCESS to its own file in CHUNK-byte calls
 * (MPI_File_write, then MPI_File_sync inside the timing), then reads it back the same way.
 * Prints "write BYTES SECONDS" and "read BYTES SECONDS" (all processes' bytes, the slowest
 * process's time) and removes the files. One page-aligned CHUNK buffer, reused for every call,
 * as IOR's is (a malloc of a MiB starts 16 bytes past a page boundary on glibc, where reads of
 * cached pages ran at a third of the aligned speed on the development machine). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static double timed(MPI_File fh, char* buffer, long long chunk, long long calls, int write) {
  MPI_Barrier(MPI_COMM_WORLD);
  double start = MPI_Wtime();
  for (long long i = 0; i < calls; ++i) {
    int rc = write ? MPI_File_write(fh, buffer, (int)chunk, MPI_BYTE, MPI_STATUS_IGNORE)
                   : MPI_File_read(fh, buffer, (int)chunk, MPI_BYTE, MPI_STATUS_IGNORE);
    if (rc != MPI_SUCCESS) {
      fprintf(stderr, "io_plain_loop: %s failed\n", write ? "write" : "read");
      MPI_Abort(MPI_COMM_WORLD, 1);
    }
  }
  if (write) MPI_File_sync(fh);
  double mine = MPI_Wtime() - start, slowest = 0;
  MPI_Reduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
  return slowest;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc != 4) {
    if (rank == 0) fprintf(stderr, "usage: io_plain_loop DIR BYTES_PER_PROCESS CHUNK\n");
    MPI_Finalize();
    return 2;
  }
  long long bytes = atoll(argv[2]), chunk = atoll(argv[3]);
  if (bytes <= 0 || chunk <= 0 || chunk > (1LL << 30)) {
    if (rank == 0) fprintf(stderr, "io_plain_loop: bad sizes\n");
    MPI_Finalize();
    return 2;
  }
  long long calls = (bytes + chunk - 1) / chunk;
  char path[4096];
  snprintf(path, sizeof(path), "%s/plain_loop_rank%d", argv[1], rank);
  char* buffer = NULL;
  if (posix_memalign((void**)&buffer, 4096, (size_t)chunk) != 0) {
    fprintf(stderr, "io_plain_loop: no memory for %lld bytes\n", chunk);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  memset(buffer, 0x5a, (size_t)chunk);
  MPI_File fh;
  MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh);
  double w = timed(fh, buffer, chunk, calls, 1);
  MPI_File_close(&fh);
  MPI_File_open(MPI_COMM_SELF, path, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
  double r = timed(fh, buffer, chunk, calls, 0);
  MPI_File_close(&fh);
  MPI_File_delete(path, MPI_INFO_NULL);
  if (rank == 0) {
    printf("write %lld %.9f\nread %lld %.9f\n", calls * chunk * size, w, calls * chunk * size, r);
  }
  free(buffer);
  MPI_Finalize();
  return 0;
}
