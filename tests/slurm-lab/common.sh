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
# The lab's layout, written by up: "single" (one slurmd named like the machine, today's lab) or
# the number N of nodes node1..nodeN, one slurmd each (pid file slurmd.nodeI.pid).
lab_layout_file=$lab_dir/etc/layout
# The CPUs each node of node1..nodeN declares (up --cpus, default 4), written by up.
lab_cpus_file=$lab_dir/etc/cpus
lab_slurmd_timeout_file=$lab_dir/etc/slurmd_timeout

# Written by up --network (tests/slurm-lab/network.sh): the lab's nodes are network hosts.
net_file=$lab_dir/etc/network
lab_networked() { [[ -s "$net_file" ]]; }

# lab_start_slurmctld: starts slurmctld (it daemonises). In a networked lab it runs in a mount
# namespace of its own with the lab's hosts file, where the machine's name is the bridge's
# address, and binds that address only (NoCtldInAddrAny in slurm.conf).
lab_start_slurmctld() {
  if lab_networked; then
    unshare --mount --propagation private sh -c 'mount --bind "$1" /etc/hosts && exec slurmctld -i' \
      sh "$lab_dir/etc/hosts"
  else
    slurmctld -i
  fi
}

lab_say() { echo "slurm-lab: $*" >&2; }
lab_die() { echo "slurm-lab: error: $*" >&2; exit 1; }

# lab_layout: the layout of the lab last started in lab_dir ("single" when none was).
lab_layout() {
  local layout=single
  [[ -s "$lab_layout_file" ]] && layout=$(tr -dc 'a-z0-9' < "$lab_layout_file")
  echo "${layout:-single}"
}

# lab_cpus: the CPUs per node of the lab last started in lab_dir (4 when it did not say).
lab_cpus() {
  local cpus=4
  [[ -s "$lab_cpus_file" ]] && cpus=$(tr -dc '0-9' < "$lab_cpus_file")
  echo "${cpus:-4}"
}

# The running lab's SlurmdTimeout [s] (10 where a lab started before it was recorded).
lab_slurmd_timeout() {
  local timeout=""
  [[ -s "$lab_slurmd_timeout_file" ]] && timeout=$(tr -dc '0-9' < "$lab_slurmd_timeout_file")
  echo "${timeout:-10}"
}

# lab_slurmds LAYOUT: the names of the slurmd daemons (pid file names) of that layout.
lab_slurmds() {
  if [[ "$1" == single ]]; then
    echo slurmd
  else
    local i
    for ((i = 1; i <= $1; i++)); do echo "slurmd.node$i"; done
  fi
}

# pid_of_daemon NAME: the pid in NAME's pid file, or nothing.
pid_of_daemon() {
  local file=$lab_dir/run/$1.pid
  [[ -s "$file" ]] && tr -dc '0-9' < "$file"
}

# daemon_alive NAME: its pid file names a running (not zombie) process with that name (for
# slurmd.nodeI: a process named slurmd).
daemon_alive() {
  local pid state comm
  pid=$(pid_of_daemon "$1") || return 1
  [[ -n "$pid" && -r /proc/$pid/stat ]] || return 1
  # /proc/PID/stat: "pid (comm) state ..."; a killed daemon lingers as a zombie (Z) here.
  state=$(sed -E 's/^[0-9]+ \(.*\) ([A-Za-z]).*/\1/' "/proc/$pid/stat" 2>/dev/null) || return 1
  comm=$(cat "/proc/$pid/comm" 2>/dev/null) || return 1
  [[ "$state" != Z && "$state" != X && "$comm" == "${1%%.*}"* ]]
}

# lab_running: munged, slurmctld and every slurmd of the lab's layout run.
lab_running() {
  local name
  for name in munged slurmctld $(lab_slurmds "$(lab_layout)"); do
    daemon_alive "$name" || return 1
  done
}
