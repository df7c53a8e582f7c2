#!/usr/bin/env bash
# Usage: bench/worker_cost.sh [PS [BUILD_DIR]]
# What each worker's run costs as the number of processes P grows (issue 36, item 3): every
# worker (logp, comm, io, bcast) and the link matrix (links) at each P of PS (default
# 2,4,8,16,32) with tiny, fixed settings, and per worker a table of P and the run's `cost` (what
# the worker counted: point-to-point messages and bytes, collective calls, MPI-IO calls, passes
# of its measurement loops; wall time), each count with its ratio to the P before; then each
# count's growth law, the model among O(1), O(P), O(P log P), O(P^2), O(P^2 log P) and O(P^3)
# that fits the counts best (bench/cost_table.py). Counts are exact and do not
# depend on the machine's load where the loop lengths are fixed (logp, comm at one size, bcast at
# --max-measurements 8, links); io's are time-driven (T) and its counts follow the time. Wall
# times on a loaded machine, and with more ranks than cores, are only indicative.
# Runs under the Open MPI worker set (build/mpi/openmpi) with `--mca mpi_yield_when_idle 1`, so
# that ranks waiting on a shared core yield it (MPICH's busy polling makes 32 ranks on 2 cores
# crawl); PBENCH_COST_MPI=mpich runs the MPICH set instead. PBENCH_COST_KEEP=DIR keeps the
# result documents in DIR (and adds to the runs kept there); PBENCH_COST_WORKERS="comm bcast"
# runs only these workers; PBENCH_COST_BCAST_ARGS="--method sync" adds options to bcast's
# (its cost per method: bench/README.md).
set -euo pipefail
ps=${1:-2,4,8,16,32}
root=$(cd "$(dirname "$0")/.." && pwd)
build=${2:-$root/build}
mpi=${PBENCH_COST_MPI:-openmpi}
dir=$build/mpi/$mpi
launcher=$dir/launch/mpiexec
[[ -x $launcher ]] || { echo "worker_cost.sh: no launcher $launcher (build first)" >&2; exit 2; }
yield=()
[[ $mpi == openmpi ]] && yield=(--mca mpi_yield_when_idle 1)
work=${PBENCH_COST_KEEP:-$(mktemp -d "${TMPDIR:-/tmp}/pbench-cost.XXXXXX")}
mkdir -p "$work"
[[ -n ${PBENCH_COST_KEEP:-} ]] || trap 'rm -rf "$work"' EXIT
declare -A TINY=(
  [logp]="--eel-roundtrips 100 --eel-runs 2 --max-size 1024 --repetitions 1 --flood-messages 100 --queue-depths 1,8"
  [comm]="--memory-per-proc 1MiB --repetitions 1 --start-looplength 4 --sizes 1"
  [io]="-T 2 --memory-per-proc 1 --cache-bytes 1000"
  [bcast]="--sizes 8 --repetitions 10 --max-measurements 8 ${PBENCH_COST_BCAST_ARGS:-}"
  [links]="--latency-roundtrips 10 --message-size 1KiB --messages 4 --repetitions 1")
echo "worker_cost.sh: P = $ps, $mpi ($($launcher --version 2>&1 | head -1)), $(nproc) cores," \
  "load average $(cut -d' ' -f1-3 /proc/loadavg), $(date -u +%FT%TZ)"
for w in ${PBENCH_COST_WORKERS:-logp comm io bcast links}; do
  for p in ${ps//,/ }; do
    out=$work/$w-$p.json
    start=$(date +%s.%N)
    # shellcheck disable=SC2086
    if ! "$launcher" "${yield[@]}" -n "$p" "$dir/pbench-$w" ${TINY[$w]} --output "$out" \
        > "$work/$w-$p.log" 2>&1; then
      echo "pbench-$w at P = $p failed: $(tail -2 "$work/$w-$p.log")" >&2
      rm -f "$out"
    fi
    end=$(date +%s.%N)
    echo "$w $p $start $end" >> "$work/runs.txt"
  done
done
/usr/bin/python3 "$root/bench/cost_table.py" --wall "$work/runs.txt" "$work"
