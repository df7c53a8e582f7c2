#!/usr/bin/env bash
# No result lost to a time limit (issue 14, item 2), through sbatch and through qsub (Slurm's
# PBS wrappers): a logp job whose flood sweep would take hours gets a 1-minute limit (Slurm
# counts minutes). The job script exports PBENCH_DEADLINE (its start + its limit); the worker
# stops before it, writes a partial result and exits 0, so the point is done with its result
# stored and marked partial in collect, query points and status, not a TIMEOUT with nothing.
# Both jobs share the node and run at once: about a minute for the test.
source "$(dirname "$0")/common.sh"

LONG=(--set logp.eel_roundtrips=200 --set logp.eel_runs=2 --set logp.max_size=4096
      --set logp.flood_messages=200 --set logp.repetitions=10000000)
for scheduler in slurm pbs; do
  "$PBENCH" sweep "dl-$scheduler" --scheduler "$scheduler" --partitions 2 --queue-depths 1 \
    --time-limit 1 --share-nodes "${LONG[@]}" > /dev/null
  "$PBENCH" submit "dl-$scheduler" > /dev/null
done
for scheduler in slurm pbs; do
  rc=0
  "$PBENCH" wait "dl-$scheduler" --timeout 240 > wait.txt 2>&1 || rc=$?
  [[ $rc -eq 0 ]] || fail "$scheduler: wait exited $rc: $(cat wait.txt)"
  [[ $(point_states "dl-$scheduler") == "2:done" ]] \
    || fail "$scheduler: state $(point_states "dl-$scheduler"), not done"
  "$PBENCH" collect "dl-$scheduler" > collect.txt 2>&1 || fail "$scheduler: collect failed: $(cat collect.txt)"
  grep -q "1 results stored, .*, 1 partial (stopped before a deadline)" collect.txt \
    || fail "$scheduler: collect does not count the partial result: $(cat collect.txt)"
  grep -q "logp p=2 .*: partial: stopped before the deadline" collect.txt \
    || fail "$scheduler: collect does not name the partial point: $(cat collect.txt)"
  attempt=$(ls -d runs/"dl-$scheduler"/points/*/attempt-1)
  grep -q '"status": 0' "$attempt/exit.json" || fail "$scheduler: exit marker $(cat "$attempt/exit.json")"
  tr '\0' '\n' < "$attempt/job.env" | grep -q '^PBENCH_DEADLINE=[0-9]*$' \
    || fail "$scheduler: the job script exported no PBENCH_DEADLINE"
  "$PBENCH" query points --sweep "dl-$scheduler" --format json > points.json
  "$PBENCH" status "dl-$scheduler" --format json > status.json
  "$PY" - points.json status.json "$PBENCH_DB" "dl-$scheduler" <<'PY'
import json, sqlite3, sys
points = json.load(open(sys.argv[1]))["rows"]
status = json.load(open(sys.argv[2]))["rows"]
db, sweep = sqlite3.connect(sys.argv[3]), sys.argv[4]
assert len(points) == 1 and points[0]["result"] == "yes", points
reason = points[0]["partial"]
assert reason and reason.startswith("partial: stopped before the deadline "), points
assert ", at flood repetition " in reason and " of 10000000" in reason, reason
assert status[0]["state"] == "done" and status[0]["partial"] == reason, status
valid, doc = db.execute("""select r.valid, r.document from results r join points p on p.id = r.point_id
                           join sweeps s on s.id = p.sweep_id where s.name = ?""", (sweep,)).fetchone()
doc = json.loads(doc)
assert valid == 0 and doc["validity"]["partial"]["reason"] == reason, doc["validity"]
assert doc["parameters"]["deadline"]["source"] == "environment", doc["parameters"]["deadline"]
assert doc["measurements"]["flood"]["rows"], "no flood row kept"
state, native = db.execute("""select a.state, a.native_state from attempts a join points p on p.id = a.point_id
                              join sweeps s on s.id = p.sweep_id where s.name = ?""", (sweep,)).fetchone()
assert state == "done" and "TIMEOUT" not in (native or ""), (state, native)
print("%s: %s" % (sweep, reason))
PY
done
echo "deadline through sbatch and qsub: ok"
