#!/usr/bin/env bash
# A sweep whose results are oversubscribed says so once (issue 36, item 2): pbench run under
# `taskset -c 0` (one core, on any machine) of bcast on partitions 2 and 3 stores two results
# not valid, "oversubscribed: 2 ranks on 1 core of HOST" and "... 3 ranks on 1 core ...". The
# table's reason column says "oversubscribed" in a word (then "as above"), the notes have one
# note for both results with the worst (3 ranks on 1 core), in every format and in the report;
# CSV and JSON rows keep each result's whole reason.
set -euo pipefail
SCRATCH_NAME=pbench-query-it source "$(dirname "$0")/../orchestrator/common.sh"
host=$(hostname)

taskset -c 0 "$PBENCH" run over --workers bcast --partitions 2,3 \
  --set bcast.sizes=8,256 --set bcast.repetitions=5 --set bcast.max_measurements=2 \
  > run.txt 2> run.err || { cat run.err; fail "pbench run failed"; }
"$PBENCH" query bcast --sweep over --format json > table.json
"$PBENCH" query bcast --sweep over > table.txt
"$PBENCH" query bcast --sweep over --format csv > table.csv 2> table.csv.err
"$PBENCH" report over --output report > /dev/null
"$PY" - table.json table.txt table.csv.err run.txt report/index.html "$host" <<'PY'
import html, json, sys
table, text, csv_notes, run, page, host = sys.argv[1:7]
t = json.load(open(table))
worst = f"oversubscribed: 3 ranks on 1 core of {host}"
# Rows keep each result's whole reason (CSV and JSON); the partition 3 rows the worst.
first = {r["partition"]: r["reason"] for r in t["rows"]}
assert first == {2: f"oversubscribed: 2 ranks on 1 core of {host}", 3: worst}, first
folded = [n for n in t["notes"] if "oversubscribed" in n]
assert len(folded) == 1, t["notes"]
assert folded[0].startswith("2 results not valid, oversubscribed") and "sweep over, partition 2" in folded[0] \
    and "sweep over, partition 3" in folded[0] and folded[0].endswith("the worst " + worst), folded
for name in (text, run, csv_notes):
    lines = open(name).read().splitlines()
    notes = [i for i, l in enumerate(lines) if l.startswith("note:") and "oversubscribed" in l]
    assert len(notes) == 1, (name, lines)
    # A note wraps at 160 columns onto indented lines: read it up to the next note.
    end = next((i for i in range(notes[0] + 1, len(lines)) if not lines[i].startswith(" ")), len(lines))
    note = " ".join(" ".join(lines[notes[0]:end]).split())
    assert note.endswith("the worst " + worst), (name, note)
    if name != csv_notes:
        # Table rows: the word, then "as above", never the whole reason per row.
        rows = [l for i, l in enumerate(lines) if "oversubscribed" in l and not notes[0] <= i < end]
        assert rows and all(f"on 1 core of {host}" not in l for l in rows), (name, rows)
report = html.unescape(open(page).read())
assert report.count("the worst " + worst) >= 1, "the report does not give the worst once"
assert f"2 ranks on 1 core of {host}" not in report, "the report repeats each result's reason"
print("oversubscribed sweep said once: ok")
PY
echo "query oversubscribed: ok"
