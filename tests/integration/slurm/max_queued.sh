#!/usr/bin/env bash
# --max-queued counts the user's other jobs: with one foreign job holding a place and a limit of
# 2, pbench never has more than one job of its own in the queue at a time.
source "$(dirname "$0")/common.sh"

other=$(sbatch --parsable --output=/dev/null --wrap "sleep 120")
trap 'scancel "$other" 2>/dev/null || true; rm -rf "$work"' EXIT
template_with "sleep 2" sleep.sh
"$PBENCH" sweep mq --scheduler slurm --share-nodes --partitions 1 --queue-depths 1,2,4 --template sleep.sh \
  "${SMALL[@]}" > /dev/null
"$PBENCH" submit mq --foreground --max-parallel 3 --max-queued 2 > /dev/null
[[ $(point_states mq | tr '\n' ' ') == "1:done 1:done 1:done " ]] || fail "states: $(point_states mq)"
# Slurm's own record of each job's submit and end times: no two of pbench's jobs overlapped.
"$PY" - <<PY
import subprocess
ids = """$(sqlite3 "$PBENCH_DB" "select job_id from attempts")""".split()
spans = []
for i in ids:
    info = dict(w.split("=", 1) for w in subprocess.check_output(["scontrol", "show", "job", i], text=True).split() if "=" in w)
    spans.append((info["SubmitTime"], info["EndTime"]))
spans.sort()
for (s1, e1), (s2, e2) in zip(spans, spans[1:]):
    assert s2 >= e1, "jobs overlapped in the queue: %s" % spans
PY
squeue -h -j "$other" -o %T | grep >/dev/null RUNNING || fail "the foreign job should still be running"
# --max-queued has no meaning for the local scheduler.
"$PBENCH" sweep lo --partitions 1 --queue-depths 1 > /dev/null
expect_fail 2 "--max-queued applies to a batch scheduler (slurm or pbs), not local" \
  "$PBENCH" submit lo --max-queued 2
echo "max queued: ok"
