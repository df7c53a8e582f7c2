#!/usr/bin/env bash
# What the store's self-defence costs (issue 38 item 4): SQLite's PRAGMA quick_check, which every
# command that writes into the store runs when it opens it (and `check` before it answers),
# PRAGMA integrity_check, and `pbench store verify` (integrity_check, every document against its
# SHA-256, every metric row against its document), on a store of RESULTS results; and a no-op
# `pbench collect` with this pbench beside the same with BASE (a pbench without the check, e.g.
# main's before the change), so the check's share of a command is seen.
#
#   bench/store_check.sh [RESULTS [BASE_PBENCH [DIR]]]    (default 10000 results; DIR kept)
#
# The store is a real small logp sweep (two points) whose two result documents are copied to
# RESULTS results, each copy a distinct document (its started_at changed, its SHA-256 computed
# again) with its metric rows, so that verify finds nothing wrong. Each time is the median of 5.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${PBENCH_BUILD_DIR:-$root/build}
pbench=$build/orchestrator/pbench
results=${1:-10000}
base=${2:-}
dir=${3:-$(mktemp -d)}
[[ $results =~ ^[0-9]+$ && $results -ge 2 ]] ||
  { echo "store_check: RESULTS must be a whole number of at least 2, not '$results'" >&2; exit 2; }
[[ -x $pbench ]] || { echo "store_check: $pbench is missing: run scripts/build first" >&2; exit 2; }
[[ -z $base || -x $base ]] || { echo "store_check: BASE '$base' is not executable" >&2; exit 2; }
mkdir -p "$dir"
cd "$dir"
export PBENCH_WORKER_DIR=$build/workers/logp PBENCH_DB=$dir/store.db PBENCH_RUNS_DIR=$dir/runs
if [[ ! -e store.db ]]; then
  "$pbench" run s --partitions 2 --queue-depths 1,8 --set logp.eel_roundtrips=500 \
    --set logp.eel_runs=10 --set logp.max_size=131072 --set logp.repetitions=1 \
    --set logp.flood_messages=500 > /dev/null
  python3 - store.db "$results" <<'PY'
import hashlib, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
wanted = int(sys.argv[2])
seeds = db.execute("select id, point_id, document, started_at from results order by id").fetchall()
columns = [r[1] for r in db.execute("pragma table_info(results)")]
copied = [c for c in columns if c not in ("id", "document_hash", "document", "started_at")]
n = len(seeds)
with db:
    while n < wanted:
        rid, point, document, started = seeds[n % len(seeds)]
        # The same length: 2026-11-28T01:02:03.456Z -> the copy's number in the seconds' place.
        stamp = started[:-10] + "%02d:%02d.%03dZ" % (n // 60000 % 60, n // 1000 % 60, n % 1000)
        text = document.replace(started, stamp)
        cur = db.execute(
            "insert into results(document_hash, document, started_at, %s) select ?, ?, ?, %s "
            "from results where id = ?" % (", ".join(copied), ", ".join(copied)),
            (hashlib.sha256(text.encode()).hexdigest(), text, stamp, rid))
        db.execute("insert into metrics(result_id, name, value, unit, samples, labels) "
                   "select ?, name, value, unit, samples, labels from metrics where result_id = ? "
                   "order by id", (cur.lastrowid, rid))
        n += 1
db.execute("pragma wal_checkpoint(truncate)")
PY
fi
median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
# seconds COMMAND...: the median wall time of 5 runs, in seconds.
seconds() {
  for _ in 1 2 3 4 5; do
    local start end
    start=$(date +%s.%N)
    "$@" > /dev/null 2>&1 || true
    end=$(date +%s.%N)
    awk -v a="$start" -v b="$end" 'BEGIN { printf "%.3f\n", b - a }'
  done | median
}
pragma() { python3 -c 'import sqlite3, sys; sqlite3.connect(sys.argv[1]).execute(sys.argv[2]).fetchall()' store.db "$1"; }
echo "store: $(python3 -c 'import sqlite3; print(sqlite3.connect("store.db").execute("select count(*) from results").fetchone()[0])' ) results, $(python3 -c 'import sqlite3; print(sqlite3.connect("store.db").execute("select count(*) from metrics").fetchone()[0])') metric rows, $(du -m store.db | cut -f1) MB ($dir)"
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%-44s %8s s\n' "PRAGMA quick_check" "$(seconds pragma 'pragma quick_check')"
printf '%-44s %8s s\n' "PRAGMA integrity_check" "$(seconds pragma 'pragma integrity_check')"
printf '%-44s %8s s\n' "pbench store verify" "$(seconds "$pbench" store verify)"
printf '%-44s %8s s\n' "pbench collect s (nothing new; quick_check)" "$(seconds "$pbench" collect s)"
if [[ -n $base ]]; then
  printf '%-44s %8s s\n' "BASE collect s (nothing new; no check)" "$(seconds "$base" collect s)"
fi
printf '%-44s %8s s\n' "pbench query system (reads; no check)" "$(seconds "$pbench" query system)"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
