# A site profile's [[environment]] tables, printed for the tests that sweep over more than one
# environment (orchestrator/envs_select.sh, envs_gate.sh, report/environments.sh,
# monitoring/nightly.sh, slurm/envs.sh). Usage: source .../lib/site_environments.sh

# site_environment NAME WORKER_DIR LAUNCHER PROGRAM [ARG...]: one environment, its workers in
# WORKER_DIR, launched by PROGRAM as the launcher LAUNCHER (mpiexec, mpirun, ...) with ARGs.
site_environment() {
  local name=$1 dir=$2 launcher=$3 program=$4 args="" arg
  shift 4
  for arg in "$@"; do args+="${args:+, }\"$arg\""; done
  printf '[[environment]]\nname = "%s"\nworker_dir = "%s"\n' "$name" "$dir"
  printf 'launcher = { name = "%s", program = "%s"%s }\n' "$launcher" "$program" \
    "${args:+, args = [$args]}"
}

# two_envs_site MPICH_DIR OPENMPI_DIR: two environments, "mpich" and "openmpi", each worker set
# launched by the build's launch script of its own MPI (Hydra for MPICH, mpirun.openmpi with the
# flags this machine needs for Open MPI).
two_envs_site() {
  site_environment mpich "$1" mpiexec "$1/launch/mpiexec"
  site_environment openmpi "$2" mpiexec "$2/launch/mpiexec"
}

# system_mpis_environments MPICH_DIR OPENMPI_DIR: the same two environments launched by the
# system's launchers: MPICH's mpiexec (Hydra), and Open MPI's mpirun, told to allow more ranks
# than cores and (as root) root, which it refuses otherwise.
system_mpis_environments() {
  local ompi_args=(--oversubscribe)
  if [[ $(id -u) -eq 0 ]]; then ompi_args+=(--allow-run-as-root); fi
  site_environment mpich "$1" mpiexec /usr/bin/mpiexec.hydra
  site_environment openmpi "$2" mpirun /usr/bin/mpirun.openmpi "${ompi_args[@]}"
}

# two_worker_sets: MPICH_DIR and OPENMPI_DIR, the build's MPICH and Open MPI worker sets (from
# PBENCH_MPICH_WORKER_DIR and PBENCH_OPENMPI_WORKER_DIR), and no PBENCH_WORKER_DIR, so that each
# environment runs its own set.
two_worker_sets() {
  MPICH_DIR=${PBENCH_MPICH_WORKER_DIR:?PBENCH_MPICH_WORKER_DIR must name the MPICH worker set}
  OPENMPI_DIR=${PBENCH_OPENMPI_WORKER_DIR:?PBENCH_OPENMPI_WORKER_DIR must name the Open MPI set}
  unset PBENCH_WORKER_DIR
}
