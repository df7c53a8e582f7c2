#!/usr/bin/env bash
# Every worker (logp, comm, io, bcast, links) over 2x1 and 4x1 of the networked lab through
# sbatch and mpiexec: every point done, its ranks on the nodes its shape asked for, MPI between
# nodes over the lab's links (the 4-rank runs finish: the finalize workaround is preloaded), and
# the link matrix of 4x1 has all 12 ordered pairs labelled by host. Tiny workloads: 4 ranks
# share the machine's 2 cores.
source "$(dirname "$0")/common.sh"
shape "$LAB_RATE"
"$PBENCH" run netshapes --scheduler slurm --workers logp,comm,io,bcast,links --partitions 2x1,4x1 \
  --queue-depths 1 -T 0.3 --time-limit 5 --max-parallel 1 \
  --set logp.eel_roundtrips=200 --set logp.eel_runs=2 --set logp.max_size=1024 \
  --set logp.flood_messages=100 --set logp.repetitions=1 \
  --set comm.memory_per_proc=1MiB --set comm.random_patterns=2 --set comm.repetitions=1 \
  --set comm.target_window=0.0002,0.0005 --set comm.start_looplength=10 --set comm.sizes=1,2 \
  --set io.memory_per_proc=1 --set io.cache_bytes=1000 \
  --set bcast.sizes=8 --set bcast.repetitions=10 --set bcast.max_measurements=3 \
  --set links.latency_roundtrips=20 --set links.message_size=64KiB --set links.messages=2 \
  --set links.repetitions=1 > run.out 2>&1 || fail "pbench run netshapes: $(tail -30 run.out)"
"$PBENCH" query links netshapes --format json > links.json
"$PY" - "$PBENCH_DB" <<'PY'
import collections, json, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
rows = db.execute(
    "select p.worker, p.state, p.nodes, p.procs_per_node, json_extract(r.head, '$.rank_hosts') "
    "from points p join sweeps s on s.id = p.sweep_id left join results r on r.point_id = p.id "
    "where s.name = 'netshapes'").fetchall()
assert len(rows) == 10, rows
seen = collections.defaultdict(set)
for worker, state, n, ppn, rank_hosts in rows:
    assert state == "done", (worker, state, n, ppn)
    hosts = json.loads(rank_hosts)
    assert sorted(hosts) == [f"node{i}" for i in range(1, n + 1)], (worker, n, hosts)
    seen[worker].add((n, ppn))
assert all(shapes == {(2, 1), (4, 1)} for shapes in seen.values()) and len(seen) == 5, seen
links = json.load(open("links.json"))
four = [r for r in links["rows"] if r["partition"] == 4 and r["kind"] == "link"]
assert sorted((r["from"], r["to"]) for r in four) == \
    [(f"node{a}", f"node{b}") for a in range(1, 5) for b in range(1, 5) if a != b], four
assert all(r["bandwidth"] > 0 and r["latency"] > 0 for r in four), four
nodes = [r["from"] for r in links["rows"] if r["partition"] == 4 and r["kind"] == "node"]
assert nodes == ["node1", "node2", "node3", "node4"], nodes
PY
echo "every worker over 2x1 and 4x1 of the networked lab: ok"
