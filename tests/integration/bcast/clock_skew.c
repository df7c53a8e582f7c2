/* A test-only clock for pbench-bcast's synchronized-clock tests: preloaded (LD_PRELOAD), it
 * interposes clock_gettime, which MPICH's MPI_Wtime reads, and makes rank r's clocks run
 * offset by OFFSET_r seconds and fast by DRIFT_r parts per million from the process's first
 * reading: t' = t + OFFSET_r + DRIFT_r * 1e-6 * (t - t_first).
 * PBENCH_CLOCK_SKEW="OFFSET_0:DRIFT_0,OFFSET_1:DRIFT_1,..." gives them per rank; the rank comes
 * from PMI_RANK (MPICH's Hydra) or OMPI_COMM_WORLD_RANK. A process without either (mpiexec
 * itself) or without an entry keeps the true clock. CPU-time clocks are never changed. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

typedef int (*clock_gettime_fn)(clockid_t, struct timespec*);

static clock_gettime_fn real_clock_gettime;
static int configured;
static double offset_seconds;
static double drift;
static double first[16];
static int have_first[16];

static void configure(void) {
  configured = 1;
  real_clock_gettime = (clock_gettime_fn)dlsym(RTLD_NEXT, "clock_gettime");
  const char* rank_text = getenv("PMI_RANK");
  if (!rank_text) rank_text = getenv("OMPI_COMM_WORLD_RANK");
  const char* skew = getenv("PBENCH_CLOCK_SKEW");
  if (!rank_text || !skew) return;
  int rank = atoi(rank_text);
  const char* entry = skew;
  for (int k = 0; k < rank && entry; ++k) {
    entry = strchr(entry, ',');
    if (entry) ++entry;
  }
  if (!entry || !*entry) return;
  char* end = NULL;
  offset_seconds = strtod(entry, &end);
  if (end && *end == ':') drift = strtod(end + 1, NULL) * 1e-6;
}

int clock_gettime(clockid_t clock, struct timespec* tp) {
  if (!configured) configure();
  int rc = real_clock_gettime(clock, tp);
  if (rc != 0 || (offset_seconds == 0 && drift == 0)) return rc;
  if (clock != CLOCK_REALTIME && clock != CLOCK_MONOTONIC && clock != CLOCK_MONOTONIC_RAW &&
      clock != CLOCK_BOOTTIME && clock != CLOCK_MONOTONIC_COARSE && clock != CLOCK_REALTIME_COARSE) {
    return rc;
  }
  const int slot = (int)clock & 15;
  const double t = (double)tp->tv_sec + 1e-9 * (double)tp->tv_nsec;
  if (!have_first[slot]) {
    first[slot] = t;
    have_first[slot] = 1;
  }
  const double skewed = t + offset_seconds + drift * (t - first[slot]);
  const double whole = floor(skewed);
  tp->tv_sec = (time_t)whole;
  tp->tv_nsec = (long)((skewed - whole) * 1e9);
  return rc;
}
