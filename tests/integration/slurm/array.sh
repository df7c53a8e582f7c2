#!/usr/bin/env bash
# --array N: a partition's points go as one Slurm job array with at most N elements running at
# once; each element runs its point's script in the point's attempt directory and is tracked
# on its own (ids ARRAY_i).
source "$(dirname "$0")/common.sh"

template_with "sleep 1" sleep.sh
"$PBENCH" sweep ar --scheduler slurm --share-nodes --partitions 1,2 --queue-depths 1,2,4 --template sleep.sh \
  "${SMALL[@]}" > /dev/null
"$PBENCH" submit ar --foreground --max-parallel 6 --array 1 > /dev/null
[[ $(point_states ar | tr '\n' ' ') == "1:done 1:done 1:done 2:done 2:done 2:done " ]] \
  || fail "states: $(point_states ar)"
"$PBENCH" collect ar | grep >/dev/null "6 results stored" || fail "collect"
"$PY" - "$PBENCH_DB" <<'PY'
import re, sqlite3, subprocess, sys
db = sqlite3.connect(sys.argv[1])
rows = db.execute("""select p.partition, a.job_id, a.job_dir from attempts a
                     join points p on p.id = a.point_id order by p.partition, a.job_id""").fetchall()
arrays = {}
for partition, job_id, job_dir in rows:
    m = re.fullmatch(r"(\d+)_(\d+)", job_id)
    assert m, job_id
    arrays.setdefault(partition, set()).add(m.group(1))
    info = subprocess.check_output(["scontrol", "show", "job", job_id], text=True)
    assert "JobState=COMPLETED" in info, info
    assert "ArrayTaskThrottle=1" in info, info
assert len(arrays[1]) == 1 and len(arrays[2]) == 1 and arrays[1] != arrays[2], arrays
# Throttle 1: the elements of an array ran one after another.
for partition, (array,) in arrays.items():
    spans = []
    for line in subprocess.check_output(["squeue", "-h", "-r", "-t", "all", "-j", array, "-o", "%i %S %e"], text=True).splitlines():
        _, start, end = line.split()
        spans.append((start, end))
    spans.sort()
    assert len(spans) == 3, spans
    for (s1, e1), (s2, e2) in zip(spans, spans[1:]):
        assert s2 >= e1, "array %s elements overlapped: %s" % (array, spans)
PY
echo "array: ok"
