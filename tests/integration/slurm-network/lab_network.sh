#!/usr/bin/env bash
# The networked lab itself: every node is a network host of its own (its host name, its address
# 198.18.N.I on net0 with N = PBENCH_SLURM_LAB_SUBNET, default 0, its own /sys/class/net, no
# route out of the lab), slurmctld listens on the bridge address only, shape sets and records a link's rate on a running lab (both ends of its
# veth pair) and refuses a bad rate or node, and an MPI job of 4 ranks on 4 nodes finishes (the
# finalize workaround is preloaded) with its traffic on the veths.
source "$(dirname "$0")/common.sh"
source "$lab/common.sh"
source "$lab/network.sh"
shape "$LAB_RATE"

[[ $(sinfo -h -o '%D %T') == "4 idle" ]] || fail "sinfo: $(sinfo)"
cat > nodes.sh <<'SH'
#!/bin/bash
srun bash -c 'echo "$(hostname) $(ip -o -4 addr show dev net0 | awk "{print \$4}") $(ls /sys/class/net | paste -sd,) route:$(ip route get 192.0.2.1 2>&1 | head -1)"' | sort
SH
run_job nodes -N4 --ntasks-per-node=1
expected="node1 $net_prefix.1/24 lo,net0 route:RTNETLINK answers: Network is unreachable
node2 $net_prefix.2/24 lo,net0 route:RTNETLINK answers: Network is unreachable
node3 $net_prefix.3/24 lo,net0 route:RTNETLINK answers: Network is unreachable
node4 $net_prefix.4/24 lo,net0 route:RTNETLINK answers: Network is unreachable"
[[ "$(cat nodes.out)" == "$expected" ]] || fail "nodes: $(cat nodes.out)"

# slurmctld on the bridge address only.
listen=$(ss -Hltn "sport = :$lab_port" | awk '{print $4}' | sort -u | paste -sd' ')
[[ "$listen" == "$net_controller_addr:$lab_port" ]] || fail "slurmctld listens on '$listen'"

# shape on the running lab: both ends of node3's link, recorded; bad specs refused, nothing changed.
"$lab/shape" node3=250mbit 2>/dev/null || fail "shape node3=250mbit failed"
tc qdisc show dev "$(net_veth 3)" | grep -q "rate 250Mbit" || fail "bridge side of node3: $(tc qdisc show dev "$(net_veth 3)")"
net_in_node 3 tc qdisc show dev net0 | grep -q "rate 250Mbit" || fail "net0 of node3: $(net_in_node 3 tc qdisc show dev net0)"
tc qdisc show dev "$(net_veth 2)" | grep -q "rate 1Gbit" || fail "node2 changed: $(tc qdisc show dev "$(net_veth 2)")"
grep -qx "node3=250mbit" "$lab_dir/etc/rates" || fail "rates: $(cat "$lab_dir/etc/rates")"
expect_fail 1 "'node9' in 'node9=1gbit' is not a node of the lab" "$lab/shape" node9=1gbit
expect_fail 1 "rate 'fast' is not a tc rate" "$lab/shape" node2=1gbit node3=fast
tc qdisc show dev "$(net_veth 2)" | grep -q "rate 1Gbit" || fail "a refused shape changed node2"
shape "$LAB_RATE"

# 4 ranks over 4 nodes through Hydra finish (MPICH 4.0.2 would hang in finalize without the
# preloaded workaround in most runs); the bytes crossed node1's veth.
before=$(cat "/sys/class/net/$(net_veth 1)/statistics/tx_bytes")
cat > ring.sh <<SH
#!/bin/bash
mpiexec.hydra -n 4 "$PBENCH_COMM" --random-patterns 1 --repetitions 1 --target-window 0.0002,0.0005 --start-looplength 2 --sizes 1,2 --memory-per-proc 8MiB --output "$work/ring.json"
SH
for attempt in 1 2 3; do
  sbatch_wait --limit 120 -N4 --ntasks-per-node=1 -o "ring.$attempt.out" ring.sh > /dev/null ||
    fail "4 ranks on 4 nodes, attempt $attempt: $(tail -5 "ring.$attempt.out")"
done
after=$(cat "/sys/class/net/$(net_veth 1)/statistics/tx_bytes")
((after - before > 100000)) || fail "only $((after - before)) bytes went to node1 through its veth"
echo "networked lab: ok"
