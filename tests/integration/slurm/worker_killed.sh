#!/usr/bin/env bash
# A worker rank killed with SIGKILL mid-run under Slurm, launched by mpiexec and by srun: its
# point is failed with signal KILL (from the launcher's report: mpiexec exits 9, srun -K 143
# after terminating the other rank), Slurm says FAILED, the other points are done with their
# results stored whole, and `submit --retry-failed` fills the point in.
source "$(dirname "$0")/common.sh"
source "$(dirname "$0")/../hardening/faults.sh"

slow_template slow.sh
for launcher in mpiexec srun; do
  name=kill-$launcher
  args=("$name" --scheduler slurm --share-nodes --launcher "$launcher" --partitions 2 --queue-depths 1,8,64
        --template slow.sh "${FAST[@]}")
  key=$(point_key 8 "${args[@]}")
  [[ "$key" =~ ^[0-9a-f]+$ ]] || fail "$launcher: no key for the q=8 point: '$key'"
  echo "$key" > "$slow_points"
  "$PBENCH" sweep "${args[@]}" > /dev/null
  "$PBENCH" submit "$name" > /dev/null
  kill_rank 8
  rc=0
  "$PBENCH" wait "$name" --timeout 180 > wait.out 2>&1 || rc=$?
  [[ $rc -eq 1 ]] || fail "$launcher: wait exited $rc, expected 1: $(cat wait.out)"
  no_ranks_left 8
  rc=0
  "$PBENCH" collect "$name" > collect.out 2>&1 || rc=$?
  [[ $rc -eq 1 ]] || fail "$launcher: collect of a killed point exited $rc, expected 1"
  grep -qF "2 results stored" collect.out || fail "$launcher: collect: $(cat collect.out)"
  status=9
  [[ $launcher == srun ]] && status=143
  grep -qF "q=8 [$key]: failed, exit status $status, signal KILL" collect.out \
    || fail "$launcher: collect does not report the killed point: $(cat collect.out)"
  check_sweep "$name" "1:done:0::1 8:failed:$status:KILL:1 64:done:0::1"
  job_id=$(sqlite3 "$PBENCH_DB" "select job_id from attempts a join points p on p.id = a.point_id
           where p.point_key = '$key' and p.sweep_id = (select id from sweeps where name = '$name')")
  scontrol show job "$job_id" | grep "JobState=FAILED .*" >/dev/null \
    || fail "$launcher: Slurm does not say FAILED: $(scontrol show job "$job_id")"
  "$PBENCH" status "$name" --format csv | grep ",failed,1,$job_id,$status,KILL," >/dev/null \
    || fail "$launcher: status does not show the signal: $("$PBENCH" status "$name" --format csv)"

  : > "$slow_points"
  "$PBENCH" submit "$name" --retry-failed --foreground > retry.out 2>&1 \
    || fail "$launcher: retry failed: $(cat retry.out)"
  "$PBENCH" collect "$name" > /dev/null
  check_sweep "$name" "1:done:0::1 8:done:0::2 64:done:0::1"
done
echo "worker killed under slurm: ok"
