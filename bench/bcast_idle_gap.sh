#!/usr/bin/env bash
# Prints how long one MPI_Bcast takes after a stretch outside MPI (bench/src/bcast_idle_gap.c)
# at 2 ranks: the state the synchronized-clock method's windows time each broadcast in (a gap of
# about its window), against the back-to-back loop of the OL_i method (gap 0). The gaps are
# interleaved over several runs so that drifts of the host hit each alike; per size and gap the
# median over runs of each run's median time of the receiver (rank 1), and its range.
# Usage: bench/bcast_idle_gap.sh [RUNS (default 3)] [BUILD_DIR (default ./build)]
# Environment: PBENCH_BCAST_SIZES (default 65536,1048576), PBENCH_GAPS_US (default
# 0,100,500,1000,2000), BENCH_N (iterations per run, default 400).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
runs=${1:-3}
build=${2:-$root/build}
sizes=${PBENCH_BCAST_SIZES:-65536,1048576}
gaps=${PBENCH_GAPS_US:-0,100,500,1000,2000}
n=${BENCH_N:-400}
program=$build/bench/bcast_idle_gap
[[ -x $program ]] || { echo "bcast_idle_gap: $program not built (run scripts/build)" >&2; exit 2; }
[[ $runs =~ ^[1-9][0-9]*$ ]] || { echo "bcast_idle_gap: RUNS must be a positive number" >&2; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/bcast-gap.XXXXXX")
trap 'rm -rf "$work"' EXIT

for run in $(seq 1 "$runs"); do
  for size in ${sizes//,/ }; do
    for gap in ${gaps//,/ }; do
      mpiexec -n 2 "$program" "$size" "$gap" "$n" >> "$work/lines.txt"
    done
  done
done

/usr/bin/python3 - "$work/lines.txt" <<'PY'
import statistics, sys
rows = {}
for line in open(sys.argv[1]):
    size, gap, rank, median, mean, least = line.split()
    if rank == "1":
        rows.setdefault((int(size), int(gap)), []).append(float(median))
print("| size [B] | gap outside MPI [us] | receiver's median [us] (median of runs) | range over runs [us] | / gap 0 |")
print("|---|---|---|---|---|")
for (size, gap), medians in sorted(rows.items()):
    base = statistics.median(rows[(size, 0)]) if (size, 0) in rows else float("nan")
    mid = statistics.median(medians)
    print(f"| {size} | {gap} | {mid:.2f} | {min(medians):.2f}-{max(medians):.2f} | {mid / base:.2f} |")
PY
