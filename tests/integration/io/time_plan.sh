#!/usr/bin/env bash
# T is a bound on any host (issue 41): the mechanism, never a wall-clock bound.
# 1. A slow pattern of every type is cut and named: test-only delays before every call of
#    type 3 and 4 writes, type 0 rewrites and type 0-2 reads make their rows overrun; each row
#    that must pass k x its share (counted in calls, each at least the delay) is cut within one
#    call of it, named in a reason, the read replays what the cut rewrite wrote, the rows after
#    a cut replay find their data (the read check), and the result's time account adds up.
# 2. A slow deletion shrinks the later shares: a test-only sleep per GB in every deletion (the
#    untimed probe's too) is measured as the deletion rate, every row's held-back time covers
#    the deletion of the bytes then in the files at that rate, and every share is at most its
#    part of what T leaves after that.
# 3. A slow time-driven row (types 0-2 write) stops within its share, counted in calls.
# 4. --unguarded is rev 2.1's schedule: no probe, every share T_pattern, nothing held back.
source "$(dirname "$0")/common.sh"

# Whether a row must be cut depends on how many calls it planned, which is this machine's speed
# at that moment (a loaded machine plans fewer): a type none of whose slowed rows planned enough
# calls to pass k x its share at the delay is no test of the guard. The check says so (exit 3)
# and the run is made again with a delay 4 times as long, up to 0.8 s; every other check holds
# for every run.
T=12
K=3
slow_run() {  # slow_run DELAY
  mpiexec -n 2 "$PBENCH_IO" -T $T --partitions 2 "${SMALL[@]}" \
    --test-call-delay write:3=$1 --test-call-delay write:4=$1 \
    --test-call-delay rewrite:0=$1 --test-call-delay read:0=$1 \
    --test-call-delay read:1=$1 --test-call-delay read:2=$1 \
    --output slow.json > slow.txt || return 1
  checked slow.json slow.txt --partitions 2 --schedule-time $T
  no_benchmark_files
  "$PY" - slow.json $1 $K <<'PY'
import sys
from result_tables import load
doc, table = load(sys.argv[1])
delay, k = float(sys.argv[2]), float(sys.argv[3])
rows = table("patterns")
run = table("run")[0]
reasons = doc["validity"]["reasons"]
slowed = {("write", 3), ("write", 4), ("rewrite", 0), ("read", 0), ("read", 1), ("read", 2)}
assert run["test_call_delays"] == ",".join(
    "%s:%d=%g" % (a, t, delay) for a, t in [("write", 3), ("write", 4), ("rewrite", 0), ("read", 0), ("read", 1), ("read", 2)]), run["test_call_delays"]
for a, t in slowed:
    assert any(x == "test fault --test-call-delay slept %.3f s before every %s call of type %d" % (delay, a, t) for x in reasons), (a, t)
# Each row of a slowed type and access that must pass k x its share is cut: it planned more calls
# than fit in k x the share at the delay each, plus the one the guard's check may add.
must = [r for r in rows if (r["access"], r["type"]) in slowed and r["drive"] in ("size", "replay")
        and r["planned_repetitions"] * delay >= k * r["planned_time"] + 2 * delay]
missed = [r for r in must if not r["cut"]]
assert not missed, missed
cut = [r for r in rows if r["cut"]]
untested = sorted(t for t in range(5) if not any(r["type"] == t for r in must + cut))
if untested:
    print("delay %g s: no slowed row of type %s planned enough calls to pass %g x its share; "
          "again with a longer delay" % (delay, ", ".join(map(str, untested)), k))
    sys.exit(3)
# Every type has a cut row: types 0-2 in their rewrite or read, types 3-4 in their write.
for t in range(5):
    assert any(r["type"] == t for r in cut), "no row of type %d cut: %s" % (t, [(r["access"], r["type"], r["pattern"]) for r in cut])
for r in cut:
    assert r["drive"] in ("size", "replay") and r["repetitions"] < r["planned_repetitions"], r
    assert r["time"] >= k * r["planned_time"], r
    if (r["access"], r["type"]) in slowed:
        # Within one call of k x the share: counted in calls, each at least the delay.
        assert r["repetitions"] <= k * r["planned_time"] / delay + 2, r
    name = "time guard: partition 2, %s, type %d, pattern %d (l = %d B): stopped after %d of %d planned repetitions" % (
        r["access"], r["type"], r["pattern"], r["disk_chunk"], r["repetitions"], r["planned_repetitions"])
    assert sum(1 for x in reasons if x.startswith(name)) == 1, (name, reasons)
# The read of a cut rewrite replays what the rewrite wrote, and every row after a cut replay
# reads the data of its own row (the file pointer set past the cut row's data): no read errors.
for r in cut:
    if r["access"] == "rewrite":
        read = [x for x in rows if x["access"] == "read" and x["pattern"] == r["pattern"]]
        assert read[0]["planned_repetitions"] == r["repetitions"], (r, read)
assert not [r for r in rows if r["errors"]], [r for r in rows if r["errors"]]
assert run["cut_rows"] == len(cut)
account = {a["part"]: a["time"] for a in table("time_account")}
print("every type cut: %d rows (%s); elapsed %.1f s of T = %s s: %s" % (
    len(cut), ", ".join(sorted({"%s %d" % (r["access"], r["type"]) for r in cut})), run["elapsed"],
    run["schedule_time"], ", ".join("%s %.2f s" % (p, s) for p, s in account.items())))
PY
}
for DELAY in 0.05 0.2 0.8; do
  rc=0
  slow_run $DELAY || rc=$?
  [[ $rc -eq 3 ]] || break
done
[[ $rc -eq 0 ]] || fail "the slow run's checks failed (exit $rc, delay $DELAY s)"

# 2. A slow deletion: 20 s per GB (0.67 s for the 32 MiB probe).
SLOW=20
mpiexec -n 2 "$PBENCH_IO" -T $T --partitions 2 "${SMALL[@]}" --test-deletion-delay $SLOW \
  --output deletion.json > deletion.txt
checked deletion.json deletion.txt --partitions 2 --schedule-time $T
no_benchmark_files
"$PY" - deletion.json $SLOW $T <<'PY'
import sys
from result_tables import load
doc, table = load(sys.argv[1])
slow, T = float(sys.argv[2]), float(sys.argv[3])
rows = table("patterns")
types = table("types")
run = table("run")[0]
account = {a["part"]: a for a in table("time_account")}
reasons = doc["validity"]["reasons"]
assert any(x == "test fault --test-deletion-delay slept %.3f s per GB in every deletion" % slow for x in reasons), reasons
# The probe and the deletions took at least the sleep: the rates measured are at least it.
per_byte = slow / 1e9
assert run["deletion_probe_bytes"] == 32 * 1024 * 1024, run
assert run["deletion_probe_time"] >= per_byte * run["deletion_probe_bytes"], run
assert account["deletion_probe"]["time"] >= run["deletion_probe_time"], account
# Rank 0 deletes a shared file, every process its own of type 2 at the same time.
shared = sum(t["bytes"] for t in types if t["access"] == "write" and t["type"] != 2)
own = sum(t["bytes"] for t in types if t["access"] == "write" and t["type"] == 2) / 2
assert account["deletion"]["time"] >= per_byte * (shared + own), (account["deletion"], shared, own)
assert run["deletion_time_per_gb"] * (shared + 2 * own) >= slow * (shared + own) * (1 - 1e-9), run
# Replaying the run in the table's order (writes, rewrite, reads; a type's file deleted after its
# read): what each row held back covers the deletion of the bytes then in the files, and its
# share is at most what T leaves after that and at most twice rev 2.1's T_pattern (the plan
# weighs each kind of row by its measured cost, so a share is not simply its units' part:
# tests/unit/io_time_plan_test.cpp checks that arithmetic exactly).
# The plan's deletion rate: the probe's until the run has deleted as many bytes, then the run's
# own (time over bytes, type 2's files deleted side by side); each at least the sleep's share.
units_left = sum(r["time_units"] for r in rows)
in_files = 0
bytes_of = {}
deleted, deleted_time = 0, 0.0
rate = per_byte
shrunk_by_deletion = 0
last = {}
for i, r in enumerate(rows):
    last[(r["access"], r["type"])] = i
for i, r in enumerate(rows):
    assert r["held_back"] >= rate * in_files * (1 - 1e-9), (r, in_files, rate)
    bound = min(max(0.0, T - r["held_back"]), 2 * r["pattern_time"])
    assert r["planned_time"] <= bound * (1 + 1e-9) + 1e-12, (r, bound)
    if r["time_units"] > 0 and r["planned_time"] < r["pattern_time"]:
        shrunk_by_deletion += 1
    units_left -= r["time_units"]
    if r["access"] == "write":
        in_files += r["bytes"]
        bytes_of[r["type"]] = bytes_of.get(r["type"], 0) + r["bytes"]
    if r["access"] == "read" and last[("read", r["type"])] == i:
        in_files -= bytes_of[r["type"]]
        deleted += bytes_of[r["type"]]
        deleted_time += per_byte * bytes_of[r["type"]] / (2 if r["type"] == 2 else 1)
        if deleted >= run["deletion_probe_bytes"]:
            rate = deleted_time / deleted
assert shrunk_by_deletion > 0, "no share held below T_pattern by the deletion"
print("slow deletion: %.1f s per GB measured, %.2f s deleting, %d rows' shares held below "
      "T_pattern by it; elapsed %.1f s of T = %g s" % (run["deletion_time_per_gb"], account["deletion"]["time"],
                                                      shrunk_by_deletion, run["elapsed"], T))
PY

DELAY=0.05
# 3. Slow time-driven rows (types 0-2 write): the termination rule, which no guard needs to back,
#    stops each within its share counted in calls: after r calls of at least the delay each,
#    another is made only while (r + 1) x delay fits the share, so r <= max(1, share / delay).
mpiexec -n 2 "$PBENCH_IO" -T 6 --partitions 2 "${SMALL[@]}" --test-call-delay write:0=$DELAY \
  --test-call-delay write:1=$DELAY --test-call-delay write:2=$DELAY --output timed.json > timed.txt
checked timed.json timed.txt --partitions 2 --schedule-time 6
no_benchmark_files
"$PY" - timed.json $DELAY <<'PY'
import math, sys
from result_tables import load
doc, table = load(sys.argv[1])
delay = float(sys.argv[2])
timed = [r for r in table("patterns") if r["drive"] == "time"]
assert len(timed) == 22, len(timed)  # types 0-2 write, less the three U = 0 rows
for r in timed:
    assert not r["cut"] and r["planned_time"] <= 2 * r["pattern_time"] * (1 + 1e-9), r  # grows to 2 T_pattern at most
    assert 1 <= r["repetitions"] <= max(1, math.floor(r["planned_time"] / delay + 1e-9)), r
    assert r["time"] >= r["repetitions"] * delay, r
PY

# 4. Unguarded: rev 2.1's schedule.
mpiexec -n 2 "$PBENCH_IO" -T 4 --partitions 2 "${SMALL[@]}" --unguarded --output unguarded.json > unguarded.txt
checked unguarded.json unguarded.txt --partitions 2 --schedule-time 4
no_benchmark_files
"$PY" - unguarded.json <<'PY'
import sys
from result_tables import load
doc, table = load(sys.argv[1])
run = table("run")[0]
assert run["guard_factor"] is None and run["cut_rows"] == 0, run
assert run["deletion_probe_bytes"] == 0 and run["sync_time_per_gb"] is None, run
assert all(r["planned_time"] == r["pattern_time"] and r["held_back"] == 0 and not r["cut"] for r in table("patterns"))
aspects = [d[0] for d in doc["measurements"]["differences_from_rev_2_1"]["rows"]]
assert "time plan" not in aspects and "time guard" not in aspects, aspects
PY
echo "time plan: ok"
