#!/usr/bin/env bash
# Two `pbench collect` and a stream of queries at the same time on one store, three rounds:
# every command succeeds (no "database is locked"), each document is stored once and whole,
# and the two collects' counts add up. Then the lock budget: a writer holding the store longer
# than the busy timeout (10 s) makes collect fail with a clear error and change nothing, one
# holding it briefly only makes collect wait.
source "$(dirname "$0")/../orchestrator/common.sh"
source "$(dirname "$0")/real_document.sh"
n=300
summary=$("$PY" -c "import json; print(len(json.load(open('real.json'))['summary']))")

for round in 1 2 3; do
  name=c$round
  "$PBENCH" sweep "$name" --partitions 2 --queue-depths "$(seq -s, 1 $n)" "${SMALL[@]}" > /dev/null
  "$PY" "$here/finished_sweep.py" "$PBENCH_DB" "$name" real.json $((round * 1000000)) > /dev/null
  "$PBENCH" collect "$name" > a.out 2> a.err &
  a=$!
  "$PBENCH" collect "$name" > b.out 2> b.err &
  b=$!
  queries=0
  : > q.err
  while kill -0 "$a" 2> /dev/null || kill -0 "$b" 2> /dev/null; do
    "$PBENCH" query points --sweep "$name" --format csv > /dev/null 2>> q.err || fail "query points failed: $(cat q.err)"
    "$PBENCH" query logp --sweep "$name" --format csv > /dev/null 2>> q.err || fail "query logp failed: $(cat q.err)"
    "$PBENCH" status "$name" --format csv > /dev/null 2>> q.err || fail "status failed: $(cat q.err)"
    queries=$((queries + 3))
  done
  wait "$a" || fail "round $round: the first collect failed: $(cat a.err)"
  wait "$b" || fail "round $round: the second collect failed: $(cat b.err)"
  ! grep -qi "locked\|busy" a.err b.err q.err || fail "round $round: $(cat a.err b.err q.err)"
  stored_a=$(sed -n 's/.*: \([0-9]*\) results stored.*/\1/p' a.out)
  stored_b=$(sed -n 's/.*: \([0-9]*\) results stored.*/\1/p' b.out)
  ((stored_a + stored_b == n)) || fail "round $round: the collects stored $stored_a + $stored_b of $n"
  read -r results metrics < <("$PY" "$here/store_check.py" "$PBENCH_DB" "$name")
  [[ "$results $metrics" == "$n $((n * summary))" ]] \
    || fail "round $round: $results results and $metrics metrics, expected $n and $((n * summary))"
  echo "round $round: collects stored $stored_a + $stored_b, $queries queries meanwhile"
done
total=$(sqlite3 -cmd ".timeout 5000" "$PBENCH_DB" "select count(*) || ' ' || count(distinct point_id) from results")
[[ "$total" == "$((3 * n)) $((3 * n))" ]] || fail "the store holds $total results/points"

# A writer holds the store's write lock (as a long transaction of another process would).
hold_lock() {
  "$PY" - "$PBENCH_DB" "$1" <<'PY' &
import sqlite3, sys, time
db = sqlite3.connect(sys.argv[1], isolation_level=None)
db.execute("begin immediate")
open("locked", "w").close()
time.sleep(float(sys.argv[2]))
db.execute("rollback")
PY
  holder=$!
  for _ in $(seq 100); do [[ -e locked ]] && break; sleep 0.05; done
  [[ -e locked ]] || fail "the lock holder did not start"
  rm -f locked
}
"$PBENCH" sweep c4 --partitions 2 --queue-depths 1,2,3 "${SMALL[@]}" > /dev/null
"$PY" "$here/finished_sweep.py" "$PBENCH_DB" c4 real.json 4000000 > /dev/null

# Held for 2 s: collect waits, then stores everything.
hold_lock 2
"$PBENCH" collect c4 > held.out 2>&1 || fail "collect did not wait for a 2 s lock: $(cat held.out)"
wait "$holder"
grep -qF "3 results stored" held.out || fail "collect after a 2 s lock: $(cat held.out)"

# Held for 12 s: collect gives up after the 10 s budget with a clear message; nothing changed.
"$PBENCH" sweep c5 --partitions 2 --queue-depths 1,2,3 "${SMALL[@]}" > /dev/null
"$PY" "$here/finished_sweep.py" "$PBENCH_DB" c5 real.json 5000000 > /dev/null
before=$(sqlite3 -cmd ".timeout 5000" "$PBENCH_DB" "select count(*) from results")
hold_lock 12
start=$SECONDS
rc=0
"$PBENCH" collect c5 > timeout.out 2>&1 || rc=$?
waited=$((SECONDS - start))
wait "$holder"
[[ $rc -eq 3 ]] || fail "collect under a held lock exited $rc, expected 3: $(cat timeout.out)"
grep -qF "is locked by another process: gave up after waiting 10 s" timeout.out \
  || fail "unclear message: $(cat timeout.out)"
[[ $(wc -l < timeout.out) -eq 1 ]] || fail "more than one line: $(cat timeout.out)"
# It waited out its budget before giving up (a slower machine only waits longer: no upper bound).
((waited >= 9)) || fail "collect gave up after $waited s, before its 10 s budget"
[[ $(sqlite3 -cmd ".timeout 5000" "$PBENCH_DB" "select count(*) from results") == "$before" ]] || fail "the store changed"
"$PBENCH" collect c5 | grep -F "3 results stored" >/dev/null || fail "collect after the lock was released"
echo "concurrent collect: ok"
