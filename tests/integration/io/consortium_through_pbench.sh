#!/usr/bin/env bash
# io's consortium suite through pbench: bad sweep values are refused before anything is stored;
# a sweep over 2 patterns x 2 transfer sizes x collective on/off makes one point per combination,
# each run with its own worker arguments; `pbench query io --suite consortium` tables every test
# and the small-files rates in all formats, with --where, and agrees with each result document;
# plain `pbench query io` stays b_eff_io and points to the consortium table.
source "$(dirname "$0")/common.sh"
PBENCH=${PBENCH:?PBENCH must name the pbench binary}
export PBENCH_DB="$work/pbench.db" PBENCH_RUNS_DIR="$work/runs"
export PBENCH_WORKER_DIR=$(dirname "$PBENCH_IO")

# refused WORDS... -- MESSAGE: exit 2 with the message, and no store or runs made.
refused() {
  local message=${*: -1}
  local args=("${@:1:$#-1}")
  local out rc=0
  out=$("$PBENCH" sweep bad --workers io "${args[@]}" 2>&1) || rc=$?
  [[ $rc -eq 2 ]] || fail "'${args[*]}' exited $rc, expected 2: $out"
  [[ "$out" == *"$message"* ]] || fail "'${args[*]}' said '$out', expected '$message'"
  [[ ! -e "$PBENCH_DB" && ! -e "$work/runs" ]] || fail "'${args[*]}' stored something"
}
refused --suite consortium --partitions 2 --transfer-sizes 64KiB,32MiB \
  "io point (partition 2, pattern segmented, transfer size 33554432 B): --transfer-size: 33554432 B is larger than the block (16777216 B)"
refused --suite consortium --partitions 2 --transfer-sizes 64KiB,,1MiB \
  "--transfer-sizes: '64KiB,,1MiB' has an empty item at position 2"
refused --suite consortium --partitions 2 --transfer-sizes 1x "'1x' in '1x' is not a positive size"
refused --suite consortium --partitions 2 --patterns segmented,tiled "'tiled' in 'segmented,tiled' is not a pattern"
refused --suite consortium --partitions 2 --collective on,maybe "--collective: 'maybe' in 'on,maybe' is not on or off"
refused --suite consortium --partitions 2 --set io.api=posix --collective on,off \
  "--collective on: collective calls need MPI-IO, and io.api is posix"
refused --suite consortium --partitions 2 -T 60 "the consortium suite has no scheduled time T"
refused --suite ior --partitions 2 "--suite: 'ior' is not a suite of io (b_eff_io or consortium)"
refused --partitions 2 --patterns strided "--patterns applies to io's consortium suite: add --suite consortium"
refused --suite consortium --partitions 2,4 --patterns strided --transfer-sizes 500 \
  --set io.block_size=1000 --set io.segment_count=2 --set io.padding=10 --set io.header_bytes=2011 \
  "io point (partition 2, pattern strided, transfer size 500 B): --header-bytes: 2011 B is larger than a stride (2010 B)"

GRID=(--workers io --suite consortium --partitions 2 --transfer-sizes 1KiB,2KiB
  --patterns segmented,strided --collective on,off
  --set io.block_size=4096 --set io.segment_count=1 --set io.iterations=2
  --set io.small_files=1 --set io.files_per_process=3 --set io.cache_bytes=1000)
"$PBENCH" sweep c "${GRID[@]}" --dry-run > plan.txt
[[ $(grep -c '^mpiexec' plan.txt) -eq 8 ]] || fail "the plan has not 8 worker lines: $(grep '^mpiexec' plan.txt)"
[[ ! -e "$PBENCH_DB" ]] || fail "a dry run stored the sweep"
"$PBENCH" run c "${GRID[@]}" > table.txt 2> run.txt || fail "pbench run failed: $(cat run.txt)"
cat table.txt
grep -q "sustained_read" table.txt || fail "pbench run did not print the consortium table"

# Each point ran with the worker arguments of its own combination.
"$PY" - "$PBENCH_RUNS_DIR/c/points" <<'PY'
import glob, json, os, shlex, sys
seen = set()
for script in glob.glob(os.path.join(sys.argv[1], "*", "job.sh")):
    line = [l for l in open(script) if l.startswith("mpiexec")][0]
    words = shlex.split(line)
    args = dict(zip(words[::1], words[1::1]))
    doc = json.load(open(os.path.join(os.path.dirname(script), "attempt-1", "result.json")))
    p = {k: v["value"] for k, v in doc["parameters"].items()}
    assert p["suite"] == "consortium" and p["pattern"] == args["--pattern"], (args, p)
    assert str(p["transfer_size"]) == args["--transfer-size"] and str(p["collective"]) == args["--collective"], (args, p)
    assert doc["nprocs"] == 2 and args["--partitions"] == "2"
    seen.add((p["pattern"], p["transfer_size"], p["collective"]))
want = {(pat, t, c) for pat in ("segmented", "strided") for t in (1024, 2048) for c in (0, 1)}
assert seen == want, seen
PY

"$PBENCH" query io --suite consortium --sweep c --format json > table.json
"$PY" - table.json "$PBENCH_DB" <<'PY'
import json, sqlite3, sys
t = json.load(open(sys.argv[1]))
rows = t["rows"]
tests = [r for r in rows if r["test"] in ("sustained_write", "cached_write", "sustained_read")]
small = [r for r in rows if r["test"] in ("create", "stat", "open_close", "remove")]
assert len(tests) == 8 * 3 and len(small) == 8 * 8 and len(rows) == len(tests) + len(small), len(rows)
cells = {(r["pattern"], r["transfer_size"], r["api"], r["test"]) for r in tests}
assert len(cells) == 24, cells
assert {r["api"] for r in tests} == {"mpiio-coll", "mpiio-indep"}
db = sqlite3.connect(sys.argv[2])
db.create_function("document", 1, lambda b: b and __import__("subprocess").run(
    ["zstd", "-dcq"], input=b, capture_output=True, check=True).stdout.decode())  # results.packed
docs = {}
for (d,) in db.execute("select document(packed) from results"):
    doc = json.loads(d)
    p = {k: v["value"] for k, v in doc["parameters"].items()}
    docs[(p["pattern"], p["transfer_size"], "mpiio-coll" if p["collective"] else "mpiio-indep")] = doc
assert len(docs) == 8
for r in tests:
    doc = docs[(r["pattern"], r["transfer_size"], r["api"])]
    metric = [m for m in doc["summary"] if m["name"] == r["test"] + "_transfer_rate"][0]
    assert abs(r["bandwidth"] - metric["value"]) <= 1e-9 * metric["value"], (r, metric)
    assert r["samples"] == metric["samples"] == 2, r
    assert r["block_size"] == 4096 and r["segment_count"] == 1 and r["partition"] == 2, r
    assert r["sharing"] == "shared" and r["hints"] == "-" and r["valid"] == "yes", r
    for what in ("process_bandwidth", "open_time", "close_time"):
        assert 0 <= r[what + "_min"] <= r[what + "_mean"] <= r[what + "_max"], (what, r)
    # The best iteration's processes each moved 4096 B: their bandwidth is at least the
    # aggregate's share (all bytes over the slowest process's time).
    assert r["process_bandwidth_min"] >= r["bandwidth"] / 2 * (1 - 1e-9), r
    assert r["rate"] is None, r
for r in small:
    doc = docs[(r["pattern"], r["transfer_size"], r["api"])]
    metric = [m for m in doc["summary"] if m["name"] == r["test"] + "_rate"
              and m["labels"]["directory"] == r["sharing"]][0]
    assert abs(r["rate"] - metric["value"]) <= 1e-9 * metric["value"], (r, metric)
    assert r["bandwidth"] is None and r["samples"] == 2, r
PY

out=$("$PBENCH" query io --suite consortium --sweep c --where pattern=strided --where test=sustained_read --format csv)
[[ $(echo "$out" | wc -l) -eq 5 ]] || fail "--where kept not 4 rows: $out"
[[ $(echo "$out" | head -1) == "sweep,partition,nodes,ppn,pattern,api,sharing,hints,transfer_size [B],"* ]] || fail "csv header: $out"
out=$("$PBENCH" query io --suite consortium --sweep c --where api=mpiio-coll --where test=create --format markdown)
[[ $(echo "$out" | grep -c '^| c ') -eq 8 ]] || fail "markdown rows: $out"
"$PBENCH" query io --sweep c > plain.txt
grep -q "8 io point(s) ran the consortium suite: see pbench query io --suite consortium" plain.txt ||
  fail "plain query io does not point to the consortium table: $(cat plain.txt)"
rc=0
out=$("$PBENCH" query io --suite ior 2>&1) || rc=$?
[[ $rc -eq 2 && "$out" == *"--suite: 'ior' is not a suite of io (b_eff_io, consortium)"* ]] ||
  fail "query io --suite ior: exit $rc: $out"
# The consortium suite's export passes Prometheus's own checker (issue 26).
"$PBENCH" export c --format openmetrics > c.prom
promtool check metrics < c.prom || fail "promtool refused the consortium export"
grep -q '^pbench_io_sustained_read_transfer_rate_bytes_per_second{' c.prom ||
  fail "no sustained read in the export: $(grep -m3 '^pbench' c.prom)"
grep -q '^pbench_io_create_rate_per_second{' c.prom || fail "no small-files rate in the export"
echo "consortium through pbench: ok"
