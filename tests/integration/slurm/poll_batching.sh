#!/usr/bin/env bash
# Polling N jobs costs one squeue per cycle, whatever N: count the calls through wrappers on
# PATH while four jobs run at once.
source "$(dirname "$0")/common.sh"

mkdir bin
for command in squeue scontrol sacct; do
  real=$(command -v "$command" || echo /bin/false)
  cat > "bin/$command" <<EOT
#!/bin/sh
echo "$command \$*" >> "$work/calls"
exec $real "\$@"
EOT
  chmod +x "bin/$command"
done
template_with "sleep 3" sleep.sh
"$PBENCH" sweep pl --scheduler slurm --share-nodes --partitions 1,2 --queue-depths 1,8 --template sleep.sh \
  "${SMALL[@]}" > /dev/null
start=$(date +%s.%N)
PATH="$work/bin:$PATH" "$PBENCH" submit pl --foreground --max-parallel 4 > /dev/null
end=$(date +%s.%N)
[[ $(point_states pl | tr '\n' ' ') == "1:done 1:done 2:done 2:done " ]] || fail "states: $(point_states pl)"
ids=$(sqlite3 "$PBENCH_DB" "select job_id from attempts order by job_id" | paste -sd,)
cat calls
"$PY" - calls "$ids" "$start" "$end" <<'PY'
import sys
calls = [l.split() for l in open(sys.argv[1])]
ids = sys.argv[2].split(",")
elapsed = float(sys.argv[4]) - float(sys.argv[3])
assert all(c[0] == "squeue" for c in calls), "only squeue polls: %s" % calls
lists = [c[c.index("-j") + 1].split(",") for c in calls]
# Every call asks for all jobs still active; while all four run, one call covers all four.
assert any(sorted(l) == sorted(ids) for l in lists), (ids, lists)
# One call per cycle (200 ms apart, plus the work of a cycle): polling each of the four jobs
# on its own would make about four times as many.
cycles = elapsed / 0.2 + 2
assert len(calls) <= cycles, "%d squeue calls in %.1f s" % (len(calls), elapsed)
PY
echo "poll batching: ok"
