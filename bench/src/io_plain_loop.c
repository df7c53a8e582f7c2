/* io_plain_loop DIR BYTES_PER_PROCESS CHUNK [MODE]: the plainest MPI-IO loop, as a yardstick for
 * pbench-io. Each process writes BYTES_PER_PROCESS in CHUNK-byte calls (then MPI_File_sync
 * inside the timing), then reads it back the same way. MODE: "fpp" (the default), each process
 * its own file (MPI_File_write/read, IOR -F); "shared", one file for all, each process its own
 * contiguous segment (the segmented pattern: MPI_File_write_at/read_at at rank x
 * BYTES_PER_PROCESS + i x CHUNK, IOR without -F); "collective", the same with
 * MPI_File_write_at_all/read_at_all (IOR -c). Each process reads back what the next process
 * (rank + 1 mod size) wrote, as the consortium suite's read does (and IOR's -C), so that no
 * process reads its own writes.
 * Prints "write BYTES SECONDS" and "read BYTES SECONDS" (all processes' bytes, the slowest
 * process's time) and removes the files. One page-aligned CHUNK buffer, reused for every call,
 * as IOR's is (a malloc of a MiB starts 16 bytes past a page boundary on glibc, where reads of
 * cached pages ran at a third of the aligned speed on the development machine). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum Mode { kFilePerProcess, kShared, kCollective };

/* One call of the loop: the i-th chunk of this process's data. */
static int transfer(MPI_File fh, enum Mode mode, char* buffer, long long chunk, MPI_Offset at,
                    int write) {
  if (mode == kFilePerProcess) {
    return write ? MPI_File_write(fh, buffer, (int)chunk, MPI_BYTE, MPI_STATUS_IGNORE)
                 : MPI_File_read(fh, buffer, (int)chunk, MPI_BYTE, MPI_STATUS_IGNORE);
  }
  if (mode == kShared) {
    return write ? MPI_File_write_at(fh, at, buffer, (int)chunk, MPI_BYTE, MPI_STATUS_IGNORE)
                 : MPI_File_read_at(fh, at, buffer, (int)chunk, MPI_BYTE, MPI_STATUS_IGNORE);
  }
  return write ? MPI_File_write_at_all(fh, at, buffer, (int)chunk, MPI_BYTE, MPI_STATUS_IGNORE)
               : MPI_File_read_at_all(fh, at, buffer, (int)chunk, MPI_BYTE, MPI_STATUS_IGNORE);
}

static double timed(MPI_File fh, enum Mode mode, MPI_Offset segment, char* buffer,
                    long long chunk, long long calls, int write) {
  MPI_Barrier(MPI_COMM_WORLD);
  double start = MPI_Wtime();
  for (long long i = 0; i < calls; ++i) {
    int rc = transfer(fh, mode, buffer, chunk, segment + (MPI_Offset)(i * chunk), write);
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
  if (argc != 4 && argc != 5) {
    if (rank == 0) {
      fprintf(stderr, "usage: io_plain_loop DIR BYTES_PER_PROCESS CHUNK [fpp|shared|collective]\n");
    }
    MPI_Finalize();
    return 2;
  }
  enum Mode mode = kFilePerProcess;
  if (argc == 5) {
    if (strcmp(argv[4], "shared") == 0) {
      mode = kShared;
    } else if (strcmp(argv[4], "collective") == 0) {
      mode = kCollective;
    } else if (strcmp(argv[4], "fpp") != 0) {
      if (rank == 0) {
        fprintf(stderr, "io_plain_loop: MODE must be fpp, shared or collective, not '%s'\n",
                argv[4]);
      }
      MPI_Finalize();
      return 2;
    }
  }
  long long bytes = atoll(argv[2]), chunk = atoll(argv[3]);
  if (bytes <= 0 || chunk <= 0 || chunk > (1LL << 30)) {
    if (rank == 0) fprintf(stderr, "io_plain_loop: bad sizes\n");
    MPI_Finalize();
    return 2;
  }
  long long calls = (bytes + chunk - 1) / chunk;
  const int next = (rank + 1) % size;
  char path[4096], read_path[4096];
  if (mode == kFilePerProcess) {
    snprintf(path, sizeof(path), "%s/plain_loop_rank%d", argv[1], rank);
    snprintf(read_path, sizeof(read_path), "%s/plain_loop_rank%d", argv[1], next);
  } else {
    snprintf(path, sizeof(path), "%s/plain_loop_shared", argv[1]);
    snprintf(read_path, sizeof(read_path), "%s", path);
  }
  /* A file per process is opened by its process alone; a shared one by all. */
  MPI_Comm opener = mode == kFilePerProcess ? MPI_COMM_SELF : MPI_COMM_WORLD;
  const MPI_Offset per_process = (MPI_Offset)(calls * chunk);
  MPI_Offset segment = mode == kFilePerProcess ? 0 : (MPI_Offset)rank * per_process;
  MPI_Offset read_segment = mode == kFilePerProcess ? 0 : (MPI_Offset)next * per_process;
  char* buffer = NULL;
  if (posix_memalign((void**)&buffer, 4096, (size_t)chunk) != 0) {
    fprintf(stderr, "io_plain_loop: no memory for %lld bytes\n", chunk);
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  memset(buffer, 0x5a, (size_t)chunk);
  MPI_File fh;
  MPI_File_open(opener, path, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, &fh);
  double w = timed(fh, mode, segment, buffer, chunk, calls, 1);
  MPI_File_close(&fh);
  MPI_Barrier(MPI_COMM_WORLD); /* every file written before any is read */
  MPI_File_open(opener, read_path, MPI_MODE_RDONLY, MPI_INFO_NULL, &fh);
  double r = timed(fh, mode, read_segment, buffer, chunk, calls, 0);
  MPI_File_close(&fh);
  MPI_Barrier(MPI_COMM_WORLD); /* every file read before any is deleted */
  if (mode == kFilePerProcess || rank == 0) MPI_File_delete(path, MPI_INFO_NULL);
  if (rank == 0) {
    printf("write %lld %.9f\nread %lld %.9f\n", calls * chunk * size, w, calls * chunk * size, r);
  }
  free(buffer);
  MPI_Finalize();
  return 0;
}
