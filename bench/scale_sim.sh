#!/usr/bin/env bash
# Beyond the machine, by simulation (issue 36 item 5): pbench's own cost for a sweep over a
# cluster of 10,000 nodes, with a simulated Slurm (bench/lib/fake_sbatch.sh and fake_slurm.py
# on PATH as sbatch, squeue, scancel and sacct: they count their calls, and every job ends with
# its worker's result, a real 2-process result relabelled to the job's processes and nodes).
# The sweep: every worker (logp at its three queue depths, comm, io, bcast, links) at its method
# settings over 99 partition sizes and shapes: every power of two from 1 to 8,192, its multiples
# by 3 and 5 below 10,000, and the shapes Nx8 for those N up to 1,250 nodes, Nx1 and Nx32 for every
# power of two N from 2 to 8,192. Each stage is one pbench command under /usr/bin/time -v: wall
# time and peak resident memory. Prints: expansion and rendering (pbench sweep), the plan,
# submission one job per point and as job arrays (--array), with the sbatch calls counted,
# polling (squeue calls against poll cycles, and the most job ids one call asked for), ingest
# (collect), the queries, status, reference and check, export and the HTML report.
# Usage: bench/scale_sim.sh [BUILD_DIR (default ./build)] [WORK_DIR (default: a temporary one)]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$root/build}
pbench=$build/orchestrator/pbench
[[ -x $pbench ]] || { echo "scale_sim: $pbench not built (run scripts/build)" >&2; exit 2; }
[[ -x /usr/bin/time ]] || { echo "scale_sim: needs /usr/bin/time (Debian package time)" >&2; exit 2; }
if [[ -n "${2:-}" ]]; then
  work=$2
  mkdir -p "$work"
else
  work=$(mktemp -d "${TMPDIR:-/tmp}/scale-sim.XXXXXX")
  trap 'rm -rf "$work"' EXIT
fi
cd "$work"
export FAKE_SLURM_DIR=$work/slurm
rm -rf "$FAKE_SLURM_DIR" sim.db seed.db runs report
mkdir -p "$FAKE_SLURM_DIR/seeds" fake-bin
export PBENCH_RUNS_DIR=$work/runs

# The seeds: one real result per worker, on 2 processes through the local scheduler (tiny
# settings: seconds a point).
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
PBENCH_DB=$work/seed.db "$pbench" run seed --workers logp,comm,io,bcast,links --partitions 2 \
  --queue-depths 1 -T 3 --set logp.eel_roundtrips=500 --set logp.eel_runs=10 \
  --set logp.max_size=131072 --set logp.repetitions=1 --set logp.flood_messages=500 \
  --set comm.memory_per_proc=16MiB --set comm.random_patterns=2 --set comm.repetitions=1 \
  --set io.memory_per_proc=1 --set io.cache_bytes=1000 \
  --set bcast.sizes=8,256,65536 --set bcast.repetitions=20 --set bcast.max_measurements=8 \
  --set links.latency_roundtrips=100 --set links.message_size=64KiB --set links.messages=2 \
  > seed.out 2>&1 || { tail -20 seed.out; echo "scale_sim: the seed sweep failed" >&2; exit 1; }
/usr/bin/python3 - "$work/seed.db" "$FAKE_SLURM_DIR/seeds" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.create_function("document", 1, lambda b: b and __import__("subprocess").run(
    ["zstd", "-dcq"], input=b, capture_output=True, check=True).stdout.decode())  # results.packed
for worker, document in db.execute(
        "select p.worker, document(r.packed) from results r join points p on p.id = r.point_id"):
    open(f"{sys.argv[2]}/{worker}.json", "w").write(document)
PY
for w in logp comm io bcast links; do
  [[ -s $FAKE_SLURM_DIR/seeds/$w.json ]] || { echo "scale_sim: no seed result of $w" >&2; exit 1; }
done

cp "$root/bench/lib/fake_sbatch.sh" fake-bin/sbatch
for command in squeue scancel sacct; do
  printf '#!/bin/sh\nexec /usr/bin/python3 %q %s "$@"\n' "$root/bench/lib/fake_slurm.py" "$command" \
    > "fake-bin/$command"
  chmod +x "fake-bin/$command"
done
export PATH=$work/fake-bin:$PATH

# The partitions: 37 plain sizes and 62 shapes.
parts=()
for ((p = 1; p <= 8192; p *= 2)); do parts+=("$p"); done
for m in 3 5; do for ((p = m; p < 10000; p *= 2)); do parts+=("$p"); done; done
for ((n = 2; n <= 8192; n *= 2)); do parts+=("${n}x1" "${n}x32"); done
for m in 1 3 5; do for ((n = m * 2; n <= 1250; n *= 2)); do parts+=("${n}x8"); done; done
partitions=$(IFS=,; echo "${parts[*]}")
echo "partitions: ${#parts[@]} ($partitions)"
sweep_args=(--scheduler slurm --workers logp,comm,io,bcast,links --partitions "$partitions")

printf '\n%-58s %10s %9s\n' "stage (one pbench command)" "wall" "peak RSS"
measure() {
  local label=$1 rc=0
  shift
  /usr/bin/time -v -o time.txt "$@" > stage.out 2> stage.err || rc=$?
  local wall rss
  wall=$(sed -n 's/.*Elapsed (wall clock) time (h:mm:ss or m:ss): //p' time.txt)
  rss=$(sed -n 's/.*Maximum resident set size (kbytes): //p' time.txt)
  printf '%-58s %10s %6d MB%s\n' "$label" "$wall" $((${rss:-0} / 1024)) \
    "$( ((rc == 0)) || echo " (exit $rc: $(grep -v '^\s*Command' stage.err | tail -1 | cut -c1-60))")"
}
count_calls() { grep -c "^$1" "$FAKE_SLURM_DIR/calls" 2>/dev/null || true; }
export PBENCH_DB=$work/sim.db

measure "sweep: expand and render (pbench sweep)" "$pbench" sweep sim "${sweep_args[@]}"
points=$(sqlite3 sim.db "select count(*) from points" 2>/dev/null || echo 0)
((points > 0)) || { cat stage.err >&2; echo "scale_sim: the sweep was not stored" >&2; exit 1; }
echo "  $points points, $(find runs/sim -name job.sh | wc -l) job scripts"
measure "plan (pbench plan)" "$pbench" plan sim
grep -m1 -i "node-hours" stage.out | cut -c1-150 || true
: > "$FAKE_SLURM_DIR/calls"
# Every point submitted at once (--max-parallel above the point count), driven to the end.
measure "submit, one job per point, and poll to the end" \
  "$pbench" submit sim --foreground --max-parallel 100000
sbatch_calls=$(count_calls sbatch)
squeue_calls=$(count_calls squeue)
widest=$(sed -n 's/^squeue //p' "$FAKE_SLURM_DIR/calls" | sort -n | tail -1)
echo "  sbatch calls: $sbatch_calls for $points points; squeue calls: $squeue_calls, the widest" \
  "asking for $widest job ids at once"
measure "collect: validate and store every result" "$pbench" collect sim
stored=$(sqlite3 sim.db "select count(*) from results")
echo "  $stored results stored, store $(du -m sim.db | cut -f1) MB"
measure "query system" "$pbench" query system --sweep sim
for w in logp comm io bcast links; do
  measure "query $w" "$pbench" query "$w" --sweep sim
  echo "  $(wc -l < stage.out) lines, widest $(awk '{ if (length > m) m = length } END { print m }' stage.out) columns"
done
measure "query points" "$pbench" query points --sweep sim
measure "status" "$pbench" status sim
echo "  widest line $(awk '{ if (length > m) m = length } END { print m }' stage.out) columns"
measure "reference" "$pbench" reference sim -o reference.json
measure "check against the reference" "$pbench" check sim --reference reference.json
measure "export (openmetrics)" "$pbench" export sim
echo "  $(grep -vc '^#' stage.out) samples"
measure "report (HTML with gnuplot figures)" "$pbench" report sim -o report
echo "  $(ls report | wc -l) files, $(du -sm report | cut -f1) MB"

# The same sweep as job arrays: one sbatch per partition's points of one shape.
: > "$FAKE_SLURM_DIR/calls"
PBENCH_DB=$work/array.db "$pbench" sweep simarray "${sweep_args[@]}" > /dev/null
PBENCH_DB=$work/array.db measure "submit as job arrays (--array 64), poll to the end" \
  "$pbench" submit simarray --foreground --array 64 --max-parallel 100000
echo "  sbatch calls: $(count_calls sbatch) for $points points; squeue calls: $(count_calls squeue)"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
