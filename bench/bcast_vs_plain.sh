#!/usr/bin/env bash
# Prints pbench-bcast's OL (MPI_Bcast, the OL_i method) beside a plain barrier-bracketed
# MPI_Bcast loop (bench/src/plain_bcast.c) at 2 ranks for the worker's default sizes, the two
# interleaved over several runs so that drifts of the machine's load hit both alike.
# Usage: bench/bcast_vs_plain.sh [RUNS (default 3)] [BUILD_DIR (default ./build)]
# Environment: PBENCH_BCAST_SIZES (default 8,256,65536,1048576), BENCH_M (default 100).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
runs=${1:-3}
build=${2:-$root/build}
sizes=${PBENCH_BCAST_SIZES:-8,256,65536,1048576}
m=${BENCH_M:-100}
worker=$build/workers/bcast/pbench-bcast
plain=$build/bench/plain_bcast
for binary in "$worker" "$plain"; do
  [[ -x $binary ]] || { echo "bcast_vs_plain: $binary not built (run scripts/build)" >&2; exit 2; }
done
[[ $runs =~ ^[1-9][0-9]*$ ]] || { echo "bcast_vs_plain: RUNS must be a positive number" >&2; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/bcast-bench.XXXXXX")
trap 'rm -rf "$work"' EXIT

for run in $(seq 1 "$runs"); do
  mpiexec -n 2 "$worker" --sizes "$sizes" --repetitions "$m" --output "$work/ol-$run.json" \
    > "$work/ol-$run.log"
  mpiexec -n 2 "$plain" "$sizes" "$m" 30 > "$work/plain-$run.txt"
done

/usr/bin/python3 - "$work" "$runs" <<'PY'
import json, statistics, sys
work, runs = sys.argv[1], int(sys.argv[2])
ol, plain, send, valid = {}, {}, {}, []
for run in range(1, runs + 1):
    doc = json.load(open(f"{work}/ol-{run}.json"))
    valid.append(doc["validity"]["valid"])
    for metric in doc["summary"]:
        size = metric["labels"].get("size")
        if metric["name"] == "ol":
            ol.setdefault(size, []).append(metric["value"])
        if metric["name"] == "send_latency":
            send.setdefault(size, []).append(metric["value"])
    for line in open(f"{work}/plain-{run}.txt"):
        size, seconds = line.split()
        plain.setdefault(int(size), []).append(float(seconds))
doc = json.load(open(f"{work}/ol-1.json"))
print(f"pbench-bcast OL (MPI_Bcast, OL_i method) vs a plain barrier-bracketed MPI_Bcast loop, "
      f"2 ranks, M = {doc['parameters']['repetitions']['value']}, {runs} interleaved runs")
print(f"MPI: {doc['mpi_library_version'].splitlines()[0]}")
print(f"{'size [B]':>10} {'OL [us]':>24} {'send latency [us]':>24} {'plain loop [us]':>24} {'plain/OL':>9}")
def cell(values):
    values = [v * 1e6 for v in values]
    return f"{statistics.mean(values):9.3f} ({min(values):.3f}-{max(values):.3f})"
for size in sorted(ol):
    ratio = statistics.mean(plain[size]) / statistics.mean(ol[size])
    print(f"{size:>10} {cell(ol[size]):>24} {cell(send[size]):>24} {cell(plain[size]):>24} {ratio:9.2f}")
print("mean (min-max) over runs; the worker's runs valid by the method's rules: "
      + ", ".join("yes" if v else "no" for v in valid))
print("per run (worker, then plain loop, alternating):")
print(f"{'run':>4} {'size [B]':>10} {'OL [us]':>12} {'plain [us]':>12}")
for run in range(runs):
    for size in sorted(ol):
        print(f"{run + 1:>4} {size:>10} {ol[size][run] * 1e6:12.3f} {plain[size][run] * 1e6:12.3f}")
PY
