#!/usr/bin/env bash
# A job killed at its time limit is recorded as timeout, not failed or cancelled: Slurm says
# TIMEOUT; under the PBS wrapper (qstat says C) the exit marker's "time_limit" tells. Slurm's
# limits have minute granularity: the kill comes 60-90 s after the start. The two jobs share the
# node and run at once (about 90 s for the test, where one after the other took 145 s).
source "$(dirname "$0")/common.sh"

for scheduler in slurm pbs; do
  template_with "$scheduler" "sleep 600" "$scheduler-long.sh"
  "$PBENCH" sweep "tl-$scheduler" --scheduler "$scheduler" --partitions 1 --queue-depths 1 \
    --time-limit 0:30 --share-nodes --template "$scheduler-long.sh" "${SMALL[@]}" > /dev/null
  "$PBENCH" submit "tl-$scheduler" > /dev/null
done
for scheduler in slurm pbs; do
  rc=0
  "$PBENCH" wait "tl-$scheduler" --timeout 200 > /dev/null 2>&1 || rc=$?
  [[ $rc -eq 1 ]] || fail "$scheduler: wait exited $rc"
  [[ $(point_states "tl-$scheduler") == "1:timeout" ]] \
    || fail "$scheduler: state $(point_states "tl-$scheduler")"
  row=$(sqlite3 -separator '|' "$PBENCH_DB" "select a.native_state, a.signal from attempts a
        join points p on p.id = a.point_id join sweeps s on s.id = p.sweep_id
        where s.name = 'tl-$scheduler'")
  echo "$scheduler: $row"
  if [[ $scheduler == slurm ]]; then
    [[ "$row" == "TIMEOUT (TimeLimit)|TERM" ]] || fail "slurm: $row"
  else
    [[ "$row" == *"|TERM" ]] || fail "pbs: $row"
  fi
  grep -q '"reason": "time_limit"' runs/"tl-$scheduler"/points/*/attempt-1/exit.json \
    || fail "$scheduler: the exit marker does not say time_limit"
done
echo "time limit: ok"
