#!/usr/bin/env bash
# A version 3 store (made by the pbench before store version 4 on the four-node lab: logp over
# 2x1 and 2x2, and a 2x2 whose launcher put all four ranks on one node) migrated on its first
# open by a reader: the shape each point asked for and where each result's ranks ran (nodes,
# processes per node, node list from the stored rank_hosts) in typed columns, the 2x2 found on
# one node not valid with its placement as the reason, nothing measured changed, and the queries
# show and filter the layout.
source "$(dirname "$0")/common.sh"
DATA=${PBENCH_TEST_DATA:?PBENCH_TEST_DATA must name tests/data}

sqlite3 v3.db < "$DATA/stores/store-v3.sql"
metrics() { sqlite3 v3.db "select group_concat(value) from (select value from metrics order by id)"; }
before=$(metrics)
"$PBENCH" --db v3.db query logp --format json > logp.json
"$PBENCH" --db v3.db query logp --where nodes=2 --by ppn --format json > where.json
"$PBENCH" --db v3.db query points --format json > points.json
"$PBENCH" --db v3.db query system --sweep v3packed --format json > system.json
[[ "$(metrics)" == "$before" ]] || fail "the migration changed stored metrics"
"$PY" - v3.db <<'PY'
import json, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
assert db.execute("pragma user_version").fetchone()[0] == 12
points = db.execute("select s.name, p.partition, p.nodes, p.procs_per_node from points p "
                    "join sweeps s on s.id = p.sweep_id order by p.id").fetchall()
assert points == [("v3nodes", 2, 2, 1), ("v3nodes", 4, 2, 2), ("v3packed", 4, 2, 2)], points
results = db.execute("select s.name, r.nodes, r.procs_per_node, r.node_list, r.placement, r.valid "
                     "from results r join points p on p.id = r.point_id "
                     "join sweeps s on s.id = p.sweep_id order by p.id").fetchall()
packed = "placement: 2x2 asked, ranks found on 1 node (node1: 4)"
assert results == [("v3nodes", 2, 1, "node1,node2", None, 0),
                   ("v3nodes", 2, 2, "node1,node2", None, 0),
                   ("v3packed", 1, 4, "node1", packed, 0)], results
logp = json.load(open("logp.json"))
assert [(r["sweep"], r["partition"], r["nodes"], r["ppn"]) for r in logp["rows"]] == \
    [("v3nodes", 2, 2, 1), ("v3nodes", 4, 2, 2), ("v3packed", 4, 1, 4)], logp["rows"]
assert f"sweep v3packed, partition 4 (2x2), q 1: not valid: {packed}" in logp["notes"], logp["notes"]
where = json.load(open("where.json"))["rows"]
assert [(r["nodes"], r["ppn"]) for r in where] == [(2, 1), (2, 2)], where
p = json.load(open("points.json"))["rows"]
assert [(r["nodes"], r["ppn"], r["placement"]) for r in p] == \
    [(2, 1, None), (2, 2, None), (2, 2, packed)], p
g = [r for r in json.load(open("system.json"))["rows"] if r["figure"] == "logp_g"]
assert len(g) == 1 and g[0]["reason"] == packed and (g[0]["nodes"], g[0]["ppn"]) == (1, 4), g
PY
# Opened again: nothing left to migrate, the same answer.
"$PBENCH" --db v3.db query logp --format json | cmp -s - logp.json || fail "second open differs"
echo "store version 3 migrated: ok"
