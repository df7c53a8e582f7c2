#!/usr/bin/env bash
# Is T a bound? (issues 14 and 41) pbench-io at 2 processes (partitions 2, as the issue's
# command) for each scheduled time T, with and without a collective-buffering hint
# (romio_cb_write=enable, which makes the collective writes slow), guarded (the default time
# guard, k = 3, and the plan of what cannot be cut) and, when asked, --unguarded (b_eff_io rev
# 2.1's behaviour): the wall time of each run and elapsed/T, the run's own elapsed from its
# result and its time account (patterns, opens and closes, deletion with the untimed probe,
# bookkeeping), the rows the guard cut, and whether the elapsed bound (1.10 T from 60 s, else
# 1.15 T + 3 s) was kept, with the first other validity reason.
#
#   bench/io_time_bound.sh [TIMES] [MB] [CAP] [DIR] [MODES]
#     TIMES  comma-separated scheduled times T in seconds (default 10,20,60)
#     MB     memory per process in MiB (default 256: M_PART = 2 MiB, the smallest)
#     CAP    a run still going after CAP x T is stopped and shown as "> CAP" (default 20; an
#            unguarded run can take far longer than T, which is what this measures)
#     DIR    where the runs write their files (default a new directory under /tmp)
#     MODES  guarded, unguarded or guarded,unguarded (default guarded)
# Needs a build (scripts/build). Runs one configuration after the other; the defaults make 6
# runs (about 3 minutes). MPI-IO timing means something only on an otherwise idle machine: the
# CPU and the load average are printed before, after and per run.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${PBENCH_BUILD_DIR:-$root/build}
times=${1:-10,20,60}
MB=${2:-256}
cap=${3:-20}
modes=${5:-guarded}
io=$build/workers/io/pbench-io
[[ -x $io ]] || { echo "missing $io: run scripts/build" >&2; exit 1; }
[[ $times =~ ^[0-9]+(\.[0-9]+)?(,[0-9]+(\.[0-9]+)?)*$ ]] || { echo "TIMES must be numbers separated by commas: '$times'" >&2; exit 2; }
[[ $MB =~ ^[1-9][0-9]*$ ]] || { echo "MB must be a positive integer: '$MB'" >&2; exit 2; }
[[ $cap =~ ^[1-9][0-9]*$ ]] || { echo "CAP must be a positive integer: '$cap'" >&2; exit 2; }
[[ $modes =~ ^(guarded|unguarded)(,(guarded|unguarded))?$ ]] || { echo "MODES must be guarded, unguarded or both, comma-separated: '$modes'" >&2; exit 2; }
work=$(mktemp -d "${4:-/tmp}/pbench-io-time-bound.XXXXXX")
trap 'rm -rf "$work"' EXIT

echo "pbench-io time bound: 2 processes, partitions 2, T = $times s, memory per process $MB MiB, $modes, cap ${cap} T, in $work"
echo "CPU: $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) cores; $(df -hT "$work" | awk 'NR==2 {print $2 " file system " $1}')"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
IFS=, read -r -a Ts <<< "$times"
IFS=, read -r -a Modes <<< "$modes"
run=0
for T in "${Ts[@]}"; do
  for hint in none romio_cb_write=enable; do
    for guard in "${Modes[@]}"; do
      run=$((run + 1))
      args=(-T "$T" --partitions 2 --memory-per-proc $((MB * 1048576)) --dir "$work"
        --output "$work/run$run.json")
      [[ $hint == none ]] || args+=(--hint "$hint")
      [[ $guard == guarded ]] || args+=(--unguarded)
      limit=$(/usr/bin/python3 -c "import math; print(math.ceil($cap * $T))")
      start=$(date +%s.%N)
      status=0
      timeout --signal=TERM --kill-after=30 "$limit" \
        mpiexec -n 2 "$io" "${args[@]}" > "$work/run$run.txt" 2>&1 || status=$?
      end=$(date +%s.%N)
      echo "$run $T $hint $guard $start $end $status" >> "$work/runs"
      echo "run $run: T = $T s, hint $hint, $guard: $(/usr/bin/python3 -c "print('%.1f' % ($end - $start))") s, exit $status; load average $(cut -d' ' -f1-3 /proc/loadavg)"
      rm -rf "$work"/pbench-io.*  # what a stopped run left behind
    done
  done
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"

/usr/bin/python3 - "$work" "$cap" <<'PY'
import json, os, sys

work, cap = sys.argv[1], float(sys.argv[2])
lines = []
for line in open(os.path.join(work, "runs")):
    run, T, hint, guard, start, end, status = line.split()
    T, wall, status = float(T), float(end) - float(start), int(status)
    path = os.path.join(work, "run%s.json" % run)
    doc = json.load(open(path)) if os.path.exists(path) else None
    elapsed, cut, bound, why = "-", "-", "-", ""
    parts = ["-"] * 4
    if doc:
        t = doc["measurements"]["run"]
        row = dict(zip([c["name"] for c in t["columns"]], t["rows"][0]))
        elapsed = "%.1f" % row["elapsed"]
        cut = str(row.get("cut_rows", "-"))
        if "time_account" in doc["measurements"]:
            a = {r[0]: r[1] for r in doc["measurements"]["time_account"]["rows"]}
            parts = ["%.1f" % a["patterns"], "%.1f" % (a["opens"] + a["closes"]),
                     "%.1f" % (a["deletion"] + a["deletion_probe"]),
                     "%.1f" % (a["setup"] + a["bookkeeping"] + a["removal"])]
        reasons = doc["validity"]["reasons"]
        bound = "over" if any(r.startswith("elapsed ") for r in reasons) else "kept"
        # Every run here is shorter than 1800 s and moves less than 20 x the node's memory:
        # leave those two reasons out, show the first other one.
        others = [r for r in reasons if not r.startswith(("scheduled time", "cache check"))]
        why = others[0] if others else ""
    ratio = ("> %g (stopped)" % cap) if status == 124 else "%.2f" % (wall / T)
    lines.append(("%g" % T, hint, guard, "%.1f" % wall, ratio, elapsed, *parts, cut, bound,
                  why if len(why) <= 90 else why[:87] + "..."))
print()
print("elapsed/T = wall time of mpiexec / T; run elapsed = the result's own (directory to file "
      "removal), and its account: patterns, opens + closes, deletion (with the untimed probe), "
      "the rest (setup, bookkeeping, removal); bound: kept unless elapsed > 1.10 T (T >= 60 s) "
      "or 1.15 T + 3 s; the short-T and cache-check reasons every run here has are left out of "
      "the reasons")
head = ("T [s]", "hint", "guard", "wall [s]", "elapsed/T", "run elapsed [s]", "patterns",
        "open+close", "deletion", "rest", "cut rows", "bound", "first other reason")
w = [max(len(str(l[i])) for l in lines + [head]) for i in range(len(head))]
for l in [head] + lines:
    print("  ".join(str(x).ljust(w[i]) for i, x in enumerate(l)).rstrip())
PY
