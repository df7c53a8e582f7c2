#!/usr/bin/env bash
# A logp sweep over partitions 1 and 2 through the real Slurm: sbatch with #SBATCH directives,
# mpiexec inside the allocation (and srun --mpi=pmi2 for a second sweep), one squeue per cycle,
# collected into the store and read back.
source "$(dirname "$0")/common.sh"

sweep_through sl slurm
native=$(sqlite3 "$PBENCH_DB" "select group_concat(distinct native_state) from attempts")
[[ $native == COMPLETED ]] || fail "the attempts' Slurm states are $native, not COMPLETED"

# The scripts carry the directives; Slurm ran each job in its attempt directory with them.
script=$(ls runs/sl/points/*/job.sh | head -1)
# A plain partition: the tasks where Slurm has room (no node count), on whole nodes.
has_directives "$script" "#SBATCH --ntasks=" "#SBATCH --exclusive" "#SBATCH --time=00:05:00" \
  "#SBATCH --partition=lab"
! grep -q -- "^#SBATCH --nodes" "$script" || fail "a plain partition asks for a node count: $script"
while read -r job_id job_dir partition; do
  info=$(scontrol show job "$job_id")
  [[ "$info" == *"JobState=COMPLETED"* ]] || fail "job $job_id: $info"
  [[ "$info" == *"WorkDir=$job_dir"* ]] || fail "job $job_id did not run in $job_dir: $info"
  [[ "$info" == *"NumTasks=$partition "* || "$info" == *"NumCPUs=$partition "* ]] \
    || fail "job $job_id did not ask for $partition tasks: $info"
  [[ "$info" == *"TimeLimit=00:05:00"* ]] || fail "job $job_id has another time limit: $info"
  [[ "$info" == *"OverSubscribe=NO"* ]] || fail "job $job_id does not have its node alone: $info"
done < <(sqlite3 -separator ' ' "$PBENCH_DB" \
  "select a.job_id, a.job_dir, p.partition from attempts a join points p on p.id = a.point_id")

# Each attempt's reproducibility envelope matches what ran.
"$PY" "$here/envelope_check.py" "$PBENCH_DB" sl SLURM_JOB_ID "$PBENCH_WORKER_DIR/pbench-logp"

# The same with srun --mpi=pmi2 as the launcher.
"$PBENCH" run sr --scheduler slurm --launcher srun --partitions 2 --queue-depths 1 \
  "${SMALL[@]}" --format json > srun.json
grep -q "^srun --mpi=pmi2 -n 2 " runs/sr/points/*/job.sh || fail "no srun launch line"
"$PY" -c "import json,sys; r=json.load(open('srun.json'))['rows']; assert len(r)==1 and r[0]['eel']>0, r"
echo "sweep with sbatch: ok"
