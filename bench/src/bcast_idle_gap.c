/* bcast_idle_gap: how long one MPI_Bcast takes after a stretch of time outside MPI (issue 49).
 * The synchronized-clock method of pbench-bcast times broadcasts that each start a window after
 * the last (the ranks wait on the clock between them), the OL_i method times broadcasts back to
 * back; this program times the same MPI_Bcast both ways without any of the worker's code.
 * Each of N iterations: a barrier, GAP microseconds spent spinning on MPI_Wtime (no MPI call),
 * then one MPI_Bcast of SIZE bytes from rank 0 timed on each rank from its call to its return.
 * Rank 0 prints one line per rank: "size gap_us rank median_us mean_us least_us".
 * Usage: mpiexec -n 2 bcast_idle_gap SIZE GAP_US [N (default 400)] */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int ascending(const void* a, const void* b) {
  const double x = *(const double*)a;
  const double y = *(const double*)b;
  return x < y ? -1 : x > y;
}

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  int ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  const long size = argc > 2 ? atol(argv[1]) : 0;
  const double gap = argc > 2 ? atof(argv[2]) * 1e-6 : -1;
  const long n = argc > 3 ? atol(argv[3]) : 400;
  if (size < 1 || size > (1L << 30) || gap < 0 || gap > 1 || n < 1 || n > 1000000) {
    if (rank == 0) fprintf(stderr, "usage: bcast_idle_gap SIZE(1 B-1 GiB) GAP_US(0-1e6) [N]\n");
    MPI_Finalize();
    return 2;
  }
  unsigned char* buffer = calloc((size_t)size, 1);
  double* took = malloc((size_t)n * sizeof(double));
  MPI_Bcast(buffer, (int)size, MPI_BYTE, 0, MPI_COMM_WORLD);
  for (long i = 0; i < n; ++i) {
    MPI_Barrier(MPI_COMM_WORLD);
    const double idle = MPI_Wtime();
    while (MPI_Wtime() - idle < gap) {
    }
    const double start = MPI_Wtime();
    MPI_Bcast(buffer, (int)size, MPI_BYTE, 0, MPI_COMM_WORLD);
    took[i] = MPI_Wtime() - start;
  }
  qsort(took, (size_t)n, sizeof(double), ascending);
  double figures[3] = {took[n / 2], 0, took[0]};
  for (long i = 0; i < n; ++i) figures[1] += took[i] / (double)n;
  double* all = malloc(3 * (size_t)ranks * sizeof(double));
  MPI_Gather(figures, 3, MPI_DOUBLE, all, 3, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  if (rank == 0) {
    for (int r = 0; r < ranks; ++r) {
      printf("%ld %.0f %d %.3f %.3f %.3f\n", size, gap * 1e6, r, 1e6 * all[3 * r],
             1e6 * all[3 * r + 1], 1e6 * all[3 * r + 2]);
    }
  }
  free(all);
  free(took);
  free(buffer);
  MPI_Finalize();
  return 0;
}
