#!/usr/bin/env bash
# pbench cancel under the local scheduler ends every process of the job, whenever it comes: the
# job script's trap acts at once (its command runs in the background) and signals the command's
# whole tree and what left it, also processes that ignore TERM (killed 2-3 s later) and ranks in
# sessions of their own (Hydra's), which the job's process group does not hold.
# 1. A launcher that ignores TERM and INT and starts a "rank" that ignores them, in a session of
#    its own: both are gone after cancel, and the point is cancelled (its marker: TERM, status 143).
# 2. Real mpiexec and pbench-logp with 100,000 EEL runs (minutes), cancelled 0 to 2 s after pbench
#    sees the job running, while mpiexec starts its ranks: no rank or launcher of it is left.
#    (Once, a cancel in that moment left a job running for its whole length: Hydra's mpiexec did
#    not pass the TERM on, and the script's trap waited for its foreground command.)
source "$(dirname "$0")/common.sh"

# A point's state in status's rows.
point_states() { "$PBENCH" status "$1" --format json |
  "$PY" -c 'import json, sys; print(" ".join(r["state"] for r in json.load(sys.stdin)["rows"]))'; }
# running PID: the process exists and is not a zombie.
running() {
  local stat
  stat=$(cat "/proc/$1/stat" 2>/dev/null) || return 1
  stat=${stat##*) }
  [[ ${stat:0:1} != Z ]]
}
attempt_dir() { echo "$PBENCH_RUNS_DIR/$1/points/"*/attempt-1; }
# wait_for FILE: up to 60 s for FILE to exist.
wait_for() {
  for _ in $(seq 600); do
    [[ -s "$1" ]] && return 0
    sleep 0.1
  done
  fail "no $1 within 60 s"
}

# 1. The stubborn launcher, through a site profile (name = "custom").
cat > stubborn <<'SH'
#!/usr/bin/env bash
# A launcher that ignores TERM and INT, and a rank in a session of its own that ignores them too.
trap '' TERM INT
setsid bash -c 'trap "" TERM INT; echo $$ > rank.pid; exec sleep 600' &
echo $$ > launcher.pid
wait
SH
chmod +x stubborn
cat > site.toml <<TOML
[launcher]
name = "custom"
line = "$PWD/stubborn -n {n} --"
TOML
"$PBENCH" sweep st --site site.toml --partitions 2 --queue-depths 1 "${SMALL[@]}" > /dev/null
"$PBENCH" submit st > /dev/null
dir=$(attempt_dir st)
wait_for "$dir/rank.pid"
wait_for "$dir/launcher.pid"
rank=$(cat "$dir/rank.pid") launcher=$(cat "$dir/launcher.pid")
running "$rank" && running "$launcher" || fail "the stubborn launcher did not start"
[[ $(point_states st) == running ]] || fail "st: not running: $(point_states st)"
"$PBENCH" cancel st | grep -q "cancel sent to 1 jobs" || fail "st: cancel"
rc=0
"$PBENCH" wait st --timeout 60 > wait.out 2>&1 || rc=$?
[[ $rc -eq 1 ]] || fail "st: wait exited $rc: $(cat wait.out)"
[[ $(point_states st) == cancelled ]] || fail "st: after cancel: $(point_states st)"
! running "$launcher" || fail "the launcher that ignores TERM still runs after cancel"
! running "$rank" || fail "the rank in a session of its own still runs after cancel"
"$PY" - "$dir/exit.json" <<'PY' || fail "st: exit marker: $(cat "$dir/exit.json")"
import json, sys
m = json.load(open(sys.argv[1]))
assert (m["status"], m["signal"], m["signal_source"]) == (143, "TERM", "job"), m
PY

# 2. Real mpiexec: cancels while the job starts. The workers are found by an argument that no
#    other process has (--flood-bytes, from this shell's pid and the round).
for delay in 0 0.1 0.3 0.6 1 2; do
  name=rc-${delay/./-}
  bytes=$((16777216 + $$ * 8 + ${#name}))
  "$PBENCH" sweep "$name" --partitions 2 --queue-depths 1 --set logp.eel_runs=100000 \
    --set "logp.flood_bytes=$bytes" > /dev/null
  "$PBENCH" submit "$name" > /dev/null
  for _ in $(seq 600); do
    [[ $(point_states "$name") == running ]] && break
    sleep 0.1
  done
  [[ $(point_states "$name") == running ]] || fail "$name: never running: $(point_states "$name")"
  sleep "$delay"
  "$PBENCH" cancel "$name" | grep -q "cancel sent to 1 jobs" || fail "$name: cancel"
  rc=0
  "$PBENCH" wait "$name" --timeout 60 > wait.out 2>&1 || rc=$?
  [[ $rc -eq 1 ]] || fail "$name: wait exited $rc: $(cat wait.out)"
  [[ $(point_states "$name") == cancelled ]] || fail "$name: after cancel: $(point_states "$name")"
  left=$(pgrep -f -- "--flood-bytes[ =]$bytes( |\$)" || true)
  if [[ -n "$left" ]]; then
    ps -o pid,stat,args -p "${left//$'\n'/,}" >&2 || true
    kill -KILL $left 2>/dev/null || true
    fail "$name: processes of the job still run after cancel (cancelled $delay s after it ran)"
  fi
done
echo "cancel: ok"
