/* plain_bcast: the naive broadcast timing pbench-bcast is compared with. For each message size
 * (bytes, comma-separated in argv[1]): one untimed MPI_Bcast, a barrier, M MPI_Bcast back to
 * back from rank 0, a barrier; every rank times the bracketed loop and the largest time / M is
 * printed by rank 0 as "size seconds_per_broadcast". M is argv[2] (default 100), repeated
 * argv[3] times (default 30) and the mean of those printed, like the worker's measurements.
 * Usage: mpiexec -n 2 plain_bcast 8,256,65536,1048576 [M] [measurements] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int parse_sizes(const char* text, long* sizes, int most) {
  int count = 0;
  const char* p = text;
  while (*p != '\0' && count < most) {
    char* end = NULL;
    const long value = strtol(p, &end, 10);
    if (end == p || value < 1 || (*end != ',' && *end != '\0')) return -1;
    sizes[count++] = value;
    p = (*end == ',') ? end + 1 : end;
  }
  return count;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  long sizes[64];
  const int nsizes = parse_sizes(argc > 1 ? argv[1] : "8,256,65536,1048576", sizes, 64);
  const long repetitions = argc > 2 ? atol(argv[2]) : 100;
  const long measurements = argc > 3 ? atol(argv[3]) : 30;
  if (nsizes <= 0 || repetitions < 1 || measurements < 1) {
    if (rank == 0) fprintf(stderr, "usage: plain_bcast SIZES [M] [measurements]\n");
    MPI_Finalize();
    return 2;
  }
  long largest = 0;
  for (int k = 0; k < nsizes; ++k) largest = sizes[k] > largest ? sizes[k] : largest;
  unsigned char* buffer = malloc((size_t)largest);
  memset(buffer, rank, (size_t)largest);
  for (int k = 0; k < nsizes; ++k) {
    const int count = (int)sizes[k];
    double sum = 0;
    for (long m = 0; m < measurements; ++m) {
      MPI_Bcast(buffer, count, MPI_BYTE, 0, MPI_COMM_WORLD);
      MPI_Barrier(MPI_COMM_WORLD);
      const double start = MPI_Wtime();
      for (long x = 0; x < repetitions; ++x) MPI_Bcast(buffer, count, MPI_BYTE, 0, MPI_COMM_WORLD);
      MPI_Barrier(MPI_COMM_WORLD);
      const double local = (MPI_Wtime() - start) / (double)repetitions;
      double slowest = 0;
      MPI_Reduce(&local, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
      sum += slowest;
    }
    if (rank == 0) printf("%ld %.9e\n", sizes[k], sum / (double)measurements);
  }
  free(buffer);
  MPI_Finalize();
  return 0;
}
