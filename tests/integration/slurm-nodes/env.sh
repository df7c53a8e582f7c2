# The multi-node lab of the slurm-nodes tests: four nodes node1..node4 in a lab of its own beside
# the single-node lab of the other Slurm tests, in PBENCH_SLURM_LAB_DIR + "-4nodes" with
# slurmctld on PBENCH_SLURM_LAB_PORT + 5 (nodes on the four ports after it). Sourced once per
# shell (PBENCH_SLURM_NODES_LAB marks it).
if [[ -z "${PBENCH_SLURM_NODES_LAB:-}" ]]; then
  export PBENCH_SLURM_LAB_DIR="${PBENCH_SLURM_LAB_DIR:-${TMPDIR:-/tmp}/pbench-slurm-lab}-4nodes"
  export PBENCH_SLURM_LAB_PORT=$((${PBENCH_SLURM_LAB_PORT:-6817} + 5))
  export PBENCH_SLURM_NODES_LAB=4
fi
