#!/usr/bin/env bash
# Launch checked before submit (issue 51 item 5): a site profile whose environment names a
# launcher program that does not exist, and one whose worker binary cannot start (its
# --version fails, as a binary missing a library does), are refused by `pbench run` and
# `pbench submit` with the program and binary named, before any point is submitted (no
# attempt, no job); the same sweep with a sound profile runs. Not found only once every point
# had failed with exit 127 and an empty table.
source "$(dirname "$0")/common.sh"

workers=${PBENCH_WORKER_DIR:?PBENCH_WORKER_DIR must name the worker directory}
"$PBENCH_WORKER_DIR/pbench-logp" --version | grep -q "^pbench-logp " || fail "pbench-logp --version"
mkdir broken
cat > broken/pbench-logp <<'SH'
#!/bin/sh
echo "pbench-logp: error while loading shared libraries: libmpi.so.40: cannot open shared object file" >&2
exit 127
SH
chmod +x broken/pbench-logp
cat > site.toml <<TOML
[scheduler]
name = "local"
[[environment]]
name = "nolauncher"
worker_dir = "$workers"
launcher = { name = "mpiexec", program = "$work/nowhere/mpiexec" }
[[environment]]
name = "noworker"
worker_dir = "$work/broken"
TOML
attempts() {
  "$PY" -c 'import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute("select count(*) from attempts").fetchone()[0])' "$PBENCH_DB"
}
rc=0
"$PBENCH" run pre --site site.toml --envs nolauncher,noworker --partitions 2 --queue-depths 1 \
  "${SMALL[@]}" > run.out 2> run.err || rc=$?
[[ $rc -eq 2 ]] || fail "run with a missing launcher exited $rc, expected 2: $(cat run.err)"
grep -qF "environment 'nolauncher': launcher program '$work/nowhere/mpiexec'" run.err ||
  fail "run does not name the missing launcher: $(cat run.err)"
grep -qF "environment 'noworker': worker '$work/broken/pbench-logp --version' exited 127: pbench-logp: error while loading shared libraries" run.err ||
  fail "run does not name the worker that cannot start: $(cat run.err)"
grep -q "nothing was submitted" run.err || fail "run: $(cat run.err)"
[[ $(attempts) -eq 0 ]] || fail "points were submitted: $(attempts) attempts"
# submit says the same, before any job.
rc=0
"$PBENCH" submit pre > submit.out 2>&1 || rc=$?
[[ $rc -eq 2 ]] || fail "submit exited $rc, expected 2: $(cat submit.out)"
grep -qF "launcher program '$work/nowhere/mpiexec'" submit.out || fail "submit: $(cat submit.out)"
[[ $(attempts) -eq 0 ]] || fail "submit submitted points: $(attempts) attempts"

# The default launch with real workers passes the check and runs.
"$PBENCH" run fine --partitions 2 --queue-depths 1 "${SMALL[@]}" > fine.out 2> fine.err ||
  fail "run fine: $(cat fine.err)"
expect_results 1
echo "launch checked before submit: ok"
