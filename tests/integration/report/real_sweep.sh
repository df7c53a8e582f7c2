#!/usr/bin/env bash
# pbench report on real tiny runs of all four workers (partitions 1 and 2, io with a plain and
# a hostile hint set) and of the io consortium suite: index.html references every SVG, each SVG
# is well-formed XML at the page's width with legible fonts, the page has a provenance header, a
# table of contents and a section for each worker the sweep ran (and none for the others), the
# reasons of results that are not valid beside the tables and hollow markers for them in the
# figures, the page renders in headless Chromium at 1400 px to a non-blank screenshot, a hint
# with a shell command in backquotes is drawn as text and never run, and a sweep without
# results says "no data" instead of drawing anything; every figure and table follows the
# report's rules of reading (figure_rules.py, in Chromium).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
SCRATCH_NAME=pbench-report-it source "$(dirname "$0")/../orchestrator/common.sh"

# The hint value is a backquoted shell command (gnuplot would run it in a double-quoted string
# or bare) and markup; the sweep's hint rules allow no quotes or spaces, so ${IFS}.
hostile='romio_cb_write=`touch${IFS}INJECTED`<b>&amp;$(id)@x'
"$PBENCH" run r --workers logp,comm,io,bcast --partitions 1,2 --queue-depths 1,8 -T 0.5 \
  --set logp.eel_roundtrips=200 --set logp.eel_runs=10 --set logp.max_size=65536 \
  --set logp.repetitions=1 --set logp.flood_messages=200 \
  --set comm.memory_per_proc=1MiB --set comm.random_patterns=2 --set comm.repetitions=1 \
  --set comm.target_window=0.0002,0.0005 --set comm.start_looplength=10 \
  --set io.memory_per_proc=1 --set io.cache_bytes=1000 --hints cb_nodes=1 --hints "$hostile" \
  --set bcast.sizes=8,256 --set bcast.repetitions=10 --set bcast.max_measurements=3 \
  > run.txt 2> run.err || { cat run.err; fail "pbench run failed"; }
"$PBENCH" run c --workers io --partitions 2 --set io.suite=consortium \
  --set io.transfer_size=1000 --set io.block_size=2000 > cons.txt 2> cons.err ||
  { cat cons.err; fail "pbench run of the consortium suite failed"; }
"$PBENCH" sweep later --workers logp,comm --partitions 2 > /dev/null

"$PBENCH" report r -o out > report.txt
grep -q "^report: $work/out/index.html (" report.txt || fail "report said: $(cat report.txt)"
"$PY" "$here/check_report.py" out --expect-figure logp-gap.svg --expect-figure logp-size-p2.svg \
  --expect-figure comm-bandwidth-p2.svg --expect-figure comm-scaling.svg \
  --expect-figure io-partitions.svg \
  --expect-figure io-patterns-1.svg --expect-figure io-patterns-2.svg \
  --expect-figure bcast-mpi.svg \
  --sections system,missing,logp,comm,io,bcast,model,cost \
  --expect-header sweep --expect-header scheduler --expect-header hosts \
  --expect-header "MPI library" --expect-header pbench --expect-header dates \
  --expect-text 'hints romio_cb_write=`touch${IFS}INJECTED`<b>&amp;$(id)@x'
# The header names the hosts, the MPI library, pbench's git describe and every job.
"$PY" - "$PBENCH_DB" "$(hostname)" <<'PY'
import sqlite3, sys
page = open("out/index.html", encoding="utf-8").read()
header = page[:page.index("<nav")]
assert sys.argv[2] in header, "the host is not in the header"
assert "MPICH" in header or "Open MPI" in header, "no MPI library version in the header"
assert "git describe" in header, "no git describe in the header"
for (job,) in sqlite3.connect(sys.argv[1]).execute(
        "select distinct a.job_id from attempts a join points p on p.id = a.point_id "
        "join sweeps s on s.id = p.sweep_id where s.name = 'r' and a.job_id is not null"):
    assert job in header, ("job id not in the header", job)
PY
# The tables follow the display rule of the human formats: MB/s, us, s, never e-notation.
if grep -E '<td class="num">-?[0-9.]+e[+-][0-9]+' out/index.html > enotation.txt; then
  fail "the report shows e-notation: $(head -3 enotation.txt)"
fi
grep -q "<td>MB/s</td>" out/index.html || fail "the report's system table shows no MB/s"
# Every figure at the page's width (1240 px) with fonts of 14 px or more.
"$PY" "$here/svg_check.py" out/*.svg > svg.txt || { cat svg.txt; fail "a figure is too small"; }
[[ ! -e INJECTED && ! -e out/INJECTED ]] || fail "a hint's backquoted command was run"
grep -qF 'touch${IFS}INJECTED`&lt;b>&amp;amp;$(id)@x' out/io-partitions.svg ||
  fail "the hostile hint is not in the figure's key as text"
# The tables hold the stored values: the b_eff_io of partition 2 in the page is the query's.
"$PBENCH" query io --sweep r --format json > io.json
"$PY" - <<'PY'
import json
rows = json.load(open("io.json"))["rows"]
page = open("out/index.html", encoding="utf-8").read()
for r in rows:
    if r["b_eff_io"] is not None:
        assert "%.4g" % (r["b_eff_io"] / 1e6) in page, (r, "not on the page")
PY

# --by groups the worker table's rows: by hints, each hint set's partitions together.
"$PBENCH" query io --sweep r --by hints --format json > by-hints.json
"$PBENCH" query logp --sweep r --by queue_depth --format csv > by-q.csv
"$PY" - <<'PY'
import csv, json
plain = json.load(open("io.json"))["rows"]
rows = json.load(open("by-hints.json"))["rows"]
key = lambda r: (r["hints"], r["partition"])
assert [r["hints"] for r in plain] != sorted(r["hints"] for r in plain), "already grouped"
assert [key(r) for r in rows] == sorted(key(r) for r in plain), [key(r) for r in rows]
q = [int(r["queue_depth"]) for r in csv.DictReader(open("by-q.csv"))]
assert q == sorted(q) and set(q) == {1, 8}, q
PY

# A hand-made document: a comm pattern named with quotes, a line break, a backquoted command and
# gnuplot's system(); drawn as text, nothing run, the SVG still well-formed.
"$PY" - "$PBENCH_DB" hostile.db <<'PY'
import json, sqlite3, sys
src, dst = sqlite3.connect(sys.argv[1]), sqlite3.connect(sys.argv[2])
dst.create_function("document", 1, lambda b: b and __import__("subprocess").run(
    ["zstd", "-dcq"], input=b, capture_output=True, check=True).stdout.decode())  # results.packed
src.backup(dst)
evil = "ring1'\nsystem(\"touch INJECTED2\")\n`touch INJECTED3` \"<x>"
(rid, doc), = dst.execute("select r.id, document(r.packed) from results r join points p on p.id = "
                          "r.point_id where p.worker = 'comm' and p.partition = 2").fetchall()
doc = json.loads(doc)
for table in ("patterns", "measurements"):
    for row in doc["measurements"][table]["rows"]:
        if row[0] == "ring1:1*2":
            row[0] = evil
            if table == "patterns":
                row[3] = "unreadable"  # no layout: the key says the pattern's name
# The same result not valid, with a reason: listed beside the comm table, hollow markers.
doc["validity"] = {"valid": False, "reasons": ["<b>hand-made</b> reason for the test"]}
# Stored as pbench stores a document: one zstd frame of its text (packed), its head beside it.
text = json.dumps(doc).encode()
packed = __import__("subprocess").run(["zstd", "-cq", f"--stream-size={len(text)}"], input=text,
                                      capture_output=True, check=True).stdout
head = {k: v for k, v in doc.items() if k not in ("measurements", "summary")}
dst.execute("update results set head = ?, packed = ?, valid = 0 where id = ?",
            (json.dumps(head), packed, rid))
dst.commit()
PY
PBENCH_DB="$work/hostile.db" "$PBENCH" report r -o hostile-out > /dev/null
"$PY" "$here/check_report.py" hostile-out --expect-figure comm-bandwidth-p2.svg \
  --expect-text "(2 processes): <b>hand-made</b> reason for the test"
grep -qF '<li>point ' hostile-out/index.html || fail "no list of not valid results"
"$PY" "$here/svg_check.py" --hollow hostile-out/comm-bandwidth-p2.svg hostile-out/comm-scaling.svg \
  > /dev/null || fail "the not valid comm result is not drawn hollow"
[[ ! -e INJECTED2 && ! -e INJECTED3 && ! -e hostile-out/INJECTED2 ]] ||
  fail "a pattern name's command was run by gnuplot"
grep -qF "ring1' system(\"touch INJECTED2\") \`touch INJECTED3\` \"&lt;x>" \
  hostile-out/comm-bandwidth-p2.svg || fail "the hostile pattern name is not in the key as text"

# The rules every figure and table reads by (docs/user-guide.md, "How the figures and tables
# read"), measured in headless Chromium: units, axis kinds, hollow not valid markers, legends off
# the data, tables within the page.
"$PY" "$here/figure_rules.py" out > rules.txt || { cat rules.txt; fail "the report's rules"; }
"$PY" "$here/figure_rules.py" hostile-out --hollow comm-bandwidth-p2.svg \
  --hollow comm-scaling.svg > rules-hostile.txt ||
  { cat rules-hostile.txt; fail "the report's rules (not valid comm)"; }

# Headless Chromium renders the page at 1400 px: the screenshot is not blank (nor is one figure
# alone); PBENCH_REPORT_SHOTS=DIR keeps the screenshots there to look at.
source "$here/../lib/chromium.sh"
shot() { chromium_shot "$1" "$2" "$3" || fail "chromium failed on $3"; }
shot "$work/page.png" 1400,2400 "$work/out/index.html"
"$PY" "$here/png_nonblank.py" page.png || fail "the page's screenshot is blank"
shot "$work/figure.png" 1400,1000 "$work/out/io-patterns-1.svg"
"$PY" "$here/png_nonblank.py" figure.png || fail "the figure's screenshot is blank"

# The consortium sweep: its table and figure, no section (nor "no data") for what it did not run.
"$PBENCH" report c -o cons-out > /dev/null
"$PY" "$here/check_report.py" cons-out --expect-figure io-consortium.svg \
  --sections system,missing,consortium,cost --no-data-count 0 \
  --expect-text sustained_write --expect-text cached_write \
  --no-figure io-patterns --no-figure io-partitions
"$PY" "$here/svg_check.py" cons-out/io-consortium.svg > /dev/null || fail "consortium figure"
"$PY" "$here/figure_rules.py" cons-out > rules-cons.txt ||
  { cat rules-cons.txt; fail "the report's rules (consortium)"; }
shot "$work/cons.png" 1400,1800 "$work/cons-out/index.html"
"$PY" "$here/png_nonblank.py" cons.png || fail "the consortium page's screenshot is blank"

# A planned sweep without results: "no data" for each figure, nothing drawn (no zero curves).
"$PBENCH" report later -o later-out > /dev/null
"$PY" "$here/check_report.py" later-out --no-figure logp --no-figure comm \
  --sections system,missing,logp,comm,model \
  --expect-no-data "no data: LogP: g against queue depth" \
  --expect-no-data "no data: LogP: time per message against size" \
  --expect-no-data "no data: b_eff: bandwidth against message size"
[[ -z $(ls later-out/*.svg 2> /dev/null) ]] || fail "figures drawn for a sweep without results"
echo "report real sweep: ok"
