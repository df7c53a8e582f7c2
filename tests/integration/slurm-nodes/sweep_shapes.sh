#!/usr/bin/env bash
# Sweeps over the shapes 2x1, 4x1 and 2x2 on the four-node lab: every worker through sbatch with
# mpiexec; two workers each through sbatch with srun --mpi=pmi2 (logp, io) and through Slurm's
# qsub (comm, bcast), so every worker meets every launcher path once: every point done, its
# ranks on the nodes its shape asked for (the stored rank_hosts and the layout columns), and the
# queries show nodes x ppn per row, filter with --where nodes=/ppn= and group with --by. Tiny
# workloads: 4 ranks share the machine's 2 cores.
source "$(dirname "$0")/common.sh"
TINY=(--partitions 2x1,4x1,2x2 --queue-depths 1 -T 0.3 --time-limit 5 --max-parallel 2)
LOGP=(--set logp.eel_roundtrips=200 --set logp.eel_runs=2 --set logp.max_size=1024
      --set logp.flood_messages=100 --set logp.repetitions=1)
COMM=(--set comm.memory_per_proc=1MiB --set comm.random_patterns=2 --set comm.repetitions=1
      --set comm.target_window=0.0002,0.0005 --set comm.start_looplength=10 --set comm.sizes=1,2)
IO=(--set io.memory_per_proc=1 --set io.cache_bytes=1000)
BCAST=(--set bcast.sizes=8 --set bcast.repetitions=10 --set bcast.max_measurements=3)

check_sweep() {
  local name=$1 workers=$2
  for worker in ${workers//,/ }; do
    "$PBENCH" query "$worker" --sweep "$name" --format json > "$name.$worker.json"
    "$PBENCH" query "$worker" --sweep "$name" --where nodes=4 --format json > "$name.$worker.n4.json"
    "$PBENCH" query "$worker" --sweep "$name" --where ppn=2 --by nodes --format json > "$name.$worker.p2.json"
  done
  "$PBENCH" query system --sweep "$name" --where ppn=1 --format json > "$name.system.json"
  "$PBENCH" query points --sweep "$name" --format json > "$name.points.json"
  "$PBENCH" status "$name" --format json > "$name.status.json"
  "$PY" - "$PBENCH_DB" "$name" "$workers" <<'PY'
import collections, json, sqlite3, sys
db, name, workers = sqlite3.connect(sys.argv[1]), sys.argv[2], sys.argv[3].split(",")
shapes = {(2, 1), (4, 1), (2, 2)}
rows = db.execute(
    "select p.worker, p.state, p.nodes, p.procs_per_node, r.nodes, r.procs_per_node, r.node_list, "
    "r.placement, r.allocated_nodes, json_extract(r.head, '$.rank_hosts') from points p "
    "join sweeps s on s.id = p.sweep_id left join results r on r.point_id = p.id "
    "where s.name = ?", (name,)).fetchall()
assert len(rows) == 3 * len(workers), rows
seen = collections.defaultdict(set)
for worker, state, n, ppn, rn, rppn, node_list, placement, allocated, rank_hosts in rows:
    assert state == "done", (worker, state, n, ppn)
    assert (rn, rppn) == (n, ppn) and placement is None, (worker, n, ppn, rn, rppn, placement)
    hosts = json.loads(rank_hosts)
    counts = collections.Counter(hosts)
    assert len(counts) == n and set(counts.values()) == {ppn}, (worker, n, ppn, hosts)
    assert all(h.startswith("node") for h in hosts), hosts
    assert node_list.split(",") == list(dict.fromkeys(hosts)), (node_list, hosts)
    # The job's allocation (the scheduler's node list) holds every host a rank ran on.
    assert allocated and set(hosts) <= set(allocated.split(",")), (allocated, hosts)
    seen[worker].add((n, ppn))
assert sorted(seen) == sorted(workers) and all(seen[w] == shapes for w in workers), seen

def table(suffix):
    return json.load(open(f"{name}.{suffix}.json"))
for worker in workers:
    t = table(worker)
    names = [c["name"] for c in t["columns"]]
    assert names[names.index("partition") + 1:names.index("partition") + 3] == ["nodes", "ppn"], names
    got = {(r["partition"], r["nodes"], r["ppn"]) for r in t["rows"]}
    assert {(4, 4, 1), (4, 2, 2), (2, 2, 1)} <= got, (worker, got)
    assert all(r["valid"] in ("yes", "no") for r in t["rows"])
    assert not [n for n in t["notes"] if "placement" in n], t["notes"]
    n4 = table(worker + ".n4")["rows"]
    assert n4 and all((r["nodes"], r["ppn"]) == (4, 1) for r in n4), (worker, n4)
    p2 = table(worker + ".p2")["rows"]
    assert p2 and all((r["nodes"], r["ppn"]) == (2, 2) for r in p2), (worker, p2)
system = table("system")["rows"]
assert system and all(r["ppn"] in (1, None) for r in system), system
if "logp" in workers:
    assert {(r["nodes"], r["ppn"]) for r in system if r["figure"] == "logp_g"} == {(2, 1), (4, 1)}, system
points = table("points")["rows"]
assert sorted({(r["nodes"], r["ppn"]) for r in points}) == sorted(shapes), points
status = table("status")
assert sorted({(r["nodes"], r["ppn"]) for r in status["rows"]}) == sorted(shapes), status["rows"]
# Progress per partition and shape: 4 as 4x1 and 4 as 2x2 are counted apart.
for label in ("2 (2x1)", "4 (4x1)", "4 (2x2)"):
    assert [n for n in status["notes"] if n.startswith(f"partition {label}: 0 planned")], status["notes"]
PY
}

"$PBENCH" run mp --scheduler slurm --workers logp,comm,io,bcast "${TINY[@]}" "${LOGP[@]}" \
  "${COMM[@]}" "${IO[@]}" "${BCAST[@]}" > mp.txt 2> mp.err || fail "mpiexec sweep: $(cat mp.err)"
grep -q "^#SBATCH --nodes=2$" runs/mp/points/*/job.sh || fail "no node count in the scripts"
check_sweep mp logp,comm,io,bcast
# io's notes name the shape of the point a not valid result came from: partition 4 of 4x1 and
# of 2x2 stand apart (an io result measures every partition up to its own).
"$PBENCH" query io --sweep mp --format json > mp.io.json
"$PY" - mp.io.json <<'PY' || fail "query io's notes do not name the shapes: $(cat mp.io.json)"
import json, sys
notes = json.load(open(sys.argv[1]))["notes"]
for shape in ("4x1", "2x2"):
    assert [n for n in notes if f"of the {shape} point: not valid" in n], (shape, notes)
PY
"$PBENCH" run sr --scheduler slurm --launcher srun --workers logp,io "${TINY[@]}" "${LOGP[@]}" \
  "${IO[@]}" > sr.txt 2> sr.err || fail "srun sweep: $(cat sr.err)"
grep -q "^srun --mpi=pmi2 -n 4 " runs/sr/points/*/job.sh || fail "no srun launch line"
check_sweep sr logp,io
"$PBENCH" run pb --scheduler pbs --workers comm,bcast "${TINY[@]}" "${COMM[@]}" "${BCAST[@]}" \
  > pb.txt 2> pb.err || fail "qsub sweep: $(cat pb.err)"
grep -q "^#PBS -l nodes=2:ppn=2" runs/pb/points/*/job.sh || fail "no PBS node request in the scripts"
check_sweep pb comm,bcast

# A launcher that ignores the allocation (every rank on the batch node): 2x2 asked, 1x4 found;
# the result is not valid with its placement as the reason, in the tables and in query points.
template_with 'mpiexec() { command mpiexec -hosts "$(hostname)" "$@"; }' onenode.sh
# run exits 4 (a result not launched as asked) and says so.
rc=0
"$PBENCH" run packed --scheduler slurm --template onenode.sh --workers logp --partitions 2x2 \
  --queue-depths 1 --time-limit 5 --set logp.eel_roundtrips=200 --set logp.eel_runs=2 \
  --set logp.max_size=1024 --set logp.flood_messages=100 --set logp.repetitions=1 \
  > packed.txt 2> packed.err || rc=$?
[[ $rc -eq 4 ]] || fail "packed sweep exited $rc, expected 4: $(cat packed.err)"
grep -q "stored not valid: placement: 2x2 asked, ranks found on 1 node" packed.err \
  || fail "run did not say the placement: $(cat packed.err)"
"$PBENCH" query logp --sweep packed --format json > packed.logp.json
"$PBENCH" query points --sweep packed --format json > packed.points.json
"$PY" - <<'PY'
import json
t = json.load(open("packed.logp.json"))
assert [(r["nodes"], r["ppn"], r["valid"]) for r in t["rows"]] == [(1, 4, "no")], t["rows"]
reason = "placement: 2x2 asked, ranks found on 1 node"
assert [n for n in t["notes"] if f"partition 4 (2x2), q 1: not valid: {reason}" in n], t["notes"]
p = json.load(open("packed.points.json"))["rows"]
assert len(p) == 1 and p[0]["placement"].startswith(reason), p
PY
echo "sweeps of every worker over 2x1, 4x1, 2x2 (mpiexec; srun and qsub two each): ok"
