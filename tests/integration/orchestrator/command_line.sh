#!/usr/bin/env bash
# The command line as a new user meets it (issue 17): global options anywhere, unknown names
# with the closest one, duplicates refused at parse time, --set checked against the worker, the
# same units everywhere, a command without a NAME lists the sweeps, and Ctrl-C during run.
source "$(dirname "$0")/common.sh"
unset PBENCH_DB PBENCH_RUNS_DIR  # the options themselves, given after the command

# Global options after the subcommand (and after a sub-subcommand), with a real store.
"$PBENCH" sweep g1 --partitions 2 --queue-depths 1 "${SMALL[@]}" --db g.db --runs-dir gruns \
  > out.txt || fail "global options after 'sweep' were refused: $(cat out.txt)"
[[ -s g.db && -d gruns/g1 ]] || fail "--db/--runs-dir after the command were not used"
"$PBENCH" query points --db g.db --format json > points.json || fail "query points --db x"
grep -q '"g1"' points.json || fail "query points --db g.db did not read g.db"
"$PBENCH" status g1 --db=g.db --scheduler-outage 30 > /dev/null || fail "status NAME --db=x"
"$PBENCH" --db g.db status g1 > /dev/null || fail "--db before the command stopped working"
[[ ! -e pbench.db ]] || fail "a command used the default store although --db was given"

# Unknown commands and options: named, with the closest name.
expect_fail 2 "unknown command 'sweeep' (did you mean 'sweep'?)" "$PBENCH" sweeep x
expect_fail 2 "unknown option '--partition' for 'pbench sweep' (did you mean '--partitions'?)" \
  "$PBENCH" sweep x --partition 1,2
expect_fail 2 "unknown command 'lgop' of 'pbench query' (did you mean 'logp'?)" \
  "$PBENCH" query lgop --db g.db
expect_fail 2 "unknown option '--fromat' for 'pbench query logp' (did you mean '--format'?)" \
  "$PBENCH" query logp --fromat csv --db g.db

# Duplicates in every list option, refused with a clear message, with --dry-run too.
export PBENCH_DB=g.db PBENCH_RUNS_DIR=gruns
digest=$(db_digest)
for dry in "" --dry-run; do
  expect_fail 2 "--queue-depths: '1' is listed twice" "$PBENCH" sweep d1 --queue-depths 1,1 $dry
  expect_fail 2 "--partitions: '2' is listed twice" "$PBENCH" sweep d1 --partitions 2,2 $dry
  expect_fail 2 "--schedule-times: '60' is listed twice" \
    "$PBENCH" sweep d1 --workers io --partitions 2 -T 60,1min $dry
  expect_fail 2 "--hints: 'a=b' is listed twice" \
    "$PBENCH" sweep d1 --workers io --partitions 2 --hints a=b --hints a=b $dry
  expect_fail 2 "--transfer-sizes: '1048576' is listed twice" \
    "$PBENCH" sweep d1 --workers io --suite consortium --partitions 2 --transfer-sizes 1MiB,1048576 $dry
  expect_fail 2 "--set logp.eel_runs is given twice" \
    "$PBENCH" sweep d1 --set logp.eel_runs=1 --set logp.eel_runs=2 $dry
  expect_fail 2 "--workers: 'logp' is listed twice" "$PBENCH" sweep d1 --workers logp,logp $dry
done
[[ $(db_digest) == "$digest" ]] || fail "a refused sweep changed the store"

# --set checked against the worker's own parameters when planning, values read by the worker.
expect_fail 2 "--set logp.nonexistent: pbench-logp has no parameter 'nonexistent'" \
  "$PBENCH" sweep d2 --set logp.nonexistent=3
expect_fail 2 "--set logp.eel_run: pbench-logp has no parameter 'eel_run' (did you mean 'eel_runs'?)" \
  "$PBENCH" sweep d2 --set logp.eel_run=3 --dry-run
expect_fail 2 "--set comm: " "$PBENCH" sweep d2 --workers comm --partitions 2 \
  --set comm.memory_per_proc=64parsecs --dry-run
expect_fail 2 "'64parsecs' is not a size" "$PBENCH" sweep d2 --workers comm --partitions 2 \
  --set comm.memory_per_proc=64parsecs
expect_fail 2 "--set bcast: " "$PBENCH" sweep d2 --workers bcast --partitions 2 \
  --set bcast.repetitions=many
[[ $(db_digest) == "$digest" ]] || fail "a refused --set changed the store"
# Every worker answers --describe-parameters in JSON; a size [B] and a time [s] each take units.
for w in logp comm io bcast; do
  bin="$PBENCH_WORKER_DIR/../$w/pbench-$w"
  [[ -x "$bin" ]] || bin="$PBENCH_WORKER_DIR/pbench-$w"
  "$bin" --describe-parameters > "describe-$w.json" || fail "pbench-$w --describe-parameters"
  "$PY" - "describe-$w.json" "$w" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["worker"] == sys.argv[2], d
names = [p["name"] for p in d["parameters"]]
assert names and all(p["option"].startswith("--") for p in d["parameters"]), d
assert any(p["unit"] == "B" for p in d["parameters"]), names
PY
done
"$PBENCH" sweep u1 --workers io,comm --partitions 2 --dry-run -T 1.5min,500ms \
  --set io.memory_per_proc=256MiB --set io.cache_bytes=1GB --set comm.memory_per_proc=64MiB \
  --set comm.max_time=2min --set io.test_collective_write_delay=20ms > dry.txt \
  || fail "sizes and times with units were refused: $(tail -3 dry.txt)"
grep -q -- '--schedule-time 90' dry.txt || fail "-T 1.5min did not plan T = 90 s"
grep -q -- '--schedule-time 0.5' dry.txt || fail "-T 500ms did not plan T = 0.5 s"
"$PBENCH" sweep u2 --workers logp --partitions 2 --dry-run --set logp.max_size=128KiB \
  --set logp.flood_bytes=1MB > /dev/null || fail "logp sizes with units were refused"
"$PBENCH" sweep u3 --workers bcast --partitions 2 --dry-run --set bcast.sizes=8,64KiB \
  --set bcast.hop_delay_us=1ms > /dev/null || fail "bcast sizes and times with units were refused"

# A command given no NAME says so and lists the stored sweeps.
for cmd in status wait cancel collect submit history; do
  out=$("$PBENCH" $cmd 2>&1) && fail "'pbench $cmd' without a NAME succeeded"
  [[ "$out" == *"'pbench $cmd' needs the NAME of a sweep"* ]] || fail "pbench $cmd: $out"
  [[ "$out" == *"The sweeps in g.db:"* && "$out" == *"  g1 "* ]] || fail "no list of sweeps: $out"
done
out=$("$PBENCH" status --db empty.db 2>&1) || true
[[ "$out" == *"No sweeps to list: no pbench store at 'empty.db'"* ]] || fail "no store: $out"

# run --help says what a named run does.
"$PBENCH" run --help > help.txt
grep -q "With a NAME: not the demo" help.txt || fail "run --help does not say what NAME runs"
grep -q "pbench cancel NAME" help.txt || fail "run --help does not say how to stop the jobs"

# Ctrl-C during pbench run: it says what is still running and how to resume or stop; the jobs
# go on. logp at its full settings runs for minutes, so the point is still running.
interrupt_run INT c1
[[ $rc -eq 130 ]] || fail "pbench run exited $rc after Ctrl-C: $(cat c1.err)"
grep -q "sweep c1: interrupted (2 points: 1 running, 1 planned); still 1 running, 1 planned (not submitted yet): their jobs go on. Resume with 'pbench wait c1'" c1.err \
  || fail "no resume message: $(cat c1.err)"
grep -q "stop them with 'pbench cancel c1'" c1.err || fail "no stop message: $(cat c1.err)"
# A point's state in status's rows (the nested per-partition table has a column 'running').
running_points() { "$PBENCH" status "$1" --format json |
  "$PY" -c 'import json, sys; print(sum(r["state"] == "running" for r in json.load(sys.stdin)["rows"]))'; }
[[ $(running_points c1) -gt 0 ]] || fail "the job did not go on"
"$PBENCH" cancel c1 | grep -q "cancel sent to 1 jobs" || fail "cancel after Ctrl-C"
"$PBENCH" wait c1 --timeout 60 > /dev/null || true
[[ $(running_points c1) -eq 0 ]] || fail "a job still runs after cancel"
echo "command line: ok"
