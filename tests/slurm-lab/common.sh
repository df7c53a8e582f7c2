# Shared by tests/slurm-lab/up and down: where the lab lives and how to tell a live daemon.
# Everything a lab needs lives under one state directory, PBENCH_SLURM_LAB_DIR (default
# ${TMPDIR:-/tmp}/pbench-slurm-lab); slurmctld listens on PBENCH_SLURM_LAB_PORT (default 6817,
# Slurm's own) and slurmd on the port after it. Two labs with their own directory and port can
# run on one machine at once (e.g. two checkouts testing side by side).
lab_dir=${PBENCH_SLURM_LAB_DIR:-${TMPDIR:-/tmp}/pbench-slurm-lab}
lab_port=${PBENCH_SLURM_LAB_PORT:-6817}
[[ "$lab_port" =~ ^[0-9]+$ ]] && ((lab_port >= 1024 && lab_port < 65000)) \
  || { echo "slurm-lab: error: PBENCH_SLURM_LAB_PORT '$lab_port' is not a port from 1024 to 64999" >&2; exit 1; }
lab_conf=$lab_dir/etc/slurm.conf
lab_socket=$lab_dir/munge/munge.socket
lab_daemons=(munged slurmctld slurmd)

lab_say() { echo "slurm-lab: $*" >&2; }
lab_die() { echo "slurm-lab: error: $*" >&2; exit 1; }

# pid_of_daemon NAME: the pid in NAME's pid file, or nothing.
pid_of_daemon() {
  local file=$lab_dir/run/$1.pid
  [[ -s "$file" ]] && tr -dc '0-9' < "$file"
}

# daemon_alive NAME: its pid file names a running (not zombie) process with that name.
daemon_alive() {
  local pid state comm
  pid=$(pid_of_daemon "$1") || return 1
  [[ -n "$pid" && -r /proc/$pid/stat ]] || return 1
  # /proc/PID/stat: "pid (comm) state ..."; a killed daemon lingers as a zombie (Z) here.
  state=$(sed -E 's/^[0-9]+ \(.*\) ([A-Za-z]).*/\1/' "/proc/$pid/stat" 2>/dev/null) || return 1
  comm=$(cat "/proc/$pid/comm" 2>/dev/null) || return 1
  [[ "$state" != Z && "$state" != X && "$comm" == "$1"* ]]
}
