#!/usr/bin/env bash
# comm and bcast on one node: the host of every rank is recorded; comm's pattern_nodes table
# says no message crosses nodes and b_eff per node equals b_eff (one node); bcast writes each
# OL_i with its task's host.
source "$(dirname "$0")/common.sh"

run 2 comm comm.json "${COMM_TINY[@]}"
"$PY" - comm.json "$HOST" <<'PY'
import json, sys
d, host = json.load(open(sys.argv[1])), sys.argv[2]
assert d["rank_hosts"] == [host, host], d["rank_hosts"]
table = d["measurements"]["pattern_nodes"]
assert [c["name"] for c in table["columns"]] == ["pattern", "messages", "crossing_messages", "crossing_neighbours"]
patterns = [r[0] for r in d["measurements"]["patterns"]["rows"]]
assert [r[0] for r in table["rows"]] == patterns, table["rows"]
messages = {r[0]: r[5] for r in d["measurements"]["patterns"]["rows"]}
for name, count, crossing, neighbours in table["rows"]:
    assert count == messages[name], (name, count, messages[name])
    assert crossing == 0 and neighbours == "", (name, crossing, neighbours)
metrics = {m["name"]: m for m in d["summary"] if not m["labels"]}
assert metrics["b_eff_per_node"]["unit"] == "B/s"
assert metrics["b_eff_per_node"]["value"] == metrics["b_eff"]["value"], (metrics["b_eff_per_node"], metrics["b_eff"])
PY
grep -q "b_eff per node (1 node)" comm.json.log || fail "the protocol has no b_eff per node line"
grep -q "0/[0-9]* messages cross nodes" comm.json.log || fail "the protocol does not count crossings"

run 3 bcast bcast.json --sizes 8 --repetitions 10 --max-measurements 3
"$PY" - bcast.json "$HOST" <<'PY'
import json, sys
d, host = json.load(open(sys.argv[1])), sys.argv[2]
assert d["rank_hosts"] == [host] * 3, d["rank_hosts"]
ol = d["measurements"]["ol_i"]
assert ol["columns"][-1] == {"name": "host", "unit": ""}, ol["columns"]
assert sorted(r[1] for r in ol["rows"]) == [1, 2], ol["rows"]
assert all(r[-1] == host for r in ol["rows"]), ol["rows"]
PY
grep -q "OL = max_i OL_i (task [12] on $HOST)" bcast.json.log || fail "the protocol does not name OL's host"
echo "comm and bcast hosts on one node: ok"
