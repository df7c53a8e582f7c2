#!/usr/bin/env bash
# The same sweep through Slurm's PBS wrappers: #PBS directives, qsub from the attempt
# directory, qstat (which shows every finished job as C) plus the exit marker.
source "$(dirname "$0")/common.sh"

"$PBENCH" run pb --scheduler pbs --partitions 1,2 --queue-depths 1 --time-limit 5 \
  --queue lab --max-parallel 2 "${SMALL[@]}" --format json > table.json
"$PY" - table.json "$PBENCH_DB" <<'PY'
import json, sqlite3, sys
rows = json.load(open(sys.argv[1]))["rows"]
assert [(r["partition"], r["queue_depth"]) for r in rows] == [(2, 1)], rows
db = sqlite3.connect(sys.argv[2])
assert db.execute("select count(*) from results").fetchone()[0] == 2
for state, job_id, status in db.execute("select state, job_id, exit_status from attempts"):
    assert state == "done" and job_id.isdigit() and status == 0, (state, job_id, status)
PY
script=$(ls runs/pb/points/*/job.sh | head -1)
for directive in "#PBS -N pb-" "#PBS -l nodes=1:ppn=" "#PBS -l walltime=00:05:00" "#PBS -q lab" \
                 "#PBS -l naccesspolicy=singlejob"; do
  grep -q -- "^$directive" "$script" || fail "no '$directive' in $script"
done
while read -r job_id job_dir; do
  info=$(scontrol show job "$job_id")
  [[ "$info" == *"JobState=COMPLETED"* && "$info" == *"WorkDir=$job_dir"* ]] \
    || fail "job $job_id: $info"
  [[ "$info" == *"TimeLimit=00:05:00"* ]] || fail "job $job_id: #PBS walltime not honoured: $info"
  # Slurm's PBS translation ignores naccesspolicy=singlejob; the #SBATCH line gives whole nodes.
  [[ "$info" == *"OverSubscribe=NO"* ]] || fail "job $job_id does not have its node alone: $info"
  qstat "$job_id" | grep >/dev/null "^$job_id .* C lab" || fail "qstat does not show job $job_id as C"
done < <(sqlite3 -separator ' ' "$PBENCH_DB" "select job_id, job_dir from attempts")
"$PY" "$here/envelope_check.py" "$PBENCH_DB" pb PBS_JOBID "$PBENCH_WORKER_DIR/pbench-logp"
echo "sweep with qsub: ok"
