#!/usr/bin/env bash
# Is a deadline kept? Each worker given a deadline far shorter than its work (the settings of
# the suite's test 'deadline: workers', which checks the mechanism: a clean stop, a partial
# result, its marker): when the result was complete against the deadline, in seconds (negative:
# before it), beside the margin the worker kept for writing it, and where it stopped. Moving a
# result past its deadline is what a batch system's time limit kills, so this is the figure to
# watch on a new machine; no test asserts it against the clock.
#
#   bench/deadline_bound.sh [LEFT] [ROUNDS]
#     LEFT    seconds each worker is given (default 7, as the test)
#     ROUNDS  runs of each worker (default 3)
# Needs a build (scripts/build). Timing with more busy ranks than cores means little: the load
# average is printed before and after.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${PBENCH_BUILD_DIR:-$root/build}
left=${1:-7}
rounds=${2:-3}
[[ $left =~ ^[0-9]+(\.[0-9]+)?$ ]] || { echo "LEFT must be a number of seconds: '$left'" >&2; exit 2; }
[[ $rounds =~ ^[1-9][0-9]*$ ]] || { echo "ROUNDS must be a positive integer: '$rounds'" >&2; exit 2; }
for w in logp comm bcast io; do
  [[ -x $build/workers/$w/pbench-$w ]] || { echo "missing $build/workers/$w/pbench-$w: run scripts/build" >&2; exit 1; }
done
# The main worker set's own launcher (cmake/PbenchMpi.cmake), whatever mpiexec is on PATH.
launcher=$(ls "$build"/mpi/*/launch/mpiexec 2>/dev/null | head -1)
[[ -n $launcher ]] || { echo "missing the launcher under $build/mpi: run scripts/build" >&2; exit 1; }
work=$(mktemp -d "${TMPDIR:-/tmp}/pbench-deadline-bound.XXXXXX")
trap 'rm -rf "$work"' EXIT
cd "$work"
echo "deadline bound: each worker given $left s, $rounds rounds, in $work"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
run() {  # run NAME WORKER NPROCS ARGS...
  local name=$1 worker=$2 n=$3
  shift 3
  "$launcher" -n "$n" "$build/workers/$worker/pbench-$worker" --output "$name.json" "$@" \
    > "$name.log" 2> "$name.err" || echo "$name: pbench-$worker exited $?" >&2
}
for r in $(seq "$rounds"); do
  run "logp.$r" logp 2 --time-left "$left" --eel-roundtrips 200 --eel-runs 2 --queue-depths 1,2 \
    --max-size 4096 --flood-messages 200 --repetitions 100000
  run "comm.$r" comm 2 --time-left "$left" --memory-per-proc 1MiB --random-patterns 2 \
    --repetitions 100000 --target-window 0.0002,0.0005 --start-looplength 10
  run "bcast.$r" bcast 3 --time-left "$left" --impl binomial --hop-delay-us 2000 --repetitions 10 \
    --max-measurements 3 --sizes 8,16,32,64,128,256,512,1024,2048,4096,8192,16384,32768,65536
  run "io.$r" io 2 --time-left "$left" -T 60 --memory-per-proc 1 --cache-bytes 1000 --dir "$work"
done
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
/usr/bin/python3 - "$rounds" <<'PY'
import datetime, json, os, re, sys

def when(text):
    return datetime.datetime.strptime(text.rstrip("Z")[:23], "%Y-%m-%dT%H:%M:%S.%f" if "." in text
                                      else "%Y-%m-%dT%H:%M:%S")

rows = [("worker", "round", "margin [s]", "ended - deadline [s]", "stopped at")]
worst = {}
for worker in ("logp", "comm", "bcast", "io"):
    for r in range(1, int(sys.argv[1]) + 1):
        path = "%s.%d.json" % (worker, r)
        if not os.path.exists(path):
            rows.append((worker, str(r), "-", "no result", "-"))
            continue
        doc = json.load(open(path))
        partial = doc["validity"].get("partial")
        if not partial:
            rows.append((worker, str(r), "-", "not partial: finished before the deadline", "-"))
            continue
        late = (when(doc["ended_at"]) - when(partial["deadline"])).total_seconds()
        margin = re.search(r"keeping ([0-9.]+) s", partial["reason"]).group(1)
        where = partial["reason"].split(", at ", 1)[1].split(";")[0]
        worst[worker] = max(worst.get(worker, late), late)
        rows.append((worker, str(r), margin, "%+.3f" % late, where[:60]))
widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
for row in rows:
    print("  ".join(cell.rjust(w) if i in (1, 2, 3) else cell.ljust(w)
                    for i, (cell, w) in enumerate(zip(row, widths))))
print("latest result against its deadline (the deadline is to the second): " +
      ", ".join("%s %+.3f s" % kv for kv in worst.items()))
PY
