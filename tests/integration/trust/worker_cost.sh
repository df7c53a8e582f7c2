#!/usr/bin/env bash
# Every worker counts what its run costs (issue 36, item 3): the result's `cost` has the
# messages and bytes it sent, its collective calls, MPI-IO calls, loop passes and wall time.
# Counted, not timed: two runs of the same fixed loops (comm at one message size, bcast stopped
# by --max-measurements, links) give the same counts, and the link matrix on 2 ranks gives the
# counts its schedule makes (per endpoint: 2 pings and 2 pongs of 8 B and 1 message of the size
# opening the step, then per repetition R pings and R pongs and M messages).
SCRATCH_NAME=pbench-trust source "$(dirname "$0")/../lib/workers.sh"
WORKER[links]=${PBENCH_LINKS:?PBENCH_LINKS must name the pbench-links binary}
declare -A FIXED=(
  [logp]="--eel-roundtrips 20 --eel-runs 1 --max-size 64 --repetitions 1 --flood-messages 20 --queue-depths 1"
  [comm]="--memory-per-proc 1MiB --random-patterns 2 --repetitions 1 --start-looplength 3 --sizes 1"
  [io]="-T 0.3 --memory-per-proc 1 --cache-bytes 1000"
  [bcast]="--sizes 8,64 --repetitions 5 --max-measurements 2"
  [links]="--latency-roundtrips 5 --message-size 1KiB --messages 2 --repetitions 3")
for w in logp comm io bcast links; do
  for run in 1 2; do
    # shellcheck disable=SC2086
    mpiexec -n 2 "${WORKER[$w]}" ${FIXED[$w]} --output "$w-$run.json" > "$w-$run.log" 2>&1 ||
      fail "pbench-$w failed: $(tail -5 "$w-$run.log")"
    "$VALIDATE" "$w-$run.json" > /dev/null || fail "$w-$run.json does not validate"
  done
done
"$PY" - <<'PY' || fail "see above"
import json
counts = ["messages", "bytes", "collectives", "collective_bytes", "io_calls", "io_bytes", "loops"]
def cost(name):
    c = json.load(open(name))["cost"]
    assert sorted(c) == sorted(counts + ["wall_time"]), c
    assert c["wall_time"] > 0 and all(isinstance(c[k], int) and c[k] >= 0 for k in counts), c
    return c
for w in ["logp", "comm", "io", "bcast", "links"]:
    a, b = cost(f"{w}-1.json"), cost(f"{w}-2.json")
    assert a["loops"] > 0 and a["collectives"] > 0, (w, a)
    if w != "io":
        assert a["messages"] > 0 and a["bytes"] > 0, (w, a)
    else:
        assert a["io_calls"] > 0 and a["io_bytes"] > 0, (w, a)
    if w in ("comm", "bcast", "links"):  # fixed loops: the same counts
        assert {k: a[k] for k in counts} == {k: b[k] for k in counts}, (w, a, b)
    print(w, {k: a[k] for k in counts}, f"{a['wall_time']:.3f} s")
# links on 2 ranks (one node: both ranks are endpoints; one shift step): R = 5, M = 2, 1 KiB,
# 3 repetitions.
c = cost("links-1.json")
R, M, S, reps = 5, 2, 1024, 3
assert c["messages"] == 2 * (2 + 1 + reps * (2 * R + M)), c
assert c["bytes"] == 2 * (2 * 8 + S + reps * (2 * R * 8 + M * S)), c
assert c["loops"] == 2 * reps * (R + M), c
assert c["io_calls"] == 0 and c["io_bytes"] == 0, c
PY
echo "every worker counts its cost: ok"
