# Sourced by up, down and shape (after common.sh): the lab's nodes as network hosts
# (up --network). Each node is a holder process (`sleep infinity`) in its own network, UTS,
# mount and IPC namespaces, with its host name, the lab's hosts file on /etc/hosts, /sys
# remounted so that /sys/class/net shows the node's own interfaces (UCX's tcp transport reads
# it) and /sys/fs/cgroup bound back (slurmd needs it); a veth pair joins the node's net0
# (198.18.0.I/24) to the lab's bridge (198.18.0.254/24, in the machine's namespace). Nothing
# routes out: the nodes have no default route and the bridge has no other port. A link's rate
# is shaped with tc tbf on both ends of its veth pair (into the node on the bridge side, out of
# it on net0), so a node's link is one full-duplex link of that rate.
# 198.18.0.0/15 is set aside for benchmarking network devices (RFC 2544): no real network uses it.
# The lab's /24 is 198.18.N.0 with N = PBENCH_SLURM_LAB_SUBNET (default 0): a second networked
# lab (its own state directory and port) runs beside the first on another N.
net_subnet=${PBENCH_SLURM_LAB_SUBNET:-0}
[[ "$net_subnet" =~ ^[0-9]{1,3}$ ]] && ((net_subnet <= 255)) ||
  { echo "slurm-lab: error: PBENCH_SLURM_LAB_SUBNET '$net_subnet' is not from 0 to 255" >&2; exit 1; }
net_prefix=198.18.$net_subnet
net_controller_addr=$net_prefix.254
# Names made from the lab's port, so two labs (other ports) never share a bridge or a veth.
net_bridge=pbl$lab_port
net_rates_file=$lab_dir/etc/rates
# Exit status of up when this machine does not allow the network lab: tests skip on it.
net_not_allowed_status=77

# net_veth I: the bridge-side veth of node I.
net_veth() { echo "${net_bridge}n$1"; }
net_holder() { echo "holder.node$1"; }

# net_holder_alive I: node I's holder runs (its pid file names a live sleep).
net_holder_alive() {
  local pid state
  pid=$(pid_of_daemon "$(net_holder "$1")") || return 1
  [[ -n "$pid" && -r /proc/$pid/stat ]] || return 1
  state=$(sed -E 's/^[0-9]+ \(.*\) ([A-Za-z]).*/\1/' "/proc/$pid/stat" 2>/dev/null) || return 1
  [[ "$state" != Z && "$state" != X && "$(cat "/proc/$pid/comm" 2>/dev/null)" == sleep ]]
}

# net_not_allowed WHAT: says why the network lab cannot run here and exits with status 77.
net_not_allowed() {
  echo "slurm-lab: network: not possible on this machine: $*" >&2
  exit "$net_not_allowed_status"
}

# net_check_allowed: the tools are there and the kernel lets us make namespaces, a bridge and
# a veth pair (a container CI runner may forbid them); exits 77 naming what failed.
net_check_allowed() {
  local tool out probe="${net_bridge}t"
  for tool in ip tc unshare nsenter; do
    command -v "$tool" >/dev/null || net_not_allowed "'$tool' is missing (Debian: iproute2, util-linux)"
  done
  out=$(unshare --net --uts --mount --ipc --propagation private true 2>&1) ||
    net_not_allowed "network namespaces are not allowed (unshare --net: ${out:-failed})"
  ip link del "$probe" 2>/dev/null || true
  out=$(ip link add "$probe" type bridge 2>&1) ||
    net_not_allowed "bridges are not allowed (ip link add type bridge: ${out:-failed})"
  ip link del "$probe" 2>/dev/null || true
  out=$(ip link add "${probe}a" type veth peer name "${probe}b" 2>&1) ||
    net_not_allowed "veth pairs are not allowed (ip link add type veth: ${out:-failed})"
  ip link del "${probe}a" 2>/dev/null || true
  out=$(tc qdisc add dev lo root tbf rate 1gbit burst 256kb latency 50ms 2>&1 &&
    tc qdisc del dev lo root 2>&1) ||
    net_not_allowed "tc tbf is not available (${out:-failed})"
}

# net_bridge_up: the bridge with the controller's address, once.
net_bridge_up() {
  local other
  if ! ip link show "$net_bridge" >/dev/null 2>&1; then
    other=$(ip -o addr show to "$net_prefix.0/24" 2>/dev/null | awk '{ print $2 }' | head -1)
    [[ -z "$other" ]] || lab_die "$net_prefix.0/24 is in use on '$other' (another networked lab?): stop it first"
    ip link add "$net_bridge" type bridge
    ip addr add "$net_controller_addr/24" dev "$net_bridge"
  fi
  ip link set "$net_bridge" up
}

# net_node_up I: node I's holder and its link (when not already running).
net_node_up() {
  local i=$1 name=node$1 pid ready cgroup
  net_holder_alive "$i" && return 0
  ready=$lab_dir/run/$name.ready
  cgroup=$lab_dir/run/$name.cgroup
  rm -f "$ready"
  mkdir -p "$cgroup"
  ip link del "$(net_veth "$i")" 2>/dev/null || true
  # The holder sets up its own mount and UTS namespaces, then sleeps; it keeps the namespaces
  # alive for slurmd and everything slurmd starts.
  setsid unshare --net --uts --mount --ipc --propagation private sh -c '
    set -e
    hostname "$1"
    mount --bind "$2" /etc/hosts
    mount --rbind /sys/fs/cgroup "$3"
    umount -l /sys
    mount -t sysfs sysfs /sys
    mount --move "$3" /sys/fs/cgroup
    ip link set lo up
    echo ok > "$4"
    exec sleep infinity' sh "$name" "$lab_dir/etc/hosts" "$cgroup" "$ready" \
    < /dev/null >> "$lab_dir/log/$name.holder.log" 2>&1 &
  pid=$!
  echo "$pid" > "$lab_dir/run/$(net_holder "$i").pid"
  for _ in $(seq 100); do
    [[ -s "$ready" ]] && break
    kill -0 "$pid" 2>/dev/null || lab_die "node $name's namespaces could not be set up (see $lab_dir/log/$name.holder.log)"
    sleep 0.05
  done
  [[ -s "$ready" ]] || lab_die "node $name's namespaces were not ready within 5 s (see $lab_dir/log/$name.holder.log)"
  ip link add "$(net_veth "$i")" type veth peer name net0 netns "$pid"
  ip link set "$(net_veth "$i")" master "$net_bridge" up
  nsenter -t "$pid" -n ip addr add "$net_prefix.$i/24" dev net0
  nsenter -t "$pid" -n ip link set net0 up
}

# net_in_node I COMMAND...: runs COMMAND inside node I (all its namespaces).
net_in_node() {
  local pid
  pid=$(pid_of_daemon "$(net_holder "$1")")
  shift
  nsenter -t "$pid" -n -u -m -i "$@"
}

# net_rate_valid RATE: a tc rate (e.g. 1gbit, 250mbit, 1.5gbit) or "none" (unshaped).
net_rate_valid() { [[ "$1" == none || "$1" =~ ^[0-9]+(\.[0-9]+)?(bit|kbit|mbit|gbit)$ ]]; }

# net_burst RATE: tbf's bucket for RATE, 2 ms of it (at least 16 KiB), in bytes. Larger, and a
# message that finds the bucket full (a ping-pong's, after the other direction's turn) goes
# faster than the rate: 256 KiB at 250 Mbit/s let a 4 MiB ping-pong measure 1.03-1.05 of
# rate x 1448/1514. Smaller, and tbf's timer cannot keep up: 64 KiB at 1 Gbit/s gave a stream
# 0.85-0.91 of it. With 2 ms, both rates measured 0.96-1.0 (4 MiB ping-pong and stream).
net_burst() {
  awk -v rate="$1" 'BEGIN {
    n = rate + 0; unit = rate; sub(/^[0-9.]+/, "", unit)
    scale = unit == "gbit" ? 1e9 : unit == "mbit" ? 1e6 : unit == "kbit" ? 1e3 : 1
    burst = int(n * scale / 8 * 0.002); if (burst < 16384) burst = 16384
    print burst
  }'
}

# net_shape I RATE: shapes node I's link to RATE in both directions (none: unshaped) and
# records it in etc/rates.
net_shape() {
  local i=$1 rate=$2 pid veth burst
  veth=$(net_veth "$i")
  pid=$(pid_of_daemon "$(net_holder "$i")")
  if [[ "$rate" == none ]]; then
    tc qdisc del dev "$veth" root 2>/dev/null || true
    nsenter -t "$pid" -n tc qdisc del dev net0 root 2>/dev/null || true
  else
    burst=$(net_burst "$rate")
    tc qdisc replace dev "$veth" root tbf rate "$rate" burst "$burst" latency 50ms
    nsenter -t "$pid" -n tc qdisc replace dev net0 root tbf rate "$rate" burst "$burst" latency 50ms
  fi
  touch "$net_rates_file"
  { grep -v "^node$i=" "$net_rates_file" || true; echo "node$i=$rate"; } | sort -V > "$net_rates_file.new"
  mv -f "$net_rates_file.new" "$net_rates_file"
}

# net_check_rates NODES SPEC...: refuses a rate spec that is not "RATE" or "nodeI=RATE" with
# I a node of the lab.
net_check_rates() {
  local nodes=$1 spec node rate
  shift
  for spec in "$@"; do
    rate=${spec#*=}
    [[ "$spec" == *=* ]] && node=${spec%%=*} || node=""
    net_rate_valid "$rate" || lab_die "rate '$rate' is not a tc rate such as 1gbit, 250mbit or 500kbit (or none)"
    if [[ -n "$node" ]]; then
      [[ "$node" =~ ^node([0-9]+)$ ]] && ((BASH_REMATCH[1] >= 1 && BASH_REMATCH[1] <= nodes)) ||
        lab_die "'$node' in '$spec' is not a node of the lab (node1..node$nodes)"
    fi
  done
}

# net_apply_rates NODES SPEC...: applies rate specs ("RATE" for every node, "nodeI=RATE" for
# one) in order, after checking them all.
net_apply_rates() {
  local nodes=$1 spec node rate i
  shift
  net_check_rates "$nodes" "$@"
  for spec in "$@"; do
    rate=${spec#*=}
    if [[ "$spec" == *=* ]]; then
      node=${spec%%=*}
      net_shape "${node#node}" "$rate"
    else
      for ((i = 1; i <= nodes; i++)); do net_shape "$i" "$rate"; done
    fi
  done
}

# net_down NODES: every holder by its pid, every veth and the bridge by name.
net_down() {
  local nodes=$1 i pid
  for ((i = 1; i <= nodes; i++)); do
    if net_holder_alive "$i"; then
      pid=$(pid_of_daemon "$(net_holder "$i")")
      kill -TERM "$pid" 2>/dev/null || true
    fi
  done
  for ((i = 1; i <= nodes; i++)); do
    for _ in $(seq 50); do
      net_holder_alive "$i" || break
      sleep 0.1
    done
    net_holder_alive "$i" && lab_die "the holder of node$i ($(pid_of_daemon "$(net_holder "$i")")) does not stop"
    ip link del "$(net_veth "$i")" 2>/dev/null || true
    rm -f "$lab_dir/run/$(net_holder "$i").pid" "$lab_dir/run/node$i.ready"
    rmdir "$lab_dir/run/node$i.cgroup" 2>/dev/null || true
  done
  ip link del "$net_bridge" 2>/dev/null || true
  rm -f "$net_file" "$net_rates_file"
}
