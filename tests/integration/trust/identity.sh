#!/usr/bin/env bash
# A result belongs to its point (issue 38): every worker writes its job's sweep, point, attempt
# and nonce ("origin") and its arguments into its result. Collect refuses another point's or
# another attempt's document (exit 4, the point failed, nothing stored; a second collect says
# so again and exits 4 too), and stores a document that ran with other arguments than its point
# fixed not valid, naming the argument, for every worker. Nothing stored before is lost.
source "$(dirname "$0")/common.sh"

base_run
# valid_of SWEEP: the stored results' validity of SWEEP, one 0/1 per result.
valid_of() {
  "$PY" -c 'import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
print(" ".join(str(v) for (v,) in db.execute("select r.valid from results r join points p on p.id = r.point_id join sweeps s on s.id = p.sweep_id where s.name = ? order by r.id", (sys.argv[2],))))' \
    "$PBENCH_DB" "$1"
}

# 1. Every worker's document with one argument its point fixed changed: stored, not valid.
every_worker_run every
"$PY" - runs/every/points/*/attempt-1/result.json <<'PY'
import sys
from said_valid import edit_said_valid
changed = {"logp": ("--queue-depths", "8"), "comm": ("--repetitions", "2"),
           "io": ("--schedule-time", "5"), "bcast": ("--max-measurements", "4"),
           "links": ("--messages", "3")}
def change_argument(doc):
    origin = doc["origin"]
    assert origin["sweep"] == "every" and origin["attempt"] == "attempt-1", origin
    assert len(origin["point"]) == 16 and len(origin["nonce"]) == 32, origin
    option, value = changed[doc["worker"]]
    args = doc["arguments"]
    for i, word in enumerate(args):
        if word == option:
            args[i + 1] = value
            break
        if word.startswith(option + "="):
            args[i] = option + "=" + value
            break
    else:
        raise SystemExit(f"{doc['worker']}: no {option} in {args}")
edit_said_valid(sys.argv[1:], change_argument, changed)
PY
collect_exits 4 every every
grep -q "5 results stored" every.out || fail "collect every: $(cat every.out)"
grep -q "5 that ran with other arguments than their points (stored not valid)" every.out ||
  fail "collect every did not count them: $(cat every.out)"
for words in "ran with --queue-depths 8, its point fixed 1" "ran with --repetitions 2, its point fixed 1" \
  "ran with --schedule-time 5, its point fixed 0.3" "ran with --max-measurements 4, its point fixed 3" \
  "ran with --messages 3, its point fixed 2"; do
  grep -qF "stored not valid: not its point's run: $words" every.err ||
    fail "collect every did not say '$words': $(cat every.err)"
done
[[ "$(valid_of every)" == "0 0 0 0 0" ]] || fail "every: stored validity $(valid_of every)"
"$PBENCH" query logp --sweep every > logp.out || fail "query logp"
grep -q "not its point's run: ran with --queue-depths 8" logp.out || fail "query logp: $(cat logp.out)"
expect_results 6

# 2. Another sweep's document (one digit of started_at changed) under a q=64 point: refused.
for s in q64 other; do
  q=64
  [[ $s == other ]] && q=1
  "$PBENCH" sweep "$s" --partitions 2 --queue-depths "$q" "${SMALL[@]}" > /dev/null
  "$PBENCH" submit "$s" --foreground > /dev/null 2>&1 || fail "submit $s"
done
"$PY" - runs/other/points/*/attempt-1/result.json runs/q64/points/*/attempt-1/result.json <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
s = doc["started_at"]
doc["started_at"] = s[:-2] + ("1" if s[-2] != "1" else "2") + s[-1:]  # the last digit of ms
json.dump(doc, open(sys.argv[2], "w"))
PY
collect_exits 4 q64 q64
grep -q "written for sweep 'other', point [0-9a-f]*, attempt-1, not for this attempt (sweep 'q64'" \
  q64.err || fail "collect q64 did not name both: $(cat q64.err)"
grep -q "1 rejected" q64.out || fail "collect q64: $(cat q64.out)"
"$PBENCH" query points --sweep q64 --format json | grep -q '"failed"' || fail "q64's point is not failed"
expect_results 6
# Collected again: the same failure, the same exit status.
collect_exits 4 q64 q64.again
grep -q "1 failed because an earlier collect refused their result" q64.again.out ||
  fail "a second collect q64: $(cat q64.again.out)"
grep -q "result rejected: .*written for sweep 'other'" q64.again.err ||
  fail "a second collect q64 did not say why: $(cat q64.again.err)"
# The other sweep's own document is still its own.
"$PBENCH" collect other > /dev/null 2>&1 || fail "collect other"
expect_results 7

# 3. A run's document copied byte for byte into the next run's attempt: refused.
"$PBENCH" submit other --again --foreground > /dev/null 2>&1 || fail "submit other --again"
cp runs/other/points/*/attempt-1/result.json "$(echo runs/other/points/*/attempt-2)/result.json"
collect_exits 4 other other
grep -q "written for sweep 'other', point [0-9a-f]*, attempt-1, not for this attempt (sweep 'other', point [0-9a-f]*, attempt-2)" \
  other.err || fail "collect of a copied run: $(cat other.err)"
expect_results 7

# 4. A document without its origin, where the job gave one: not its worker's, refused.
"$PBENCH" sweep bare --partitions 2 --queue-depths 2 "${SMALL[@]}" > /dev/null
"$PBENCH" submit bare --foreground > /dev/null 2>&1 || fail "submit bare"
"$PY" - runs/bare/points/*/attempt-1/result.json <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
del doc["origin"]
json.dump(doc, open(sys.argv[1], "w"))
PY
collect_exits 4 bare bare
grep -q "its document names no sweep, point or attempt, but this attempt's job gave its worker one" \
  bare.err || fail "collect bare: $(cat bare.err)"
expect_results 7
echo "identity: ok"
