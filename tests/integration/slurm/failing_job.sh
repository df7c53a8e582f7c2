#!/usr/bin/env bash
# A job whose worker fails is recorded as failed with its exit status and stderr tail, under
# Slurm (squeue says FAILED) and under PBS (qstat says only C: the exit marker tells). Launched by
# srun, the failed point's line quotes the worker's own error line before srun's (issue 39 item
# 8), in run's and status's output and in status --format json.
source "$(dirname "$0")/common.sh"

for scheduler in slurm pbs; do
  name=bad-$scheduler
  # A root that is none of the processes: pbench checks --set against each parameter's range,
  # the worker alone knows its processes (bcast: --root), so the job fails.
  "$PBENCH" sweep "$name" --scheduler "$scheduler" --workers bcast --partitions 2 \
    --set bcast.root=5 > /dev/null
  rc=0
  "$PBENCH" submit "$name" --foreground > submit.txt 2>&1 || rc=$?
  [[ $rc -eq 1 ]] || fail "$scheduler: submit exited $rc, expected 1: $(cat submit.txt)"
  [[ $(point_states "$name") == "2:failed" ]] || fail "$scheduler: states $(point_states "$name")"
  row=$(sqlite3 -separator '|' "$PBENCH_DB" "select a.exit_status, a.native_state, a.stderr_tail
        from attempts a join points p on p.id = a.point_id join sweeps s on s.id = p.sweep_id
        where s.name = '$name'")
  status=${row%%|*}
  [[ "$status" =~ ^[1-9][0-9]*$ ]] || fail "$scheduler: no exit status recorded: $row"
  [[ "$row" == *"root"* ]] || fail "$scheduler: the stderr tail lacks the worker's error: $row"
  if [[ $scheduler == slurm ]]; then
    [[ "$row" == *"|FAILED (NonZeroExitCode)|"* ]] || fail "slurm: native state: $row"
    job_id=$(sqlite3 "$PBENCH_DB" "select a.job_id from attempts a join points p on p.id = a.point_id
             join sweeps s on s.id = p.sweep_id where s.name = '$name'")
    scontrol show job "$job_id" | grep >/dev/null "ExitCode=$status:0" \
      || fail "slurm: the recorded status $status differs from Slurm's: $(scontrol show job "$job_id")"
  fi
  rc=0
  "$PBENCH" collect "$name" > collect.out 2>&1 || rc=$?
  [[ $rc -eq 1 ]] || fail "$scheduler: collect of a failed point exited $rc, expected 1"
  grep >/dev/null "failed, exit status $status" collect.out \
    || fail "$scheduler: collect does not report the failure: $(cat collect.out)"
done

# Through srun: the worker refuses a setting it reads at run time (pbench does not check it), and
# srun reports the failed tasks after it.
rc=0
"$PBENCH" run srun-bad --scheduler slurm --launcher srun --workers bcast --partitions 2 \
  --set bcast.root=5 > run.out 2>&1 || rc=$?
[[ $rc -eq 1 ]] || fail "run of a failing point through srun exited $rc: $(cat run.out)"
"$PBENCH" status srun-bad > status.txt
"$PBENCH" status srun-bad --format json > status.json
worker_then_srun='pbench-bcast: error: .*root.*; launcher: srun: error: '
grep -q "failed, exit status [1-9][0-9]*: $worker_then_srun" run.out ||
  fail "run does not quote the worker's line before srun's: $(cat run.out)"
# The table wraps a long note at its width: its lines joined, as one note.
tr -s ' \n' ' ' < status.txt | grep -q "failed, exit status [1-9][0-9]*: $worker_then_srun" ||
  fail "status does not quote the worker's line before srun's: $(cat status.txt)"
"$PY" - "$worker_then_srun" <<'PY' || fail "status --format json: $(cat status.json)"
import json, re, sys
notes = json.load(open("status.json"))["notes"]
said = [n for n in notes if re.search("failed, exit status [1-9][0-9]*: " + sys.argv[1], n)]
assert len(said) == 1, notes
PY
echo "failing job: ok"
