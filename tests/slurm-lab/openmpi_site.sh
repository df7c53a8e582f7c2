# lab_openmpi_site WORKER_DIR [TIME_LIMIT]: prints a site profile for the lab's Slurm (queue
# "lab") with one environment, "openmpi", whose workers are in WORKER_DIR, launched by Open MPI's
# mpirun told to yield the core when it waits (--mca mpi_yield_when_idle 1): many ranks share the
# machine's 2 cores (SLURM-LAB.md, "Many ranks on two cores"; MPICH 4.0.2's ch4 busy-polls and
# has no such switch). Open MPI's own oversubscription test counts the slots Slurm declares, not
# the cores, hence --oversubscribe; as root it must be allowed. Shared by the scale test
# (tests/integration/scale/card_sweep.sh) and bench/card_sweep.sh.
lab_openmpi_site() {
  local worker_dir=$1 time_limit=${2:-}
  local args='"--oversubscribe", "--mca", "mpi_yield_when_idle", "1"'
  if [[ $(id -u) -eq 0 ]]; then args+=', "--allow-run-as-root"'; fi
  printf '[scheduler]\nname = "slurm"\nqueue = "lab"\n'
  [[ -z "$time_limit" ]] || printf 'time_limit = "%s"\n' "$time_limit"
  printf '[[environment]]\nname = "openmpi"\nworker_dir = "%s"\n' "$worker_dir"
  printf 'launcher = { name = "mpirun", program = "/usr/bin/mpirun.openmpi", args = [%s] }\n' \
    "$args"
}
