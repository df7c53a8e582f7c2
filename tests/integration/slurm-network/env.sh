# The networked lab of the slurm-network tests: four nodes node1..node4, each its own network
# host, every link at 1 Gbit/s, in a lab of its own in PBENCH_SLURM_LAB_DIR + "-net" with
# slurmctld on PBENCH_SLURM_LAB_PORT + 10 (nodes on the four ports after it; bridge pbl<port>).
# Sourced once per shell (PBENCH_SLURM_NETWORK_LAB marks it).
if [[ -z "${PBENCH_SLURM_NETWORK_LAB:-}" ]]; then
  export PBENCH_SLURM_LAB_DIR="${PBENCH_SLURM_LAB_DIR:-${TMPDIR:-/tmp}/pbench-slurm-lab}-net"
  export PBENCH_SLURM_LAB_PORT=$((${PBENCH_SLURM_LAB_PORT:-6817} + 10))
  export PBENCH_SLURM_NETWORK_LAB=4
fi
PRELOAD=${PBENCH_LAB_PRELOAD:?PBENCH_LAB_PRELOAD must name the built ucx_disconnect_now library}
# The lab's rate for every link, and how up is called (the fixture and every test: idempotent).
LAB_RATE=1gbit
lab_up_args=(--nodes "$PBENCH_SLURM_NETWORK_LAB" --network --preload "$PRELOAD")
