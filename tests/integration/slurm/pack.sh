#!/usr/bin/env bash
# Packing against the real Slurm: --pack partition (one job per partition size) and --pack sweep
# (one job for all points) each keep per-point attempts, exit statuses and results; a failing
# step does not hide the others; --retry-failed packs only the failed point; status shows
# progress per partition.
source "$(dirname "$0")/common.sh"

# The first partition-1 step to run fails (once per flag directory), the others succeed.
template_with "if [ {{partition}} = 1 ] && mkdir '$work/failed-once' 2>/dev/null; then echo injected failure >&2; exit 3; fi" \
  failing.sh

check_pack() {  # sweep, expected number of jobs
  "$PY" - "$PBENCH_DB" "$1" "$2" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
rows = db.execute("""select p.partition, a.state, a.exit_status, a.job_id, a.job_dir
                     from attempts a join points p on p.id = a.point_id join sweeps s on s.id = p.sweep_id
                     where s.name = ? and a.attempt_no = 1 order by p.partition, p.id""",
                  (sys.argv[2],)).fetchall()
assert [(r[0], r[1], r[2]) for r in rows] == [
    (1, "failed", 3), (1, "done", 0), (2, "done", 0), (2, "done", 0)], rows
jobs = {r[3] for r in rows}
assert len(jobs) == int(sys.argv[3]), rows
# Each step ran in its own attempt directory: its own logs, marker and (when done) result.
import os
for partition, state, status, job, job_dir in rows:
    assert os.path.exists(os.path.join(job_dir, "exit.json")), job_dir
    assert os.path.exists(os.path.join(job_dir, "result.json")) == (state == "done"), job_dir
failed_dir = rows[0][4]
assert "injected failure" in open(os.path.join(failed_dir, "stderr.log")).read()
tail = db.execute("select stderr_tail from attempts where job_dir = ?", (failed_dir,)).fetchone()[0]
assert "injected failure" in tail, tail
PY
}

# One job per partition size; the partition-2 job asks for 2 tasks.
"$PBENCH" sweep pp --scheduler slurm --share-nodes --partitions 1,2 --queue-depths 1,8 --time-limit 2 \
  --template failing.sh "${SMALL[@]}" > /dev/null
"$PBENCH" submit pp --pack partition --max-parallel 2 --foreground > /dev/null 2>&1 \
  && fail "submit should report the failed point"
check_pack pp 2 || fail "--pack partition: per-point records wrong"
while read -r job_id partition; do
  info=$(scontrol show job "$job_id")
  [[ "$info" == *"NumTasks=$partition "* || "$info" == *"NumCPUs=$partition "* ]] \
    || fail "packed job $job_id did not ask for $partition tasks: $info"
  [[ "$info" == *"TimeLimit=00:04:00"* ]] || fail "packed job $job_id: not 2 x 2 minutes: $info"
done < <(sqlite3 -separator ' ' "$PBENCH_DB" "select distinct a.job_id, p.partition from attempts a
  join points p on p.id = a.point_id join sweeps s on s.id = p.sweep_id where s.name = 'pp'")
rc=0
out=$("$PBENCH" collect pp) || rc=$?
[[ $rc -eq 1 ]] || fail "collect with a failed point exited $rc, expected 1: $out"
[[ "$out" == *"3 results stored"*"1 points failed"* ]] || fail "collect: $out"
out=$("$PBENCH" status pp)
[[ "$out" == *"ETA 0s"* ]] || fail "status without an ETA: $out"
"$PBENCH" status pp --format json > status.json
"$PY" - status.json <<'PY'
import json, sys
notes = json.load(open(sys.argv[1]))["notes"]
assert "partition 1: 0 planned, 0 queued, 0 running, 1 done, 1 failed" in notes, notes
assert "partition 2: 0 planned, 0 queued, 0 running, 2 done, 0 failed" in notes, notes
PY

# A retry packs only the failed point: one more job.
"$PBENCH" submit pp --pack partition --retry-failed --foreground > /dev/null
[[ $(point_states pp | tr '\n' ' ') == "1:done 1:done 2:done 2:done " ]] || fail "states: $(point_states pp)"
[[ $(sqlite3 "$PBENCH_DB" "select count(distinct job_id) from attempts") -eq 3 ]] \
  || fail "the retry did not make exactly one more job"

# One job of the largest partition for the whole sweep.
rmdir "$work/failed-once"
"$PBENCH" sweep ps --scheduler slurm --share-nodes --partitions 1,2 --queue-depths 1,8 --time-limit 2 \
  --template failing.sh "${SMALL[@]}" > /dev/null
"$PBENCH" submit ps --pack sweep --foreground > /dev/null 2>&1 \
  && fail "submit should report the failed point"
check_pack ps 1 || fail "--pack sweep: per-point records wrong"
job_id=$(sqlite3 "$PBENCH_DB" "select distinct a.job_id from attempts a join points p on p.id = a.point_id
  join sweeps s on s.id = p.sweep_id where s.name = 'ps'")
info=$(scontrol show job "$job_id")
[[ "$info" == *"NumTasks=2 "* || "$info" == *"NumCPUs=2 "* ]] || fail "sweep job: $info"
rc=0
out=$("$PBENCH" collect ps) || rc=$?
[[ $rc -eq 1 ]] || fail "collect ps with a failed point exited $rc, expected 1: $out"
[[ "$out" == *"3 results stored"* ]] || fail "collect: $out"

# --time-limit: derived from io's bound when not given (the time guard's bound 3 x 600 s + 300 s:
# 35 min; the plan's expected time is T, the limit the bound);
# a given limit shorter than the planned run is warned about.
"$PBENCH" sweep tl --scheduler slurm --workers io --partitions 1 --schedule-times 600 \
  --dry-run 2> derived.err | grep -x >/dev/null "#SBATCH --time=00:35:00" || fail "no derived time limit"
[[ ! -s derived.err ]] || fail "unexpected warning: $(cat derived.err)"
"$PBENCH" sweep tl --scheduler slurm --workers io --partitions 1 --schedule-times 600 \
  --time-limit 2 --dry-run 2> short.err | grep -x >/dev/null "#SBATCH --time=00:02:00" || fail "limit not kept"
grep -q "warning: --time-limit 120 s is shorter than the 1800 s io may run" short.err \
  || fail "no warning for a short limit: $(cat short.err)"
echo "packing and time limits: ok"
