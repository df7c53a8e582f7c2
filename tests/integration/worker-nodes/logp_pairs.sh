#!/usr/bin/env bash
# logp on one node: every rank's host is recorded; the default --pairs internode cannot cross
# nodes here, so the pair is measured intranode and a warning says so in words; --pairs
# intranode measures the same without the warning; a wrong --pairs is refused.
source "$(dirname "$0")/common.sh"

run 2 logp inter.json "${LOGP_TINY[@]}"
run 2 logp intra.json "${LOGP_TINY[@]}" --pairs intranode
"$PY" - inter.json intra.json "$HOST" <<'PY'
import json, sys
inter, intra, host = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), sys.argv[3]
for d in (inter, intra):
    assert d["rank_hosts"] == [host, host], d["rank_hosts"]
    assert d["hosts"] == [host], d["hosts"]
    pairs = d["measurements"]["pairs"]
    assert [c["name"] for c in pairs["columns"]] == ["pair", "sender", "receiver", "sender_host", "receiver_host", "placement"]
    assert pairs["rows"] == [[0, 0, 1, host, host, "intranode"]], pairs["rows"]
    internode = [m for m in d["summary"] if m["name"] == "internode_pairs"]
    assert len(internode) == 1 and internode[0]["value"] == 0 and internode[0]["samples"] == 1, internode
assert inter["parameters"]["pairs"]["value"] == "internode" and inter["parameters"]["pairs"]["source"] == "default"
assert intra["parameters"]["pairs"]["value"] == "intranode"
note = [w for w in inter["warnings"] if w.startswith("--pairs internode")]
assert note == [f"--pairs internode: all 2 ranks run on one node ({host}), so no pair can cross "
                "nodes; measured 1 intranode pair instead: these figures are shared memory, not the network"], inter["warnings"]
assert not [w for w in intra["warnings"] if w.startswith("--pairs")], intra["warnings"]
PY
grep -q "pair 0: rank 0 on $HOST sends to rank 1 on $HOST (intranode)" inter.json.log ||
  fail "the protocol does not show the pair's hosts: $(head -5 inter.json.log)"

# Three ranks on one node: one pair, the third rank idles and the warning names it.
run 3 logp three.json "${LOGP_TINY[@]}" --pairs intranode
"$PY" - three.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert len(d["rank_hosts"]) == 3
assert [r[1:3] for r in d["measurements"]["pairs"]["rows"]] == [[0, 1]]
assert any(w.startswith("rank 2 idles: 3 ranks on 1 node make 1 intranode pair") for w in d["warnings"]), d["warnings"]
PY

rc=0
out=$(mpiexec -n 2 "${WORKER[logp]}" --pairs across --output bad.json 2>&1) || rc=$?
[[ $rc -eq 2 ]] || fail "--pairs across exited $rc, expected 2: $out"
[[ "$out" == *"--pairs"*"across"* ]] || fail "--pairs across said: $out"
[[ ! -e bad.json ]] || fail "--pairs across wrote a result"
echo "logp pairs on one node: ok"
