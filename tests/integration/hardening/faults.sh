# Shared by the fault tests, local and under Slurm (source it after the area's common.sh): a
# sweep whose one chosen point runs for minutes, found by a command-line argument no other
# process on the machine has, so the test can kill a rank of exactly that worker mid-run.
# --flood-bytes differs in every run of the test (the pid of this shell): the unique argument.
unique_flood_bytes=$((16777216 + $$))
# A small logp workload without eel_runs: the slow point gets its EEL runs from the environment.
FAST=(--set logp.eel_roundtrips=500 --set logp.max_size=131072 --set logp.repetitions=1
      --set logp.flood_messages=500 --set "logp.flood_bytes=$unique_flood_bytes")
slow_points="$work/slow-points"
: > "$slow_points"

# Kills what is left of this test's workers (a failed assertion must not leave one spinning).
kill_leftover_ranks() {
  local pid
  for pid in $(pgrep -f -- "pbench-logp .*--flood-bytes[ =]$unique_flood_bytes( |\$)" || true); do
    kill -KILL "$pid" 2>/dev/null || true
  done
}
trap 'kill_leftover_ranks; rm -rf "$work"' EXIT

# kill_lab_node NODE: a lab node dies as a machine would: its slurmd and every process in its
# UTS namespace (the job's step daemon and ranks) killed at once (the Slurm lab, tests/slurm-lab).
kill_lab_node() {
  local slurmd_pid namespace proc
  slurmd_pid=$(tr -dc '0-9' < "$PBENCH_SLURM_LAB_DIR/run/slurmd.$1.pid")
  namespace=$(readlink "/proc/$slurmd_pid/ns/uts")
  [[ -n $namespace ]] || fail "no slurmd of $1 to kill (pid '$slurmd_pid')"
  for proc in /proc/[0-9]*; do
    if [[ $(readlink "$proc/ns/uts" 2>/dev/null) == "$namespace" ]]; then
      kill -KILL "${proc#/proc/}" 2>/dev/null || true
    fi
  done
}

# slow_template OUT: the built-in template (one for every scheduler), in which a point whose key
# is listed in $slow_points runs 100,000 EEL runs (minutes) instead of 10.
slow_template() {
  template_with "if grep -qxF \"\$PBENCH_POINT\" '$slow_points'; then export PBENCH_EEL_RUNS=100000; fi" "$1"
}

# point_key Q ARGS...: the key of the queue-depth-Q point of `pbench sweep ARGS... --dry-run`.
point_key() {
  local q=$1
  shift
  "$PBENCH" sweep "$@" --dry-run | sed -n "s/^# point \([0-9a-f]*\) .*\"queue_depth\":$q,.*/\1/p"
}

# kill_rank Q: waits for a rank of this test's queue-depth-Q worker (not its launcher: the
# worker binary is argv[0]), lets it run half a second, kills it with SIGKILL.
kill_rank() {
  local q=$1 pids=""
  for _ in $(seq 1200); do
    pids=$(pgrep -f -- "^[^ ]*pbench-logp --queue-depths $q .*--flood-bytes[ =]$unique_flood_bytes( |\$)" || true)
    [[ -n "$pids" ]] && break
    sleep 0.1
  done
  [[ -n "$pids" ]] || fail "no rank of the q=$q worker started within 120 s"
  sleep 0.5
  kill -KILL "${pids%%$'\n'*}" || fail "could not kill rank ${pids%%$'\n'*}"
}

# no_ranks_left Q: the launcher took the killed worker's other ranks down too.
no_ranks_left() {
  for _ in $(seq 100); do
    pgrep -f -- "^[^ ]*pbench-logp --queue-depths $1 .*--flood-bytes[ =]$unique_flood_bytes( |\$)" \
      > /dev/null || return 0
    sleep 0.1
  done
  fail "ranks of the killed q=$1 worker are still running 10 s later"
}

# check_sweep NAME 'Q:STATE:EXIT:SIGNAL:ATTEMPTS ...': each point's state and its latest
# attempt, and every stored result of the sweep complete: one per done point, every summary
# metric of its document in the metrics table.
check_sweep() {
  "$PY" - "$PBENCH_DB" "$1" "$2" <<'PY'
import json, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.create_function("document", 1, lambda b: b and __import__("subprocess").run(
    ["zstd", "-dcq"], input=b, capture_output=True, check=True).stdout.decode())  # results.packed
rows = db.execute("""
  select json_extract(p.params_json, '$.queue_depth'), p.state, a.exit_status, a.signal,
         (select count(*) from attempts where point_id = p.id)
  from points p join sweeps s on s.id = p.sweep_id
  left join attempts a on a.id = (select max(id) from attempts where point_id = p.id)
  where s.name = ? order by 1""", (sys.argv[2],)).fetchall()
got = " ".join(f"{q}:{st}:{'' if e is None else e}:{sig or ''}:{n}" for q, st, e, sig, n in rows)
assert got == sys.argv[3], f"points: {got}, expected {sys.argv[3]}"
for point_id, state, results in db.execute("""
    select p.id, p.state, (select count(*) from results r where r.point_id = p.id)
    from points p join sweeps s on s.id = p.sweep_id where s.name = ?""", (sys.argv[2],)):
  assert results == (1 if state == "done" else 0), (point_id, state, results)
for rid, doc in db.execute("""select r.id, document(r.packed) from results r join points p on p.id = r.point_id
                              join sweeps s on s.id = p.sweep_id where s.name = ?""", (sys.argv[2],)):
  summary = json.loads(doc)["summary"]
  stored = db.execute("select count(*) from metrics where result_id = ?", (rid,)).fetchone()[0]
  assert summary and stored == len(summary), (rid, stored, len(summary))
PY
}
