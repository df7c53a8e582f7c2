#!/usr/bin/env bash
# Jobs at Slurm's time limit, through sbatch and through qsub (Slurm's PBS wrappers). Slurm's
# limits have minute granularity, so both cases share one minute: all ten jobs share the node
# and run at once (about 70-90 s for the test, where the two cases one after the other took
# 145 s):
# - A job killed at its time limit is recorded as timeout, not failed or cancelled: Slurm says
#   TIMEOUT; under the PBS wrapper (qstat says C) the exit marker's "time_limit" tells. The kill
#   comes 60-90 s after the start.
# - No result lost to a time limit (issue 14, item 2), every worker: jobs whose work would take
#   hours (logp's flood sweep, comm's repetitions, io at T = 150 s, bcast with a synthetic hop
#   delay) get a 1-minute limit. The job script exports PBENCH_DEADLINE (its start + its limit);
#   each worker stops before it, writes a partial result and exits 0, so every point is done
#   with its result stored and marked partial in collect, query points and status (the human
#   tables within 160 columns, each reason whole in a note), not a
#   TIMEOUT with nothing. io's T is well above the limit (an io run at T = 60 s can end in
#   0.8 T, before the deadline's stop).
source "$(dirname "$0")/common.sh"

LONG=(--workers logp,comm,io,bcast -T 150
      --set logp.eel_roundtrips=200 --set logp.eel_runs=2 --set logp.max_size=4096
      --set logp.flood_messages=200 --set logp.repetitions=1000000
      --set comm.memory_per_proc=1MiB --set comm.random_patterns=2 --set comm.repetitions=10000
      --set comm.target_window=0.0002,0.0005 --set comm.start_looplength=10
      --set io.memory_per_proc=1 --set io.cache_bytes=1000
      --set bcast.impl=binomial --set bcast.hop_delay_us=2000 --set bcast.repetitions=1000
      --set bcast.max_measurements=3
      --set bcast.sizes=8,16,32,64,128,256,512,1024,2048,4096,8192,16384,32768,65536)
# The job sleeps past its limit in the command's subshell. "|| exit": Slurm's linuxproc signals
# the processes it found, one by one; a subshell woken by its killed sleep before its own TERM
# came would start the worker, outside the list, and leave it running after the job (seen in
# fresh-clone CIs, a launcher still waiting on a dead lab).
for scheduler in slurm pbs; do
  template_with "sleep 600 || exit 143" "$scheduler-long.sh"
  "$PBENCH" sweep "tl-$scheduler" --scheduler "$scheduler" --partitions 1 --queue-depths 1 \
    --time-limit 0:30 --share-nodes --template "$scheduler-long.sh" "${SMALL[@]}" > /dev/null
  "$PBENCH" submit "tl-$scheduler" > /dev/null
done
# The lab's node claims 16 CPUs: the Slurm sweep's jobs ask for one each (--overcommit, their
# two tasks on it), so that all ten jobs (2 + 4 + 4 x 2 CPUs) start in the same minute.
for scheduler in slurm pbs; do
  extra=()
  [[ $scheduler == slurm ]] && extra=(--directive=--overcommit)
  "$PBENCH" sweep "dl-$scheduler" --scheduler "$scheduler" --partitions 2 --queue-depths 1 \
    --time-limit 1 --share-nodes "${extra[@]}" "${LONG[@]}" > /dev/null 2> sweep.err
  grep -q "warning: --time-limit 60 s is shorter than the 450 s io may run" sweep.err \
    || fail "$scheduler: no warning that io may outlast the limit: $(cat sweep.err)"
  "$PBENCH" submit "dl-$scheduler" --max-parallel 4 > /dev/null
done
for scheduler in slurm pbs; do
  rc=0
  "$PBENCH" wait "tl-$scheduler" --timeout 200 > /dev/null 2>&1 || rc=$?
  [[ $rc -eq 1 ]] || fail "$scheduler: wait exited $rc"
  [[ $(point_states "tl-$scheduler") == "1:timeout" ]] \
    || fail "$scheduler: state $(point_states "tl-$scheduler")"
  row=$(sqlite3 -cmd ".timeout 5000" -separator '|' "$PBENCH_DB" "select a.native_state, a.signal from attempts a
        join points p on p.id = a.point_id join sweeps s on s.id = p.sweep_id
        where s.name = 'tl-$scheduler'")
  echo "$scheduler: $row"
  if [[ $scheduler == slurm ]]; then
    [[ "$row" == "TIMEOUT (TimeLimit)|TERM" ]] || fail "slurm: $row"
  else
    [[ "$row" == *"|TERM" ]] || fail "pbs: $row"
  fi
  grep -q '"reason": "time_limit"' runs/"tl-$scheduler"/points/*/attempt-1/exit.json \
    || fail "$scheduler: the exit marker does not say time_limit"
done
for scheduler in slurm pbs; do
  rc=0
  "$PBENCH" wait "dl-$scheduler" --timeout 240 > wait.txt 2>&1 || rc=$?
  [[ $rc -eq 0 ]] || fail "$scheduler: wait exited $rc: $(cat wait.txt)"
  [[ $(point_states "dl-$scheduler" | sort -u) == "2:done" ]] \
    || fail "$scheduler: states $(point_states "dl-$scheduler" | paste -sd' '), not all done"
  "$PBENCH" collect "dl-$scheduler" > collect.txt 2>&1 || fail "$scheduler: collect failed: $(cat collect.txt)"
  grep -q "4 results stored, .*, 4 partial (stopped before a deadline)" collect.txt \
    || fail "$scheduler: collect does not count the partial results: $(cat collect.txt)"
  for worker in logp comm io bcast; do
    grep -q "$worker p=2 .*: partial: stopped before the deadline" collect.txt \
      || fail "$scheduler: collect does not name the partial $worker point: $(cat collect.txt)"
  done
  for attempt in runs/"dl-$scheduler"/points/*/attempt-1; do
    grep -q '"status": 0' "$attempt/exit.json" || fail "$scheduler: exit marker $(cat "$attempt/exit.json")"
    tr '\0' '\n' < "$attempt/job.env" | grep -q '^PBENCH_DEADLINE=[0-9]*$' \
      || fail "$scheduler: the job script exported no PBENCH_DEADLINE"
  done
  [[ -z "$(find runs/"dl-$scheduler" -name 'pbench-io.*' | head -1)" ]] \
    || fail "$scheduler: pbench-io left its files behind"
  "$PBENCH" query points --sweep "dl-$scheduler" --format json > points.json
  "$PBENCH" status "dl-$scheduler" --format json > status.json
  "$PY" - points.json status.json "$PBENCH_DB" "dl-$scheduler" <<'PY'
import json, re, sqlite3, sys
points = {p["worker"]: p for p in json.load(open(sys.argv[1]))["rows"]}
status = {p["worker"]: p for p in json.load(open(sys.argv[2]))["rows"]}
db, sweep = sqlite3.connect(sys.argv[3]), sys.argv[4]
db.create_function("document", 1, lambda b: b and __import__("subprocess").run(
    ["zstd", "-dcq"], input=b, capture_output=True, check=True).stdout.decode())  # results.packed
# Where each worker stopped: a clean point of its own loop.
where = {"logp": r", at (EEL run [0-9]+ of 2|the flood warm-up|flood repetition [0-9]+ of 1000000|the overlap test)",
         "comm": r", at measurement [0-9]+ of [0-9]+ \(repetition [0-9]+",
         "io": r", at partition [0-9]+, (write|rewrite|read), type [0-4], pattern [0-9]+",
         "bcast": r", at message size [0-9]+ B \([0-9]+ of 14\)"}
assert sorted(points) == sorted(where) == sorted(status), (points, status)
for worker, pattern in where.items():
    point = points[worker]
    assert point["result"] == "yes", point
    reason = point["partial"]
    assert reason and reason.startswith("partial: stopped before the deadline "), (worker, point)
    assert re.search(pattern, reason), (worker, reason)
    assert status[worker]["state"] == "done" and status[worker]["partial"] == reason, status[worker]
    valid, doc = db.execute("""select r.valid, document(r.packed) from results r join points p on p.id = r.point_id
                               join sweeps s on s.id = p.sweep_id where s.name = ? and p.worker = ?""",
                            (sweep, worker)).fetchone()
    doc = json.loads(doc)
    assert valid == 0 and doc["validity"]["partial"]["reason"] == reason, (worker, doc["validity"])
    assert doc["parameters"]["deadline"]["source"] == "environment", (worker, doc["parameters"]["deadline"])
    state, native = db.execute("""select a.state, a.native_state from attempts a join points p on p.id = a.point_id
                                  join sweeps s on s.id = p.sweep_id where s.name = ? and p.worker = ?""",
                               (sweep, worker)).fetchone()
    assert state == "done" and "TIMEOUT" not in (native or ""), (worker, state, native)
    print("%s %s: %s" % (sweep, worker, reason))
PY
  # The human tables keep to 160 columns with the partial reasons (each over 100 characters):
  # the cell shortened, the whole reason in a note.
  "$PBENCH" status "dl-$scheduler" > status.txt
  "$PBENCH" query points --sweep "dl-$scheduler" > points.txt
  for table in status.txt points.txt; do
    awk 'length > 160 { print FILENAME ":" FNR ": " length " columns"; bad = 1 } END { exit bad }' \
      "$table" || fail "$scheduler: $table has lines over 160 columns: $(cat "$table")"
    "$PY" - points.json "$table" <<'PY'
import json, sys
text = open(sys.argv[2]).read()
# A note wraps at 160 columns, its later lines indented: join them to find each reason whole.
joined = " ".join(line.strip() for line in text.splitlines())
for point in json.load(open(sys.argv[1]))["rows"]:
    assert point["partial"] in joined, (sys.argv[2], point["partial"], text)
PY
  done
done
echo "time limits (a job killed at its limit; every worker stopped before it), sbatch and qsub: ok"
