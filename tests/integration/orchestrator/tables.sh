#!/usr/bin/env bash
# The tables a new user reads (issue 17), from a real sweep in a real store: one display rule
# for the human formats (MB/s, us, s; never e-notation), base units in csv and json; point
# parameters as short keys (JSON kept for --format json); notes never in the csv data stream,
# and each note said once.
source "$(dirname "$0")/common.sh"

"$PBENCH" run t1 --workers logp,comm --partitions 1,2 --queue-depths 1,8 "${SMALL[@]}" \
  --set comm.memory_per_proc=16MiB --set comm.random_patterns=1 --set comm.repetitions=1 \
  --set comm.target_window=500us,1ms > run.txt 2> run.err || fail "the sweep failed: $(tail run.err)"

no_e_notation() {  # a number in e-notation anywhere in the file
  ! grep -E '[0-9]e[+-][0-9]' "$1" > /dev/null || fail "$2 shows e-notation: $(grep -E '[0-9]e[+-][0-9]' "$1" | head -3)"
}
for f in table markdown; do
  "$PBENCH" query system --sweep t1 --format $f > system.$f
  no_e_notation system.$f "query system --format $f"
  grep -q "MB/s" system.$f || fail "query system ($f) shows no MB/s: $(cat system.$f)"
  grep -q " us" system.$f || fail "query system ($f) shows no us: $(cat system.$f)"
  grep -q "B/s" system.$f && ! grep -q " B/s" system.$f || true
  "$PBENCH" query compare t1 t1 --format $f > compare.$f
  no_e_notation compare.$f "query compare --format $f"
  grep -q "MB/s" compare.$f || fail "compare ($f) shows no MB/s: $(cat compare.$f)"
done
# csv and json keep the base units.
"$PBENCH" query system --sweep t1 --format csv > system.csv 2> system.notes
grep -q ",B/s," system.csv || fail "csv lost the base unit B/s: $(cat system.csv)"
"$PBENCH" query system --sweep t1 --format json > system.json
"$PY" - system.json <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))
units = {r["figure"]: r["unit"] for r in t["rows"]}
assert units["b_eff"] == "B/s" and units["logp_g"] == "s", units
g = [r["value"] for r in t["rows"] if r["figure"] == "logp_g"][0]
assert 0 < g < 1, g  # seconds, not microseconds
PY

# Short parameter keys in status and query points; the JSON kept for --format json.
"$PBENCH" status t1 > status.txt
grep -q "q=8" status.txt || fail "status shows no q=8: $(cat status.txt)"
! grep -q '"queue_depth"' status.txt || fail "status shows the raw JSON parameters"
"$PBENCH" query points --sweep t1 > points.txt
grep -q "q=1" points.txt || fail "query points shows no q=1"
! grep -q '"settings"' points.txt || fail "query points shows the raw JSON parameters"
"$PBENCH" query points --sweep t1 --format json | grep -q 'queue_depth' \
  || fail "--format json lost the parameters"
"$PBENCH" query points --sweep t1 --format markdown | grep -q "q=8" || fail "markdown: no q=8"

# Notes: never in the csv data stream (stderr instead), in the json, each said once.
for q in "query logp --sweep t1" "query comm --sweep t1" "query system --sweep t1" "status t1"; do
  $PBENCH $q --format csv > data.csv 2> notes.txt || fail "$q --format csv"
  ! grep -q "note" data.csv || fail "$q --format csv wrote a note into the data: $(grep note data.csv)"
  "$PY" -c "import csv,sys; rows=list(csv.reader(open('data.csv'))); n=len(rows[0]); assert all(len(r)==n for r in rows), rows"
  $PBENCH $q --format json | "$PY" -c "import json,sys; json.load(sys.stdin)" || fail "$q json"
  $PBENCH $q > table.txt
  dups=$(grep '^note: ' table.txt | sort | uniq -d)
  [[ -z "$dups" ]] || fail "$q says a note more than once: $dups"
done
"$PBENCH" query logp --sweep t1 --format csv 2> notes.txt > /dev/null
grep -q "^note: .*no pair" notes.txt || fail "the csv notes did not go to stderr: $(cat notes.txt)"
[[ $(grep -c "no pair" notes.txt) -eq 1 ]] || fail "the 'no pair' note is said more than once"
echo "tables: ok"
