#!/usr/bin/env bash
# Faults across the nodes of the four-node lab:
# - a node set down before a sweep: the point that needs it pends, and `status` shows Slurm's
#   reason; resumed, the point runs;
# - a node whose slurmd (with everything on it) is killed mid-run, through sbatch and qsub: the
#   point fails with a reason, the batch system marks the node down, collect names it, and
#   `submit --retry-failed` completes the point on the others;
# - more nodes than the cluster has (sbatch and qsub): Slurm's refusal quoted, the point failed
#   with it, not left planned.
# The lab is whole again afterwards (tests/slurm-lab/up restarts a dead slurmd, resumes a node).
source "$(dirname "$0")/common.sh"
source "$here/../hardening/faults.sh"
restore_lab() {
  scontrol update nodename=node1,node2,node3,node4 state=resume >/dev/null 2>&1 || true
  "$lab/up" --nodes "$PBENCH_SLURM_NODES_LAB" >/dev/null 2>&1 || true
}
trap 'kill_leftover_ranks; restore_lab; rm -rf "$work"' EXIT
# Tiny logp points; without eel_runs, so that the slow template's PBENCH_EEL_RUNS applies.
LOGP=(--workers logp --queue-depths 1 --set logp.eel_roundtrips=200 --set logp.max_size=1024
      --set logp.repetitions=1 --set logp.flood_messages=100
      --set "logp.flood_bytes=$unique_flood_bytes")
state_of() {
  sqlite3 "$PBENCH_DB" "select p.state from points p join sweeps s on s.id = p.sweep_id
                         where s.name = '$1'"
}

# --- The lab sets a silent node down after 10 s (up's default --slurmd-timeout), which the node
# killed below waits for; a running lab refuses another timeout, and a timeout that is no number
# of seconds is refused by name.
[[ $(scontrol show config | sed -n 's/^SlurmdTimeout *= *//p') == "10 sec" ]] ||
  fail "the lab's SlurmdTimeout: $(scontrol show config | grep SlurmdTimeout)"
rc=0
"$lab/up" --nodes "$PBENCH_SLURM_NODES_LAB" --slurmd-timeout 300 > up.out 2>&1 || rc=$?
[[ $rc -ne 0 ]] && grep -q "runs with SlurmdTimeout=10, not 300; stop it first" up.out ||
  fail "up with another --slurmd-timeout (exit $rc): $(cat up.out)"
rc=0
"$lab/up" --nodes "$PBENCH_SLURM_NODES_LAB" --slurmd-timeout 0 > up.out 2>&1 || rc=$?
[[ $rc -ne 0 ]] && grep -q -- "--slurmd-timeout '0' is not a number of seconds" up.out ||
  fail "up --slurmd-timeout 0 (exit $rc): $(cat up.out)"

# --- A node set down before the sweep: 4x1 needs it and pends with Slurm's reason.
scontrol update nodename=node3 state=down reason="pbench test: node3 is down"
"$PBENCH" sweep dn --scheduler slurm --partitions 4x1 "${LOGP[@]}" > /dev/null
rc=0
"$PBENCH" wait dn --timeout 6 > wait.out 2>&1 || rc=$?
[[ $rc -eq 8 ]] || fail "wait exited $rc, expected 8 (its --timeout passed, the point pending): $(cat wait.out)"
grep -q "timeout 6s passed" wait.out || fail "wait does not say it timed out: $(cat wait.out)"
"$PBENCH" status dn --format json > status.json
"$PY" - status.json <<'PY'
import json, sys
rows = json.load(open(sys.argv[1]))["rows"]
assert len(rows) == 1, rows
r = rows[0]
assert (r["state"], r["nodes"], r["ppn"]) == ("queued", 4, 1), r
# Slurm's reason for the pending job, as squeue gives it.
assert r["scheduler"].startswith("PENDING (") and r["scheduler"] != "PENDING (None)", r
assert "ReqNodeNotAvail" in r["scheduler"] or "Resources" in r["scheduler"] \
    or "Nodes required" in r["scheduler"], r
PY
"$PBENCH" status dn > status.txt
grep -q "PENDING (" status.txt || fail "status does not show the reason: $(cat status.txt)"
scontrol update nodename=node3 state=resume
"$PBENCH" wait dn --timeout 120 > /dev/null || fail "the point did not run after node3 resumed"
"$PBENCH" collect dn > /dev/null
[[ $(state_of dn) == done ]] || fail "dn: $(state_of dn)"

# --- A node killed mid-run (its slurmd and everything in its namespace, as if it died), through
# sbatch and through qsub: the point fails, collect names the node the batch system now holds
# down (sinfo; pbsnodes -l -n); through Slurm, `submit --retry-failed` completes the point on the
# others.
slow_template slow.sh
kill_node_mid_run() {  # SCHEDULER SWEEP: sets victim and key
  local scheduler=$1 name=$2
  local args=("$name" --scheduler "$scheduler" --partitions 2x1 --template slow.sh "${LOGP[@]}")
  key=$(point_key 1 "${args[@]}")
  [[ "$key" =~ ^[0-9a-f]+$ ]] || fail "no key for the point: '$key'"
  echo "$key" > "$slow_points"
  "$PBENCH" sweep "${args[@]}" > /dev/null
  "$PBENCH" submit "$name" > /dev/null
  local ranks=""
  for _ in $(seq 1200); do
    ranks=$({ pgrep -f -- "^[^ ]*pbench-logp .*--flood-bytes[ =]$unique_flood_bytes( |\$)" || true; } | wc -l)
    [[ $ranks -ge 2 ]] && break
    sleep 0.1
  done
  [[ $ranks -ge 2 ]] || fail "$scheduler: the slow point's two ranks did not start"
  local job info batch_host
  job=$(sqlite3 "$PBENCH_DB" "select a.job_id from attempts a join points p on p.id = a.point_id
         join sweeps s on s.id = p.sweep_id where s.name = '$name'")
  info=$(scontrol show job "${job%%.*}")
  batch_host=$(sed -n 's/.*BatchHost=\([^ ]*\).*/\1/p' <<< "$info")
  victim=$(scontrol show hostnames "$(sed -n 's/.* NodeList=\([^ ]*\).*/\1/p' <<< "$info")" |
           grep -vx "$batch_host" | head -1)
  [[ "$victim" == node? ]] || fail "$scheduler: no second node in job $job: $info"
  kill_lab_node "$victim"
  local rc=0
  "$PBENCH" wait "$name" --timeout 180 > wait.out 2>&1 || rc=$?
  [[ $rc -eq 1 ]] || fail "$scheduler: wait exited $rc, expected 1 (a failed point): $(cat wait.out)"
  [[ $(state_of "$name") == failed ]] || fail "$name: $(state_of "$name")"
  [[ -n $(sqlite3 "$PBENCH_DB" "select coalesce(a.stderr_tail, '') || coalesce(a.exit_status, '')
          from attempts a join points p on p.id = a.point_id join sweeps s on s.id = p.sweep_id
          where s.name = '$name'") ]] || fail "$scheduler: the failed point has no reason"
  # Slurm finds the node not responding and marks it down; collect asks the batch system once.
  for _ in $(seq 120); do
    [[ $(sinfo -h -n "$victim" -o '%T') == down* ]] && break
    sleep 0.5
  done
  [[ $(sinfo -h -n "$victim" -o '%T') == down* ]] || fail "$victim is not down: $(sinfo -n "$victim")"
  "$PBENCH" collect "$name" > collect.out 2>&1 || true
  grep -q "\[$key\]: failed.*, on node\[[0-9,-]*\]; $victim down" collect.out ||
    fail "$scheduler: collect does not name the node that died ($victim): $(cat collect.out)"
}
kill_node_mid_run slurm kn
: > "$slow_points"
"$PBENCH" submit kn --retry-failed --foreground > retry.out 2>&1 || fail "retry: $(cat retry.out)"
"$PBENCH" collect kn > /dev/null
[[ $(state_of kn) == done ]] || fail "kn after the retry: $(state_of kn)"
nodes=$(sqlite3 "$PBENCH_DB" "select r.node_list from results r join points p on p.id = r.point_id
         join sweeps s on s.id = p.sweep_id where s.name = 'kn'")
[[ "$nodes" == node?,node? && ",$nodes," != *",$victim,"* ]] \
  || fail "the retried point ran on '$nodes' (the dead node is $victim)"
restore_lab
kill_node_mid_run pbs kn-pbs
: > "$slow_points"
restore_lab

# --- More nodes than the cluster has: refused by the scheduler, the point failed with it.
for scheduler in slurm pbs; do
  "$PBENCH" sweep "big-$scheduler" --scheduler "$scheduler" --partitions 5x1,2x1 "${LOGP[@]}" > /dev/null
  rc=0
  "$PBENCH" submit "big-$scheduler" --foreground > big.out 2>&1 || rc=$?
  [[ $rc -ne 0 ]] || fail "$scheduler: submit of 5 nodes succeeded: $(cat big.out)"
  "$PBENCH" collect "big-$scheduler" > collect.out 2>&1 || true
  "$PY" - "$PBENCH_DB" "big-$scheduler" collect.out <<'PY'
import sqlite3, sys
db, name = sqlite3.connect(sys.argv[1]), sys.argv[2]
rows = db.execute("select p.nodes, p.state, a.native_state, a.stderr_tail, a.job_id from points p "
                  "join sweeps s on s.id = p.sweep_id join attempts a on a.point_id = p.id "
                  "where s.name = ? order by p.nodes desc", (name,)).fetchall()
(nodes, state, native, tail, job), other = rows[0], rows[-1]
assert (nodes, state, native, job) == (5, "failed", "refused", None), rows
assert "Requested node configuration is not available" in tail \
    or "Node count specification invalid" in tail, tail
assert other[:2] == (2, "done"), rows
collect = open(sys.argv[3]).read()
assert "failed" in collect and ("node configuration" in collect or "Node count" in collect), collect
PY
done
echo "faults across nodes: ok"
