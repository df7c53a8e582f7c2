#!/usr/bin/env bash
# The decade-store stage of the orchestrator benchmark does what it says, on a small real seed
# (its figures are printed, never checked): bench/orchestrator_history.sh refuses a bad NIGHTS;
# orchestrator_scale --history makes the other nights from the seed's run-1 documents through the
# collect path, every run with its documents and its headline answered as collect answers it, the
# nights' documents valid but every seventh and dated one day apart, the parameters kept; then it
# times each command with the pbench binary (each must succeed) and ingests one more night.
set -euo pipefail
root=$(cd "$(dirname "$0")/../../.." && pwd)
build=${PBENCH_BUILD_DIR:?PBENCH_BUILD_DIR must name the build directory}
work=$(mktemp -d "${TMPDIR:-/tmp}/pbench-history-it.XXXXXX")
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
cd "$work"

for bad in 1 x -3; do
  rc=0
  "$root/bench/orchestrator_history.sh" "$bad" "$work/never" > out.txt 2> err.txt || rc=$?
  [[ $rc -eq 2 ]] || fail "NIGHTS '$bad': exit $rc, not 2"
  grep -q "NIGHTS must be a whole number of at least 2, not '$bad'" err.txt ||
    fail "NIGHTS '$bad' said: $(cat err.txt)"
  [[ ! -e $work/never ]] || fail "NIGHTS '$bad' made its directory"
done

# A small real seed: logp on 2 processes at two queue depths, tiny settings.
"$build/orchestrator/pbench" --db seed.db --runs-dir runs run tiny --workers logp --partitions 2 \
  --queue-depths 1,8 --set logp.eel_roundtrips=200 --set logp.eel_runs=2 \
  --set logp.max_size=65536 --set logp.repetitions=1 --set logp.flood_messages=200 \
  > seed.log 2>&1 || fail "the seed sweep: $(tail -3 seed.log)"
"$build/bench/orchestrator_scale" --history seed.db decade.db 35 > history.txt 2>&1 ||
  fail "orchestrator_scale --history: $(tail -5 history.txt)"
for row in "query system --sweep tiny" "history tiny --metric logp_" "reference tiny --runs 30" \
  "check tiny --reference" "export tiny" "ingest one more night (2 documents"; do
  grep -q -- "$row" history.txt || fail "no row '$row' in: $(cat history.txt)"
done
grep -q "36 runs\|35 runs" history.txt || fail "the store's size line: $(grep '^store' history.txt)"
python3 - decade.db <<'PY'
import json, sqlite3, sys
db = sqlite3.connect(f"file:{sys.argv[1]}?mode=ro", uri=True)
db.create_function("document", 1, lambda b: b and __import__("subprocess").run(
    ["zstd", "-dcq"], input=b, capture_output=True, check=True).stdout.decode())  # results.packed
runs = db.execute("select run_no, started_at from runs order by run_no").fetchall()
assert len(runs) == 36, len(runs)  # the seed's run, 34 nights, one more ingested and timed
assert [r for r, _ in runs] == list(range(1, 37)), runs
assert runs[1][1] == "2016-11-28T01:00:00Z" and runs[2][1] == "2016-11-29T01:00:00Z", runs[:3]
per_run = db.execute("select r.run_no, count(*) from results r group by r.run_no").fetchall()
assert all(n == 2 for _, n in per_run) and len(per_run) == 36, per_run
answered = db.execute("select count(*) from headline_answered").fetchone()[0]
assert answered == 36, answered
seed = {json.dumps(json.loads(d)["parameters"], sort_keys=True) for (d,) in
        db.execute("select document(packed) from results where run_no = 1")}
for run_no, doc in db.execute("select run_no, document(packed) from results where run_no > 1"):
    d = json.loads(doc)
    assert json.dumps(d["parameters"], sort_keys=True) in seed, run_no
    assert d["validity"]["valid"] == ((run_no - 1) % 7 != 0), (run_no, d["validity"])
    assert d["started_at"].startswith(runs[run_no - 1][1][:10]), (run_no, d["started_at"])
PY
