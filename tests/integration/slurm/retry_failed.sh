#!/usr/bin/env bash
# --retry-failed resubmits only the failed point (one more sbatch), keeping its first attempt.
source "$(dirname "$0")/common.sh"

flag="$work/fail-flag"
touch "$flag"
template_with "if [ {{partition}} = 1 ] && [ -e '$flag' ]; then echo injected failure >&2; exit 3; fi" \
  failing.sh
"$PBENCH" sweep rt --scheduler slurm --share-nodes --partitions 1,2 --queue-depths 1 --template failing.sh \
  "${SMALL[@]}" > /dev/null
"$PBENCH" submit rt --foreground --max-parallel 2 > /dev/null 2>&1 && fail "submit should report the failure"
[[ $(point_states rt | tr '\n' ' ') == "1:failed 2:done " ]] || fail "states: $(point_states rt)"

# Count sbatch calls through a wrapper on PATH.
mkdir bin
cat > bin/sbatch <<EOT
#!/bin/sh
echo "\$*" >> "$work/sbatch.calls"
exec $(command -v sbatch) "\$@"
EOT
chmod +x bin/sbatch
rm "$flag"
PATH="$work/bin:$PATH" "$PBENCH" submit rt --retry-failed --foreground > /dev/null
[[ $(wc -l < sbatch.calls) -eq 1 ]] || fail "expected one sbatch, got: $(cat sbatch.calls)"
[[ $(point_states rt | tr '\n' ' ') == "1:done 2:done " ]] || fail "states: $(point_states rt)"
"$PY" - "$PBENCH_DB" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
rows = db.execute("""select p.partition, a.attempt_no, a.state, a.exit_status from attempts a
                     join points p on p.id = a.point_id order by p.partition, a.attempt_no""").fetchall()
assert rows == [(1, 1, "failed", 3), (1, 2, "done", 0), (2, 1, "done", 0)], rows
PY
echo "retry failed: ok"
