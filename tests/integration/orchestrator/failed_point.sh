#!/usr/bin/env bash
# A point that fails through a launcher (issue 39 item 8): the worker refuses a setting it reads
# at run time (pbench passes --set through), and the failed point's line quotes the worker's own
# last error line, then the launcher's, in run's output, status's table and status --format json.
# Hydra (the local scheduler's mpiexec) adds no error line of its own when ranks exit non-zero,
# so its line is the worker's alone; a site's own launcher (custom: a wrapper around mpiexec that
# reports failed ranks as srun does) gives the launcher's half. srun itself: slurm: failing_job.
source "$(dirname "$0")/common.sh"
# A root that is none of the processes: pbench checks --set against each parameter's range, the
# worker alone knows its processes.
BAD=(--workers bcast --partitions 2 --set bcast.root=5)
worker_line='pbench-bcast: error: [^;]*root'

# check_said NAME PATTERN: run's output, status's table and its JSON notes say PATTERN once
# after "failed, exit status N: ".
check_said() {
  local name=$1 pattern="failed, exit status [1-9][0-9]*: $2"
  grep -q -- "$pattern" "$name.out" || fail "$name: run does not say '$pattern': $(cat "$name.out")"
  "$PBENCH" status "$name" > "$name.status"
  # The table wraps a long note at its width: its lines joined, as one note.
  tr -s ' \n' ' ' < "$name.status" | grep -q -- "$pattern" ||
    fail "$name: status does not say '$pattern': $(cat "$name.status")"
  "$PBENCH" status "$name" --format json > "$name.json"
  "$PY" - "$name.json" "$pattern" <<'PY' || fail "$name: status --format json: $(cat "$name.json")"
import json, re, sys
notes = json.load(open(sys.argv[1]))["notes"]
said = [n for n in notes if re.search(sys.argv[2], n)]
assert len(said) == 1, notes
PY
}

# Hydra: the worker's line alone, as nothing after it mentions an error.
rc=0
"$PBENCH" run hydra "${BAD[@]}" > hydra.out 2>&1 || rc=$?
[[ $rc -eq 1 ]] || fail "run of a failing point exited $rc, expected 1: $(cat hydra.out)"
check_said hydra "${worker_line}[^;]*$"

# A site's launcher that reports failed ranks: the worker's line first, then the launcher's.
cat > site-launch <<'SH'
#!/usr/bin/env bash
# A site's launcher: mpiexec, and a line of its own when ranks fail (as srun says it).
n=$2
shift 3
rc=0
mpiexec -n "$n" "$@" || rc=$?
if [[ $rc -ne 0 ]]; then echo "site-launch: error: $(hostname): tasks 0-$((n - 1)): Exited with exit code $rc" >&2; fi
exit $rc
SH
chmod +x site-launch
cat > site.toml <<TOML
[launcher]
name = "custom"
line = "$PWD/site-launch -n {n} --"
TOML
rc=0
"$PBENCH" run site --site site.toml "${BAD[@]}" > site.out 2>&1 || rc=$?
[[ $rc -eq 1 ]] || fail "run of a failing point through the site's launcher exited $rc: $(cat site.out)"
check_said site "${worker_line}.*; launcher: site-launch: error: .*tasks 0-1: Exited with exit code [1-9]"
echo "failed point: ok"
