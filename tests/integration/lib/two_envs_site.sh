# two_envs_site MPICH_DIR OPENMPI_DIR: prints a site profile with two environments, "mpich" and
# "openmpi", each worker set launched by its own MPI's launcher (the build's launch scripts:
# Hydra for MPICH, mpirun.openmpi with the flags this machine needs for Open MPI). Shared by the
# tests of a sweep over both (orchestrator/envs_select.sh, report/environments.sh).
two_envs_site() {
  local name dir
  for name in mpich openmpi; do
    [[ $name == mpich ]] && dir=$1 || dir=$2
    printf '[[environment]]\nname = "%s"\nworker_dir = "%s"\n' "$name" "$dir"
    printf 'launcher = { name = "mpiexec", program = "%s/launch/mpiexec" }\n' "$dir"
  done
}
