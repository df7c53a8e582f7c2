#!/usr/bin/env bash
# Shell and SQL injection: hostile sweep names, --set values, io hint values and query values
# are refused with a clear error or stored and rendered literally; the job scripts are run for
# real, a canary file proves nothing in them was executed, and refused input and queries leave
# the store byte-identical.
source "$(dirname "$0")/../orchestrator/common.sh"

canary="$work/canary"
payloads=(
  "\$(touch $canary)"
  "\`touch $canary\`"
  "'\"; touch $canary; echo \"'"
  $'x\ntouch '"$canary"
  "; touch $canary"
  "--"
  $'\xff\xfe bytes'
)
no_canary() { [[ ! -e "$canary" ]] || fail "the canary exists: something was executed ($*)"; }

"$PBENCH" sweep base --partitions 1 --queue-depths 1 "${SMALL[@]}" > /dev/null
digest=$(db_digest)
unchanged() { [[ $(db_digest) == "$digest" ]] || fail "the store changed after: $*"; }

# Sweep names: every hostile name is refused clearly; nothing is stored.
for p in "${payloads[@]}"; do
  expect_fail 2 "is not allowed" "$PBENCH" sweep --partitions 1 --queue-depths 1 -- "$p"
  unchanged "sweep name $(printf %q "$p")"
done
no_canary sweep names

# Query values: a hostile --sweep is a name like any other (bound, never spliced into SQL); the
# store is byte-identical after every query, and after the queries of stored data.
for p in "${payloads[@]}" "x' OR '1'='1" "x'; DROP TABLE results; --"; do
  out=$("$PBENCH" query logp --sweep "$p" 2>&1) || true
  [[ "$out" != *"ERROR"* && "$out" != *"syntax"* ]] || fail "query said: $out"
  [[ $(printf '%s' "$out" | wc -l) -le 3 ]] || fail "query of $(printf %q "$p") said: $out"
  unchanged "query --sweep $(printf %q "$p")"
done
"$PBENCH" query logp > /dev/null
"$PBENCH" query logp --format json > /dev/null
"$PBENCH" status base > /dev/null
unchanged queries
no_canary queries

# --set values: stored literally, rendered as one quoted word, and run for real: the worker
# receives the value as it is (and refuses it as a number); the canary is never made.
i=0
for p in "${payloads[@]}"; do
  i=$((i + 1))
  rc=0
  out=$("$PBENCH" sweep "set$i" --partitions 1 --queue-depths 1 "${SMALL[@]}" \
    --set "logp.repetitions=$p" 2>&1) || rc=$?
  if [[ $rc -ne 0 ]]; then
    # Refusing is fine when it is clear and leaves the store as it was.
    [[ $rc -eq 2 && $(printf '%s' "$out" | wc -l) -le 3 ]] || fail "--set $(printf %q "$p"): exit $rc: $out"
    unchanged "refused --set $(printf %q "$p")"
    continue
  fi
  stored=$(sqlite3 "$PBENCH_DB" "select json_extract(params_json, '$.settings.repetitions') \
    from points p join sweeps s on s.id = p.sweep_id where s.name = 'set$i'")
  [[ "$stored" == "$p" ]] || fail "--set $(printf %q "$p") was stored as $(printf %q "$stored")"
  "$PBENCH" submit "set$i" --foreground > /dev/null 2>&1 || true
  no_canary "--set $(printf %q "$p")"
  state=$(sqlite3 "$PBENCH_DB" "select p.state from points p join sweeps s on s.id = p.sweep_id \
    where s.name = 'set$i'")
  [[ "$state" == failed ]] || fail "--set $(printf %q "$p"): the point is '$state', expected failed"
  digest=$(db_digest)
done
no_canary "--set values"

# io hint values: what the hint syntax admits ($(...), backticks, ';') is rendered quoted and
# reaches the worker literally in a real run; the rest is refused clearly.
hints_ok=("striping_unit=\$(touch\${IFS}$canary)" "striping_unit=\`touch\${IFS}$canary\`"
          "striping_unit=1;touch\${IFS}$canary")
hints_bad=("striping_unit=\$(touch $canary)" "striping_unit='x'" $'striping_unit=1\ntouch'
           "striping_unit=\"x\"")
for h in "${hints_bad[@]}"; do
  expect_fail 2 "is not key=value" "$PBENCH" sweep hbad --workers io --partitions 1 --hints "$h"
  unchanged "refused --hints $(printf %q "$h")"
done
expect_fail 2 "--hints: a hint set is not valid UTF-8 text" \
  "$PBENCH" sweep hbad --workers io --partitions 1 --hints $'striping_unit=\xff'
expect_fail 2 "--set logp.repetitions: the value is not valid UTF-8 text" \
  "$PBENCH" sweep sbad --set $'logp.repetitions=\xfe1'
unchanged "non-UTF-8 input"
"$PBENCH" sweep hints --workers io --partitions 1 -T 0.6 \
  --set io.memory_per_proc=1 --set io.cache_bytes=1000 \
  --hints "${hints_ok[0]}" --hints "${hints_ok[1]}" --hints "${hints_ok[2]}" > /dev/null
stored=$(sqlite3 "$PBENCH_DB" "select json_extract(params_json, '$.hints') from points p \
  join sweeps s on s.id = p.sweep_id where s.name = 'hints' order by p.id")
[[ "$stored" == "$(printf '%s\n%s\n%s' "${hints_ok[@]}")" ]] || fail "hints stored as: $stored"
"$PBENCH" submit hints --foreground > /dev/null 2>&1 || true
no_canary "--hints"
"$PBENCH" collect hints > /dev/null
# Each result names exactly the hint set its point was planned with.
received=$(sqlite3 "$PBENCH_DB" "select json_extract(r.head, '$.parameters.hint.value[0]') \
  from results r join points p on p.id = r.point_id join sweeps s on s.id = p.sweep_id \
  where s.name = 'hints' and json_extract(p.params_json, '$.hints') = \
  json_extract(r.head, '$.parameters.hint.value[0]') order by p.id")
[[ "$received" == "$stored" ]] || fail "the worker received hints $received, expected $stored"
no_canary "--hints, run and collected"
echo "injection: ok"
