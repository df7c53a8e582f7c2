#!/usr/bin/env bash
# pbench cancel on running and planned points: Slurm (scancel; squeue says CANCELLED) and PBS
# (qdel sends SIGKILL, so no exit marker: pbench's cancel request tells).
source "$(dirname "$0")/common.sh"

for scheduler in slurm pbs; do
  name=cx-$scheduler
  template_with "sleep 300" "$scheduler-sleep.sh"
  "$PBENCH" sweep "$name" --scheduler "$scheduler" --share-nodes --partitions 1,2 --queue-depths 1,8 \
    --template "$scheduler-sleep.sh" "${SMALL[@]}" > /dev/null
  "$PBENCH" submit "$name" --max-parallel 2 > /dev/null
  for _ in $(seq 100); do
    [[ $(point_states "$name" | grep -c running) -eq 2 ]] && break
    sleep 0.2
  done
  [[ $(point_states "$name" | grep -c running) -eq 2 ]] \
    || fail "$scheduler: two points should be running: $(point_states "$name")"
  "$PBENCH" cancel "$name" | grep >/dev/null "cancel sent to 2 jobs" || fail "$scheduler: cancel"
  rc=0
  "$PBENCH" wait "$name" --timeout 60 > /dev/null 2>&1 || rc=$?
  [[ $rc -eq 1 ]] || fail "$scheduler: wait exited $rc"
  states=$(point_states "$name" | tr '\n' ' ')
  [[ "$states" == "1:cancelled 1:cancelled 2:cancelled 2:cancelled " ]] \
    || fail "$scheduler: states after cancel: $states"
  # Both jobs really left the queue.
  for job_id in $(sqlite3 "$PBENCH_DB" "select a.job_id from attempts a join points p on p.id = a.point_id
                  join sweeps s on s.id = p.sweep_id where s.name = '$name' and a.job_id is not null"); do
    # COMPLETING (still cleaning up after the kill) passes within KillWait.
    for _ in $(seq 75); do
      state=$(squeue -h -t all -j "$job_id" -o %T)
      [[ "$state" == COMPLETING ]] || break
      sleep 0.2
    done
    [[ "$state" == CANCELLED ]] || fail "$scheduler: job $job_id is $state"
  done
done
echo "cancel: ok"
