#!/usr/bin/env bash
# T is a bound (issue 14): the segmented types' overrun reproduced on purpose. The test-only
# delay makes every collective write call of type 4 take 100 ms more, so rows sized from the
# fast independent writes of types 0-2 would take many times their share (minutes in all); the
# time guard cuts them at 3 x T_pattern: each cut row is recorded (done, planned, cut, its time)
# and named in a reason, it stopped once past its share and within one call of it (counted in
# calls, which each take at least the delay, not in seconds against the clock), rewrite and read
# replay the cut counts and the read check verifies them, the run's own account of its time
# adds up (an overrun of the bound is named exactly when its elapsed exceeds it), b_eff_io is
# still recomputed from the rows, and the delay makes the result not valid. Then the same run
# with --guard-factor 1 cuts earlier. Whether the whole run fits its bound on a given machine is
# measured by bench/io_time_bound.sh, not asserted here.
source "$(dirname "$0")/common.sh"

T=12
DELAY=0.1
mpiexec -n 2 "$PBENCH_IO" -T $T --partitions 2 "${SMALL[@]}" \
  --test-collective-write-delay $DELAY --output result.json > protocol.txt
cat protocol.txt
checked result.json protocol.txt --partitions 2 --schedule-time $T
no_benchmark_files
grep -q "time guard at 3.00 x share" protocol.txt || fail "the protocol does not name the guard"
grep -q "cut by the time guard after" protocol.txt || fail "the protocol shows no cut row"
"$PY" - result.json $T $DELAY 3 <<'PY'
import sys
from result_tables import load
doc, table = load(sys.argv[1])
T, delay, k = float(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
rows = table("patterns")
run = table("run")[0]
reasons = doc["validity"]["reasons"]
assert doc["validity"]["valid"] is False
# Only rows with a planned count are cut: type 4's, which the delay slows, and on a loaded
# machine perhaps others of a few tens of milliseconds (their shares shrink to fit T).
cut = [r for r in rows if r["cut"]]
assert all(r["drive"] in ("size", "replay") for r in cut), cut
# Every delayed row that must overrun is cut: each call sleeps `delay`, and the guard checks
# after 1, 2, 4, ... calls capped by its prediction of where k T_pattern falls, so it stops a
# row within one call past the limit; a row planned for k T_pattern / delay + 2 calls and more
# cannot end uncut. (The planned counts come from types 0-2's speed, so they are smaller on a
# loaded machine: the delay is large enough that rows of a handful of calls qualify.)
size4 = [r for r in rows if r["access"] == "write" and r["type"] == 4 and r["drive"] == "size"]
must = [r for r in size4 if r["planned_repetitions"] * delay >= k * r["planned_time"] + 2 * delay]
assert must, "the delay makes no row overrun: %s" % size4
assert all(r["cut"] for r in must), [r for r in must if not r["cut"]]
for r in cut:
    assert r["repetitions"] < r["planned_repetitions"], r
    # A row stops once it has used k x its share, and within one call of it: every delayed call
    # takes at least the delay, so no more than k T_pattern / delay calls fit in the share, and
    # the guard's next check falls at most one call later (a count, whatever the machine's pace).
    assert r["time"] >= k * r["planned_time"], r
    if r["type"] == 4 and r["access"] == "write":
        assert r["repetitions"] <= k * r["planned_time"] / delay + 2, r
    reason = [x for x in reasons if x.startswith("time guard: partition 2, %s, type %d, pattern %d " % (r["access"], r["type"], r["pattern"]))]
    assert len(reason) == 1, (r["pattern"], reasons)
    text = reason[0]
    for part in ("(l = %d B)" % r["disk_chunk"],
                 "stopped after %d of %d planned repetitions" % (r["repetitions"], r["planned_repetitions"]),
                 "having taken %.3f s" % r["time"], "its share %.3f s" % r["planned_time"],
                 "T_pattern = %.3f s" % r["pattern_time"],
                 "guard factor 3.00"):
        assert part in text, (part, text)
    # Rewrite (type 0 only by default) leaves types 3-4 alone; the read replays the cut count
    # (or less, where the guard cut the read too), and its check finds every chunk written.
    if r["access"] == "write":
        read = [x for x in rows if x["access"] == "read" and x["pattern"] == r["pattern"]]
        assert len(read) == 1 and read[0]["planned_repetitions"] == r["repetitions"] and read[0]["errors"] == 0, read
assert not [r for r in rows if r["errors"]], "read check errors"
# Unguarded, the delayed rows alone would have slept for sum(planned) x delay (printed: the
# planned counts follow the machine's speed).
unguarded = sum(r["planned_repetitions"] * delay for r in size4)
limit = 1.15 * T + 3
# The run's own account of its time: the overrun reason stands exactly when the elapsed time
# exceeds the bound, and names where the time went (patterns, opens, closes, deletion), which
# the time account lists. Whether the run fits the bound is the machine's matter:
# bench/io_time_bound.sh measures it.
overran = [x for x in reasons if x.startswith("elapsed ")]
types = table("types")
account = {a["part"]: a["time"] for a in table("time_account")}
deleting = account["deletion"]
opening_closing = account["opens"] + account["closes"]
assert abs(run["elapsed_limit"] - limit) < 1e-6, (run["elapsed_limit"], limit)
assert (run["elapsed"] > limit) == bool(overran), (run["elapsed"], limit, overran)
if overran:
    assert "(account: patterns %.1f s, opens %.1f s" % (account["patterns"], account["opens"]) in overran[0], overran
assert run["guard_factor"] == 3 and run["cut_rows"] == len(cut), run
assert run["test_collective_write_delay"] == delay, run
assert any("--test-collective-write-delay slept %.3f s" % delay in x for x in reasons), reasons
aspects = [d[0] for d in doc["measurements"]["differences_from_rev_2_1"]["rows"]]
assert "time guard" in aspects and "test delay" in aspects, aspects
params = doc["parameters"]
assert params["guard_factor"] == {"value": 3.0, "unit": "ratio", "source": "default"}, params["guard_factor"]
assert params["unguarded"]["value"] is False
assert params["test_collective_write_delay"]["value"] == delay
print("guarded: %d rows cut, elapsed %.1f s (%.1f s opening and closing files, %.1f s of it "
      "deleting) of T = %g s (bound %.1f s); unguarded the delay alone: %.0f s"
      % (len(cut), run["elapsed"], opening_closing, deleting, T, limit, unguarded))
PY

# A tighter factor cuts at its own multiple of the share, and is echoed.
mpiexec -n 2 "$PBENCH_IO" -T $T --partitions 2 "${SMALL[@]}" --guard-factor 1 \
  --test-collective-write-delay $DELAY --output tight.json > tight.txt
checked tight.json tight.txt --partitions 2 --schedule-time $T
"$PY" - tight.json $DELAY <<'PY'
import sys
from result_tables import load
doc, table = load(sys.argv[1])
delay = float(sys.argv[2])
rows = table("patterns")
assert doc["parameters"]["guard_factor"]["value"] == 1.0
size4 = [r for r in rows if r["access"] == "write" and r["type"] == 4 and r["drive"] == "size"]
# Every row that must overrun 1 x its share is cut (the counts follow the machine's speed, so
# on a loaded machine there may be few), and the run cuts at least one.
must = [r for r in size4 if r["planned_repetitions"] * delay >= r["planned_time"] + 2 * delay]
assert all(r["cut"] for r in must), must
assert any(r["cut"] for r in rows), "nothing cut at --guard-factor 1"
for r in rows:
    if r["cut"]:
        assert r["time"] >= r["planned_time"], r
        if r["type"] == 4 and r["access"] == "write":
            assert r["repetitions"] <= r["planned_time"] / delay + 2, r
assert any("guard factor 1.00" in x for x in doc["validity"]["reasons"])
PY
no_benchmark_files
echo "time guard: ok"
