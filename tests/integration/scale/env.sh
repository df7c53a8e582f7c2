# The lab of the scale tests: eight nodes node1..node8 of 4 CPUs (32 task slots) in a lab of its
# own, in PBENCH_SLURM_LAB_DIR + "-scale" with slurmctld on PBENCH_SLURM_LAB_PORT + 30 (nodes on
# the eight ports after it). Sourced once per shell (PBENCH_SCALE_LAB marks it).
if [[ -z "${PBENCH_SCALE_LAB:-}" ]]; then
  export PBENCH_SLURM_LAB_DIR="${PBENCH_SLURM_LAB_DIR:-${TMPDIR:-/tmp}/pbench-slurm-lab}-scale"
  export PBENCH_SLURM_LAB_PORT=$((${PBENCH_SLURM_LAB_PORT:-6817} + 30))
  export PBENCH_SCALE_LAB=8
fi
