#!/usr/bin/env bash
# No result lost to a time limit (issue 14, item 2), every worker under real mpiexec: given a
# deadline (--time-left, --deadline, or PBENCH_TIME_LEFT / PBENCH_DEADLINE as a job script sets
# it) shorter than its work, the worker stops at a clean point decided by rank 0 for all ranks,
# writes what it measured as a partial result (not valid, validity.partial naming the deadline),
# removes its files (io) and exits 0; the parameters are echoed.
source "$(dirname "$0")/common.sh"

# run NAME WORKER NPROCS ARGS...: a run that must exit 0. Its stderr is read apart from its
# stdout (the protocol): a launcher that forwards the two streams apart (Open MPI's mpirun) gives
# no order between them, so in one file the notice can land inside a line of the protocol.
run() {
  local name=$1 worker=$2 n=$3
  shift 3
  mpiexec -n "$n" "${WORKER[$worker]}" --output "$name.json" "$@" > "$name.log" 2> "$name.err" ||
    fail "pbench-$worker $* exited $?: $(tail -5 "$name.log" "$name.err")"
  grep -q "^pbench-$worker: partial: stopped before the deadline" "$name.err" ||
    fail "pbench-$worker does not say on stderr that its result is partial: $(tail -3 "$name.err")"
}

# The work takes far longer than the time left (7 s: enough for the start-up on a loaded
# machine, so the stop falls in the long loop; any clean point is right, and the tables must
# hold whole steps only).
LEFT=7
# logp: a flood sweep of many repetitions stops at a repetition boundary; the flood rows are
# the repetitions done, complete for every size and depth.
run logp logp 2 --time-left "$LEFT" --eel-roundtrips 200 --eel-runs 2 --queue-depths 1,2 \
  --max-size 4096 --flood-messages 200 --repetitions 100000
check_partial logp.json "(EEL run [0-9]+ of 2|the flood warm-up|flood repetition [0-9]+ of 100000|the overlap test)"
"$PY" - logp.json "$LEFT" <<'PY'
import collections, json, sys
d = json.load(open(sys.argv[1]))
left = float(sys.argv[2])
assert d["parameters"]["time_left"] == {"value": left, "unit": "s", "source": "command_line"}, d["parameters"]["time_left"]
assert d["parameters"]["deadline_margin"]["value"] == 1.0, d["parameters"]["deadline_margin"]
t = d["measurements"]["flood"]
names = [c["name"] for c in t["columns"]]
rows = [dict(zip(names, r)) for r in t["rows"]]
reps = sorted({r["repetition"] for r in rows})
assert reps == list(range(len(reps))) and len(reps) < 100000, reps[-3:]
# 2 queue depths x the sizes up to 4 KiB, for every repetition done
per_repetition = collections.Counter(r["repetition"] for r in rows)
assert len(set(per_repetition.values())) <= 1, "a repetition is cut in half"
if reps:
    assert len(d["measurements"]["eel"]["rows"]) == 2, "the EEL runs before the flood are kept"
print("logp: %d flood repetitions kept" % len(reps))
PY

# comm: many repetitions stop before a measurement; the measurements done are kept.
run comm comm 2 --time-left "$LEFT" --memory-per-proc 1MiB --random-patterns 2 --repetitions 10000 \
  --target-window 0.0002,0.0005 --start-looplength 10
check_partial comm.json "measurement [0-9]+ of [0-9]+ \(repetition [0-9]+"
"$PY" - comm.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
rows = d["measurements"]["measurements"]["rows"]
assert rows, "no measurement kept"
assert not any(r.startswith("stopped by --max-time") for r in d["validity"]["reasons"]), d["validity"]
PY

# bcast, from the environment as a job script gives it (PBENCH_DEADLINE, epoch seconds): a
# synthetic hop delay makes each size slow; it stops before a size, the sizes done are whole.
PBENCH_DEADLINE=$(($(date +%s) + LEFT)) run bcast bcast 3 --impl binomial --hop-delay-us 2000 --repetitions 10 \
  --max-measurements 3 --sizes 8,16,32,64,128,256,512,1024,2048,4096,8192,16384,32768,65536
check_partial bcast.json "message size [0-9]+ B \([0-9]+ of 14\)"
"$PY" - bcast.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["parameters"]["deadline"]["source"] == "environment", d["parameters"]["deadline"]
sizes = sorted({r[0] for r in d["measurements"]["ol_i"]["rows"]})
assert len(sizes) < 14 and sizes == [8 << k for k in range(len(sizes))], sizes
PY

# io: T = 60 s with 7 s left stops between pattern rows, removes its files, and says where.
run io io 2 --time-left "$LEFT" -T 60 --memory-per-proc 1 --cache-bytes 1000
check_partial io.json "partition [0-9]+, write, type [0-4], pattern [0-9]+"
left=$(find . -name 'pbench-io.*' | head -1)
[[ -z "$left" ]] || fail "pbench-io left its files behind: $left"
# ... after writing the result: deleting GBs can take seconds (ext4 -o discard), past the deadline.
grep -q "^removing the benchmark files in .* after the partial result was written" io.log ||
  fail "pbench-io does not remove its files after writing the partial result: $(tail -3 io.log)"
"$PY" - io.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
t = d["measurements"]["patterns"]
names = [c["name"] for c in t["columns"]]
rows = [dict(zip(names, r)) for r in t["rows"]]
assert all(r["access"] == "write" for r in rows), "rows after the deadline"
run = dict(zip([c["name"] for c in d["measurements"]["run"]["columns"]], d["measurements"]["run"]["rows"][0]))
assert run["complete"] is False, run
PY

# A time left barely above the margin (0.1 s of work): a clear partial result with what came
# before its clean point, exit 0. The work is far longer than that, so that a fast idle machine
# cannot finish it inside the 0.1 s (with one flood repetition it did, and said nothing).
run short logp 2 --time-left 1.5 --deadline-margin 1.4 --eel-roundtrips 200 --eel-runs 2 \
  --queue-depths 1 --max-size 1024 --flood-messages 100 --repetitions 100000
check_partial short.json "(EEL run [0-9]+ of 2|the flood warm-up|flood repetition [0-9]+ of 100000|the overlap test)"
echo "deadline, every worker under mpiexec: ok"
