#!/usr/bin/env bash
# The same sweep through Slurm's PBS wrappers: #PBS directives, qsub from the attempt
# directory, qstat (which shows every finished job as C) plus the exit marker.
source "$(dirname "$0")/common.sh"

sweep_through pb pbs
has_directives "$(ls runs/pb/points/*/job.sh | head -1)" "#PBS -N pb-" "#PBS -l nodes=1:ppn=" \
  "#PBS -l walltime=00:05:00" "#PBS -q lab" "#PBS -l naccesspolicy=singlejob"
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
