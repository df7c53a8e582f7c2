#!/usr/bin/env bash
# The simulated Slurm's sbatch (bench/scale_sim.sh; bench/lib/fake_slurm.py says how the jobs end):
# counts the call, records the job (id|chdir|script|array) in $FAKE_SLURM_DIR/submitted and
# prints its id as `sbatch --parsable` does. Plain bash: a submission costs what pbench spends,
# not a Python start-up.
set -euo pipefail
state=${FAKE_SLURM_DIR:?}
chdir="" array="" script=""
for arg; do
  case "$arg" in
    --chdir=*) chdir=${arg#--chdir=} ;;
    --array=*) array=${arg#--array=} ;;
    -*) ;;
    *) script=$arg ;;
  esac
done
exec 9>>"$state/lock"
flock 9
id=$(($(cat "$state/next" 2>/dev/null || echo 1000) + 1))
echo "$id" > "$state/next"
echo "sbatch" >> "$state/calls"
printf '%s|%s|%s|%s\n' "$id" "$chdir" "$script" "$array" >> "$state/submitted"
echo "$id"
