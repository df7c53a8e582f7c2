#!/usr/bin/env bash
# `pbench collect` killed with SIGKILL mid-ingest (three times) leaves no partial document:
# every result in the store has all its metric rows, exactly as an uninterrupted collect of the
# same documents stores them (a reference store); the next collect stores the rest, none twice.
source "$(dirname "$0")/../orchestrator/common.sh"
# One real result document (2 ranks, small), then n points that each finished with a variant.
source "$(dirname "$0")/real_document.sh"
n=600
"$PBENCH" sweep big --partitions 2 --queue-depths "$(seq -s, 1 $n)" "${SMALL[@]}" > /dev/null
[[ $("$PY" "$here/finished_sweep.py" "$PBENCH_DB" big real.json 0) -eq $n ]] || fail "setup"

# The reference: the same documents, collected without interruption.
cp "$PBENCH_DB" reference.db
"$PBENCH" --db reference.db collect big > reference.out
read -r ref_results ref_metrics < <("$PY" "$here/store_check.py" reference.db big)
[[ $ref_results -eq $n ]] || fail "the reference collect stored $ref_results of $n"

# Kill collect three times, once a tenth, four tenths and seven tenths of the documents are
# stored (it commits one document at a time); after each kill every stored result is whole.
kept=0
for tenths in 1 4 7; do
  "$PBENCH" collect big > killed.out 2>&1 &
  collect_pid=$!
  stored=0
  for _ in $(seq 3000); do
    stored=$(sqlite3 -cmd ".timeout 5000" "$PBENCH_DB" "select count(*) from results")
    ((stored >= n * tenths / 10)) && break
    sleep 0.01
  done
  kill -KILL "$collect_pid"
  rc=0
  wait "$collect_pid" || rc=$?
  [[ $rc -eq 137 ]] || fail "collect was not killed (exit $rc, $stored stored): $(cat killed.out)"
  before=$kept
  read -r kept kept_metrics < <("$PY" "$here/store_check.py" "$PBENCH_DB" big reference.db) \
    || fail "the store after the kill holds a partial document"
  ((kept > before && kept < n)) || fail "the kill did not land mid-ingest: $kept of $n stored"
  echo "killed after $kept of $n documents ($kept_metrics metric rows)"
done

# The next collect stores exactly the rest.
"$PBENCH" collect big > rest.out
grep -qF "$((n - kept)) results stored, 0 already stored, 0 rejected" rest.out \
  || fail "the second collect: $(cat rest.out)"
read -r results metrics < <("$PY" "$here/store_check.py" "$PBENCH_DB" big reference.db)
[[ "$results $metrics" == "$ref_results $ref_metrics" ]] \
  || fail "after both collects: $results results, $metrics metrics; reference $ref_results, $ref_metrics"
echo "collect killed: ok"
