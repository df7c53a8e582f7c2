#!/usr/bin/env bash
# The four-node lab itself: every node has its own host name, srun --mpi=pmi2 and mpiexec inside
# `sbatch -N4` start one task per node, and a PBS job (Slurm's qsub) gets PBS_NODEFILE with one
# line per task slot.
source "$(dirname "$0")/common.sh"

[[ $(sinfo -h -o '%D %T') == "4 idle" ]] || fail "sinfo: $(sinfo)"
wait_job() {
  for _ in $(seq 150); do
    [[ -z $(squeue -h -j "$1" 2>/dev/null) ]] && return 0
    sleep 0.2
  done
  fail "job $1 did not end: $(scontrol show job "$1")"
}
cat > hosts.sh <<'SH'
#!/bin/bash
echo "srun: $(srun --mpi=pmi2 hostname | sort | paste -sd' ')"
echo "mpiexec: $(mpiexec -n "$SLURM_NTASKS" hostname | sort | paste -sd' ')"
SH
job=$(sbatch --parsable -N4 --ntasks-per-node=1 -o hosts.out hosts.sh)
wait_job "$job"
grep -qx "srun: node1 node2 node3 node4" hosts.out || fail "srun: $(cat hosts.out)"
grep -qx "mpiexec: node1 node2 node3 node4" hosts.out || fail "mpiexec: $(cat hosts.out)"

cat > nodefile.sh <<'SH'
#!/bin/bash
#PBS -l nodes=2:ppn=2
cat "$PBS_NODEFILE"
SH
job=$(qsub -o "$PWD/nodefile.out" -e "$PWD/nodefile.err" nodefile.sh)
wait_job "$job"
# Slurm's PBS translation asks for 4 tasks on 2 nodes: 3 + 1 slots, one line each.
[[ $(sort nodefile.out | uniq -c | awk '{print $2 "=" $1}' | paste -sd' ') == "node1=3 node2=1" ]] \
  || fail "PBS_NODEFILE: $(cat nodefile.out nodefile.err)"

echo "lab with four nodes: ok"
