#!/usr/bin/env bash
# The tables a new user reads (issue 17), from a real sweep in a real store: one display rule
# for the human formats (MB/s, us, s; never e-notation), base units in csv and json; point
# parameters as short keys (JSON kept for --format json); notes never in the csv data stream,
# and each note said once.
source "$(dirname "$0")/common.sh"

# comm as tiny as the other tests' (1 MiB a process, windows of 0.2-0.5 ms from a loop of 10):
# what is checked is how the tables show what is stored, which any figure serves.
"$PBENCH" run t1 --workers logp,comm --partitions 1,2 --queue-depths 1,8 "${SMALL[@]}" \
  --set comm.memory_per_proc=1MiB --set comm.random_patterns=1 --set comm.repetitions=1 \
  --set comm.target_window=0.0002,0.0005 --set comm.start_looplength=10 > run.txt 2> run.err || fail "the sweep failed: $(tail run.err)"

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
# One 'no pair' note per point (its queue depth named), none said twice.
[[ -z $(grep "no pair" notes.txt | sort | uniq -d) ]] || fail "the 'no pair' note is said more than once"

# --- Output people read (issue 26, item 3) and the figures they quote (item 2), on a quick
# four-worker sweep run twice (its results are not valid: the quick settings give reasons).
"$PBENCH" run q4 --workers logp,comm,io,bcast --partitions 1,2 --queue-depths 1,8 -T 0.5 \
  --set logp.eel_roundtrips=200 --set logp.eel_runs=2 --set logp.max_size=65536 \
  --set logp.repetitions=1 --set logp.flood_messages=200 \
  --set comm.memory_per_proc=1MiB --set comm.random_patterns=2 --set comm.repetitions=1 \
  --set comm.target_window=0.0002,0.0005 --set comm.start_looplength=10 \
  --set io.memory_per_proc=1 --set io.cache_bytes=1000 \
  --set bcast.sizes=8,256 --set bcast.repetitions=10 --set bcast.max_measurements=3 \
  > q4.txt 2> q4.err || fail "the four-worker sweep failed: $(tail q4.err)"
"$PBENCH" run q4 --again > q4.txt 2> q4.err || fail "its second run failed: $(tail q4.err)"
"$PBENCH" reference q4 -o q4.toml > /dev/null 2> reference.err || fail "reference: $(cat reference.err)"
rc=0
"$PBENCH" check q4 --reference q4.toml --allow-reference-run > check.txt || rc=$?
[[ $rc == 0 ]] || fail "check on the store it was referenced from exited $rc: $(cat check.txt)"
# No line of a human table (or its notes) wider than 160 columns; at most 4 significant digits.
for q in "query system --sweep q4" "query logp --sweep q4" "query comm --sweep q4" \
         "query io --sweep q4" "query bcast --sweep q4" "history q4" "history q4 --stats" \
         "check q4 --reference q4.toml --allow-reference-run" "query compare q4 q4"; do
  $PBENCH $q > wide.txt || [[ $q == check* ]] || fail "$q failed"
  long=$(awk 'length($0) > 160' wide.txt)
  [[ -z "$long" ]] || fail "$q has lines over 160 columns: $(echo "$long" | head -2)"
  "$PY" - wide.txt <<'PY' || fail "$q shows a number with more than 4 significant digits"
import re, sys
for line in open(sys.argv[1]):
    if line.startswith(("note: ", "      ")):
        continue  # notes quote settings and constants as given (1.4826 x MAD)
    for number in re.findall(r"(?<![\w.=-])-?\d+\.\d+(?![\w.])", line):
        digits = number.lstrip("-").replace(".", "").lstrip("0")
        assert len(digits) <= 4, (number, line)
PY
done
# Every worker table gives a not valid result's first reason (logp and bcast included); a long
# reason is shortened in the table and said whole in the notes.
for w in logp comm io bcast; do
  "$PBENCH" query $w --sweep q4 --format json > $w.json
  "$PY" - $w.json "$w" <<'PY' || fail "query $w: no first reason of a not valid result"
import json, sys
t = json.load(open(sys.argv[1]))
rows = [r for r in t["rows"] if r["valid"] == "no"]
assert rows and all(r["reason"] for r in rows), (sys.argv[2], t["rows"])
PY
done
for w in system bcast io; do
  "$PBENCH" query $w --sweep q4 > $w.txt
  "$PBENCH" query $w --sweep q4 --format json > $w-whole.json
  "$PY" - $w.txt $w-whole.json <<'PY' || fail "query $w: a long reason is not shortened with its whole text in the notes"
import json, sys
text = open(sys.argv[1]).read()
table = [l for l in text.splitlines() if not l.startswith(("note: ", "      "))]
notes = text[text.index("note: "):].replace("\n      ", " ")
longest = max((r["reason"] for r in json.load(open(sys.argv[2]))["rows"] if r.get("reason")), key=len)
assert len(longest) > 60, longest
assert not any(longest in l for l in table), "the table shows the whole reason"
assert any(l.rstrip().endswith("...") or "..." in l for l in table), table
assert longest in notes, (longest, notes)
PY
done
"$PBENCH" query system --sweep q4 --format json > q4-system.json
"$PY" - q4-system.json q4.toml check.txt <<'PY' || fail "EEL is not among the headlines as documented"
import json, sys, tomllib
rows = {r["figure"]: r for r in json.load(open(sys.argv[1]))["rows"] if r["partition"] == 2}
for f in ("logp_g", "logp_bandwidth_at_max_size", "logp_EEL", "logp_o_s", "logp_o_r",
          "logp_L", "bcast_ol"):
    assert f in rows and rows[f]["value"] is not None, (f, rows.keys())
assert "logp_G" in rows  # (its fit may find no bandwidth-bound sizes with 64 KiB floods)
eel, o_s, o_r, l = (rows[f] for f in ("logp_EEL", "logp_o_s", "logp_o_r", "logp_L"))
# L, o_s and o_r come from the result that won EEL: the rows add up and name one point.
assert eel["point"] == o_s["point"] == o_r["point"] == l["point"], (eel, l)
assert abs(eel["value"] - o_s["value"] - o_r["value"] - l["value"]) <= 1e-9 * eel["value"]
assert eel["at"] == "8 B ping-pong" and o_s["at"] == "overlap test, q=1", (eel, o_s)
# G and the bandwidth at the largest size at the depth that won g.
g, big_g, bw = rows["logp_g"], rows["logp_G"], rows["logp_bandwidth_at_max_size"]
assert g["at"].startswith("q=") and big_g["at"] == g["at"] == bw["at"], (g, big_g, bw)
assert g["point"] == big_g["point"] == bw["point"] and bw["unit"] == "B/s" and bw["value"] > 0
ref = tomllib.load(open(sys.argv[2], "rb"))
# The reference names each figure as query system does (one name per figure).
names = {f["figure"] for f in ref["figure"]}
assert "logp_EEL" in names and "logp_bandwidth_at_max_size" in names, names
check = open(sys.argv[3]).read()
assert "logp_EEL" in check and "logp_bandwidth_at_max_size" in check, check
PY
# One spelling: history --metric takes the figure as query system names it (and the old one).
"$PBENCH" history q4 --metric logp_EEL --format json > eel.json
"$PBENCH" history q4 --metric "logp EEL" --format json > eel-old.json
"$PY" - eel.json eel-old.json <<'PY' || fail "history --metric logp_EEL"
import json, sys
a, b = (json.load(open(p))["rows"] for p in sys.argv[1:3])
assert len(a) == 2 and a == b and all(r["figure"] == "logp_EEL" for r in a), (a, b)
PY
echo "tables: ok"
