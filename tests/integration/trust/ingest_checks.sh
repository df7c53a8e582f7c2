#!/usr/bin/env bash
# What collect refuses to store (issue 24): a result naming another worker than its point's, a
# string field longer than 1 MiB and a document larger than 64 MiB, each with a message naming
# the problem (the field by its JSON pointer); collect exits 4, the point is failed, and nothing
# stored before is lost.
source "$(dirname "$0")/common.sh"

base_run
# edit SWEEP 'PYTHON': runs PYTHON on the sweep's finished, uncollected result (as doc).
edit() {
  local file
  file=$(echo runs/"$1"/points/*/attempt-1/result.json)
  [[ -f "$file" ]] || fail "no result of $1"
  "$PY" - "$file" "$2" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
exec(sys.argv[2])
json.dump(doc, open(sys.argv[1], "w"))
PY
}
# refused SWEEP 'MESSAGE': collect refuses the sweep's result saying MESSAGE; nothing changes.
refused() {
  local rc=0
  "$PBENCH" collect "$1" > "$1.out" 2> "$1.err" || rc=$?
  [[ $rc -eq 4 ]] || fail "collect $1 exited $rc: $(cat "$1.out" "$1.err")"
  grep -qF "$2" "$1.err" || fail "collect $1 did not say '$2': $(head -c 2000 "$1.err")"
  grep -q "1 rejected" "$1.out" || fail "collect $1: $(cat "$1.out")"
  [[ $(wc -c < "$1.err") -lt 4000 ]] || fail "collect $1 printed the oversized value"
  "$PBENCH" query points --sweep "$1" --format json | grep -q '"failed"' || fail "$1's point is not failed"
  expect_results 1
}
for s in other big huge; do
  "$PBENCH" sweep "$s" --partitions 1 --queue-depths 1 "${SMALL[@]}" > /dev/null
  "$PBENCH" submit "$s" --foreground > /dev/null 2>&1 || fail "submit $s"
done

edit other 'doc["worker"] = "comm"'
refused other "names worker 'comm', but its point is a logp point: another worker's result, not stored"

edit big 'doc["warnings"].insert(0, "x" * (2 << 20))'
refused big "at /warnings/0: a string of 2097152 bytes, more than the 1048576 (1 MiB) a field may hold"

# 70 strings of a million bytes each: every field within its cap, the document beyond 64 MiB.
edit huge 'doc["warnings"] += ["y" * 1000000] * 70'
refused huge "bytes, more than the 67108864 (64 MiB) a result document may have"

# The store still answers, with what it held.
"$PBENCH" query logp --sweep base --format json | grep -q '"rows"' || fail "query after the refusals"
echo "ingest checks: ok"
