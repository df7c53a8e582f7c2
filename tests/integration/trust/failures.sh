#!/usr/bin/env bash
# The failure paths a centre meets (issue 24), each saying what happened, with nothing stored
# lost: a full runs directory (a small tmpfs) at submit and mid-run (an exit marker the job
# could not write: "exit marker unreadable (disk full?)", not a kill), SIGTERM to pbench run
# (exit 143; SIGINT is 130), a store in a read-only directory ("cannot write store ...: choose
# another with --db"), a store on a full file system (said so, not "disk I/O error"), and the
# local scheduler's envelope (host, MPI version, script and worker
# SHA-256, as under Slurm). Mounting needs root: without it the test is skipped and says why.
source "$(dirname "$0")/common.sh"
if [[ $(id -u) -ne 0 ]]; then
  echo "SKIP: mounting a small tmpfs needs root"
  exit 77
fi
mounts=()
cleanup() {
  local m
  for m in "${mounts[@]}"; do umount "$m" 2> /dev/null || true; done
  rm -rf "$work"
}
trap cleanup EXIT
# small_tmpfs DIR SIZE: DIR becomes a tmpfs of SIZE.
small_tmpfs() {
  mkdir -p "$1"
  mount -t tmpfs -o "size=$2" tmpfs "$1" || { echo "SKIP: cannot mount a tmpfs here"; exit 77; }
  mounts+=("$work/$1")
}

# The local envelope: every field the job can tell, as under Slurm.
"$PBENCH" run base --partitions 2 --queue-depths 1 "${SMALL[@]}" > /dev/null 2>&1 || fail "base run"
expect_results 1
attempt=$(echo runs/base/points/*/attempt-1)
"$PY" - "$attempt" "$(hostname)" "$(sha256sum < runs/base/points/*/job.sh | cut -d' ' -f1)" "$PBENCH_WORKER_DIR/pbench-logp" <<'PY'
import hashlib, json, sys
attempt, host, script_sha, worker = sys.argv[1:]
e = json.load(open(attempt + "/envelope.json"))
assert e["scheduler"] == "local" and e["host"] == host and e["node_list"] == host, e
assert e["script_sha256"] == script_sha, (e["script_sha256"], script_sha)
assert e["worker_binary"] == worker, e["worker_binary"]
assert e["worker_sha256"] == hashlib.sha256(open(worker, "rb").read()).hexdigest(), e
assert e["mpi_version"], e
env = e["environment"]
assert env["PBENCH_SWEEP"] == "base" and env["PBENCH_PARTITION"] == "2", env
assert "PBENCH_NODES" not in env, env
PY

# A runs directory that is full before submit: said with the path and the system's reason.
small_tmpfs full 2m
export PBENCH_RUNS_DIR="$work/full/runs"
"$PBENCH" sweep f --partitions 2 --queue-depths 1 "${SMALL[@]}" > /dev/null
dd if=/dev/zero of=full/fill bs=64k > /dev/null 2>&1 || true
rc=0
"$PBENCH" submit f --foreground > f.out 2> f.err || rc=$?
[[ $rc -ne 0 ]] || fail "submit into a full runs directory succeeded"
grep -q "cannot write in the runs directory '$work/full/runs/f/points/[0-9a-f]*': No space left on device" f.err \
  || fail "submit did not name the full directory: $(cat f.out f.err)"
"$PBENCH" status f --format json | "$PY" -c \
  'import json, sys; sys.exit(not any(r["state"] == "planned" for r in json.load(sys.stdin)["rows"]))' \
  || fail "the point is no longer planned"
expect_results 1
rm full/fill
# Filled while the job runs (after its worker wrote the result): the job cannot write its exit
# marker, and the point fails saying so, not "killed".
launch_template fills.sh 'mpiexec -n 2 "$@"; rc=$?; cat /dev/zero > "$PBENCH_FILL" 2> /dev/null; exit $rc'
"$PBENCH" sweep g --template fills.sh --partitions 2 --queue-depths 1 "${SMALL[@]}" > /dev/null
rc=0
PBENCH_FILL="$work/full/fill" "$PBENCH" submit g --foreground > g.out 2> g.err || rc=$?
"$PBENCH" collect g > g.collect 2> g.collect.err || true
grep -q "failed: exit marker unreadable (disk full?)" g.collect.err \
  || fail "collect did not say the marker was unreadable: $(cat g.collect g.collect.err)"
grep -q "KILL" g.collect.err && fail "a full disk was called a kill: $(cat g.collect.err)"
"$PBENCH" status g --format json > g.json
grep -q "exit marker unreadable (disk full?)" g.json || fail "status: $(cat g.json)"
# What the worker measured is kept as a failed point's result is: stored when it says it is not
# valid (a partial result), left in its attempt directory when it claims to be valid.
if grep -q "its partial result (not valid) is stored" g.collect.err; then
  expect_results 2
else
  grep -q "its result document says it is valid, so it was not stored" g.collect.err \
    || fail "g's result: $(cat g.collect.err)"
  expect_results 1
fi
stored=$(results)
# Space again: the failed point runs again, and its result is stored.
rm -f full/fill
"$PBENCH" submit f --foreground > /dev/null 2>&1 || fail "submit f after freeing space"
"$PBENCH" collect f > /dev/null 2>&1 || fail "collect f"
stored=$((stored + 1))
expect_results $stored
export PBENCH_RUNS_DIR="$work/runs"

# SIGTERM to pbench run (what a batch system sends): exit 143; the jobs go on.
interrupt_run TERM t
[[ $rc -eq 143 ]] || fail "pbench run exited $rc after SIGTERM, expected 143: $(cat t.err)"
grep -q "sweep t: interrupted" t.err || fail "no interrupted message: $(cat t.err)"
"$PBENCH" cancel t > /dev/null
"$PBENCH" wait t --timeout 60 > /dev/null 2>&1 || true
expect_results $stored

# A store in a read-only directory: a write says so and names --db; what it holds is intact.
small_tmpfs rostore 16m
"$PY" -c 'import sqlite3, sys; s = sqlite3.connect(sys.argv[1]); d = sqlite3.connect(sys.argv[2]); s.backup(d); d.close()' \
  "$PBENCH_DB" rostore/pbench.db
mount -o remount,ro "$work/rostore"
message="cannot write store '$work/rostore/pbench.db' (read-only directory or file): choose another with --db"
for cmd in "run base --again" "sweep new --partitions 2"; do
  rc=0
  # shellcheck disable=SC2086
  out=$("$PBENCH" --db rostore/pbench.db $cmd 2>&1) || rc=$?
  [[ $rc -eq 3 ]] || fail "'$cmd' on a read-only store exited $rc: $out"
  [[ "$out" == *"$message"* ]] || fail "'$cmd' on a read-only store said: $out"
done
"$PBENCH" --db rostore/pbench.db query logp --sweep base > /dev/null || fail "reading the read-only store"
# Counted through pbench: it opens a store on a read-only file system as immutable.
n=$("$PBENCH" --db rostore/pbench.db query sql "select count(*) as n from results" --format csv | tail -1)
[[ $n -eq $stored ]] || fail "the read-only store holds $n results, expected $stored"
# A store whose file system is full: a command that writes says so with what to do (not "disk
# I/O error"), and the store keeps what it held.
small_tmpfs fullstore 16m
"$PY" -c 'import sqlite3, sys; s = sqlite3.connect(sys.argv[1]); d = sqlite3.connect(sys.argv[2]); s.backup(d); d.close()' \
  "$PBENCH_DB" fullstore/pbench.db
dd if=/dev/zero of=fullstore/fill bs=64k > /dev/null 2>&1 || true
rc=0
out=$("$PBENCH" --db fullstore/pbench.db sweep more --partitions 2 2>&1) || rc=$?
[[ $rc -ne 0 ]] || fail "a sweep into a store on a full file system succeeded: $out"
[[ "$out" == *"fullstore/pbench.db"* && ( "$out" == *"is full"* || "$out" == *"database or disk is full"* ) ]] \
  || fail "a store on a full file system said: $out"
[[ "$out" != *"disk I/O error"* ]] || fail "a full file system called a disk I/O error: $out"
rm fullstore/fill
n=$("$PBENCH" --db fullstore/pbench.db query sql "select count(*) as n from results" --format csv | tail -1)
[[ $n -eq $stored ]] || fail "the store on the full file system holds $n results, expected $stored"
echo "failures: ok"
