#!/usr/bin/env bash
# The design card's sweep in a smaller form, through the real Slurm of eight nodes (issue 36):
# `pbench run` of every worker on partitions 4 and 16, the shape 4x4 and the link matrix over
# 8x1, with Open MPI's workers (they yield the core when they wait: 16 ranks share 2 cores).
# Then everything downstream at that size: every point stored; status names each job's
# allocation as a compressed host list (node[1-8]); no line of the tables and notes over 160
# columns; the report's header names the hosts as one host list and draws the 8x8 link matrix
# with every node's name, and headless Chromium renders it and the page; export (promtool, where
# installed) with bounded labels; reference and check pass on the sweep. Last, a node killed
# mid-sweep: collect says the point failed and on which nodes its job ran, naming the one that
# died.
here=$(cd "$(dirname "$0")" && pwd)
source "$here/env.sh"
source "$here/../orchestrator/common.sh"
source "$here/../hardening/faults.sh"
lab="$here/../../slurm-lab"
eval "$("$lab/up" --nodes "$PBENCH_SCALE_LAB" --cpus 4)"
export SLURM_CONF
restore_lab() {
  "$lab/up" --nodes "$PBENCH_SCALE_LAB" --cpus 4 >/dev/null 2>&1 || true
  scontrol update nodename="node[1-$PBENCH_SCALE_LAB]" state=resume >/dev/null 2>&1 || true
}
trap 'kill_leftover_ranks; restore_lab; rm -rf "$work"' EXIT
OPENMPI_DIR=${PBENCH_OPENMPI_WORKER_DIR:?PBENCH_OPENMPI_WORKER_DIR must name the Open MPI set}
unset PBENCH_WORKER_DIR

source "$lab/openmpi_site.sh"
lab_openmpi_site "$OPENMPI_DIR" 15:00 > site.toml
TINY=(--queue-depths 1 -T 0.6
      --set logp.eel_roundtrips=50 --set logp.eel_runs=2 --set logp.max_size=1024
      --set logp.repetitions=1 --set logp.flood_messages=20
      --set comm.memory_per_proc=1MiB --set comm.random_patterns=2 --set comm.repetitions=1
      --set comm.target_window=0.0002,0.0005 --set comm.max_time=1 --set comm.sizes=1,2
      --set io.memory_per_proc=1 --set io.cache_bytes=1000
      --set bcast.sizes=8 --set bcast.repetitions=5 --set bcast.max_measurements=3
      --set links.latency_roundtrips=20 --set links.message_size=4KiB --set links.messages=2)
start=$(date +%s)
"$PBENCH" run scale --site site.toml --envs openmpi --workers logp,comm,io,bcast,links \
  --partitions 4,16,4x4,8x1 "${TINY[@]}" --max-parallel 2 > run.txt 2> run.err ||
  fail "pbench run exited $?: $(tail -30 run.err)"
echo "the sweep ran in $(($(date +%s) - start)) s"

# Every point done and stored, under Open MPI.
"$PY" - "$PBENCH_DB" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.create_function("document", 1, lambda b: b and __import__("subprocess").run(
    ["zstd", "-dcq"], input=b, capture_output=True, check=True).stdout.decode())  # results.packed
rows = db.execute("select p.worker, p.partition, p.nodes, p.state, "
                  "(select count(*) from results r where r.point_id = p.id) from points p").fetchall()
assert len(rows) == 20, rows  # 5 workers x 4 partitions
bad = [r for r in rows if r[3] != "done" or r[4] != 1]
assert not bad, bad
mpi = {m for (m,) in db.execute("select json_extract(head, '$.mpi_library_version') from results")}
assert all(m and "Open MPI" in m for m in mpi), mpi
# The link matrix of 8x1: every ordered pair of the eight nodes.
nodes, = db.execute("select r.node_list from results r join points p on p.id = r.point_id "
                    "where p.worker = 'links' and p.nodes = 8").fetchone()
assert sorted(nodes.split(",")) == sorted(f"node{i}" for i in range(1, 9)), nodes
# The lab's nodes are namespaces of one kernel: every result's nodes name one machine, and its
# ranks on the machine's 2 cores are oversubscribed as one, whatever each node alone holds (the
# 8x1 link matrix: 1 rank per node, 8 on the machine).
import json, os
cores = os.cpu_count()
for (doc,) in db.execute("select document(packed) from results"):
    doc = json.loads(doc)
    nodes = doc["node_cores"]
    assert len({n["machine"] for n in nodes}) == 1, nodes
    ranks = sum(n["ranks"] for n in nodes)
    first = doc["validity"]["reasons"][0]
    if len(nodes) > 1:
        want = f"oversubscribed: {ranks} ranks on {cores} cores of one machine shared by {len(nodes)} nodes ("
    else:
        want = f"oversubscribed: {ranks} ranks on {cores} cores of {nodes[0]['host']}"
    assert first.startswith(want), (first, want)
PY

# status: each job's allocation as a compressed host list.
"$PBENCH" status scale --format json > status.json
"$PY" - status.json <<'PY'
import json, re, sys
rows = json.load(open(sys.argv[1]))["rows"]
for r in rows:
    assert re.fullmatch(r"node(\d+|\[[\d,-]+\])", r["allocated"] or ""), r
eight = [r for r in rows if r["nodes"] == 8]
assert eight and all(r["allocated"] == "node[1-8]" for r in eight), eight
PY

# No line of the tables and notes over 160 columns.
{
  "$PBENCH" status scale
  for worker in logp comm io bcast links system points; do "$PBENCH" query "$worker" --sweep scale; done
} > tables.txt 2>&1 || fail "a table failed: $(tail -5 tables.txt)"
awk 'length > 160 { print FILENAME ":" FNR ": " length " columns: " substr($0, 1, 80) "..."; bad = 1 }
     END { exit bad }' tables.txt || fail "lines over 160 columns"

# The report: the hosts as one host list, the 8x8 link matrix with every name, figures legible.
"$PBENCH" report scale -o out > report.txt 2>&1 || fail "report: $(tail -5 report.txt)"
header=$(sed -n '1,/<nav/p' out/index.html)
grep -qE 'node\[[0-9,-]+\] \([0-9]+ hosts\)' <<< "$header" ||
  fail "the header does not name the hosts as a host list: $(grep -o '.\{0,40\}hosts.\{0,80\}' <<< "$header")"
links_svg=$(ls out/links-8*.svg 2>/dev/null | head -1)
[[ -n "$links_svg" ]] || fail "no link matrix figure: $(ls out)"
for i in $(seq 1 8); do
  grep -q ">node$i<" "$links_svg" || fail "node$i is not named in $links_svg"
done
"$PY" "$here/../report/svg_check.py" out/*.svg > svg.txt || { cat svg.txt; fail "a figure is too small"; }
# Headless Chromium draws the link matrix and the page (not blank).
source "$here/../lib/chromium.sh"
chromium_shot "$work/links.png" 1400,1200 "$links_svg" || fail "chromium failed on $links_svg"
"$PY" "$here/../report/png_nonblank.py" links.png || fail "the link matrix's screenshot is blank"
chromium_shot "$work/scale.png" 1400,2400 out/index.html || fail "chromium failed on the page"
"$PY" "$here/../report/png_nonblank.py" scale.png || fail "the page's screenshot is blank"

# Export: parsed by promtool where installed; labels bounded (no host list in a label).
"$PBENCH" export scale > scale.prom || fail "export failed"
if command -v promtool > /dev/null; then
  promtool check metrics < scale.prom || fail "promtool refused the export"
fi
"$PY" - scale.prom <<'PY'
import re, sys
longest = 0
for line in open(sys.argv[1]):
    if line.startswith("#") or "{" not in line:
        continue
    for value in re.findall(r'="((?:[^"\\]|\\.)*)"', line[line.index("{"):line.rindex("}")]):
        longest = max(longest, len(value))
        assert "node1" not in value or value.count("node") == 1, line
assert longest <= 80, longest
PY

# Reference and check on the sweep (its one run is the reference's own: scored on purpose).
"$PBENCH" reference scale -o ref.json > ref.out 2>&1 || fail "reference: $(tail -5 ref.out)"
# Exit 11 (not valid) is the verdict for the oversubscribed figures (16 ranks on 2 cores).
rc=0
"$PBENCH" check scale --reference ref.json --allow-reference-run > check.out 2>&1 || rc=$?
[[ $rc -eq 0 || $rc -eq 11 ]] || fail "check exited $rc: $(tail -20 check.out)"
grep -q "verdict" check.out || fail "check gave no verdict: $(tail -20 check.out)"

# A node that dies mid-sweep is named: a slow logp point over the eight nodes (the sweep's one
# point: a second would pend on the dead node, and wait would end only at its timeout, exit 8,
# leaving its driver polling), one node's slurmd and everything in its namespace killed while
# it runs.
slow_template slow.sh
args=(dies --site site.toml --envs openmpi --partitions 8x1 --queue-depths 1 --template slow.sh
      --workers logp "${FAST[@]}")
key=$(point_key 1 "${args[@]}")
[[ "$key" =~ ^[0-9a-f]+$ ]] || fail "no key for the point: '$key'"
echo "$key" > "$slow_points"
"$PBENCH" sweep "${args[@]}" > /dev/null
"$PBENCH" submit dies > /dev/null
ranks=0
for _ in $(seq 1200); do
  ranks=$({ pgrep -f -- "pbench-logp .*--flood-bytes[ =]$unique_flood_bytes( |\$)" || true; } | wc -l)
  [[ $ranks -ge 8 ]] && break
  sleep 0.1
done
[[ $ranks -ge 8 ]] || fail "the slow point's eight ranks did not start ($ranks)"
victim=node5
kill_lab_node "$victim"
rc=0
"$PBENCH" wait dies --timeout 240 > wait.out 2>&1 || rc=$?
[[ $rc -eq 1 ]] || fail "wait exited $rc, expected 1 (a failed point): $(cat wait.out)"
# wait returned once the driver had ended: nothing drives the sweep on.
! pgrep -f -- "_drive dies( |\$)" > /dev/null ||
  fail "the sweep's driver still runs after wait: $(pgrep -af -- "_drive dies")"
# Slurm finds the node not responding, then down: collect asks it (one sinfo for the sweep).
for _ in $(seq 120); do
  [[ $(sinfo -h -n "$victim" -o '%T') == *'*' || $(sinfo -h -n "$victim" -o '%T') == down* ]] && break
  sleep 0.5
done
"$PBENCH" collect dies > collect.out 2>&1 || true
cat collect.out
grep -q "\[$key\]: failed.*, on node\[1-8\]" collect.out ||
  fail "collect does not say where the failed point ran: $(cat collect.out)"
grep -q "\[$key\]: failed.*, on node\[1-8\]; $victim \(down\|idle\|alloc\|mix\)[a-z]*\*\?" collect.out ||
  fail "collect does not name the node that died ($victim): $(cat collect.out)"
echo "the card's sweep in small: ok"
