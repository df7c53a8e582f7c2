#!/usr/bin/env bash
# The figures real_sweep.sh does not draw, checked against the report's rules of reading
# (figure_rules.py in headless Chromium; docs/user-guide.md, "How the figures and tables read"):
# a sweep of bcast and links on 2 ranks run twice, so that its report has the history figures
# (in us and MB/s, a tic per run, never e-notation) and the link matrix's heatmap beside the
# broadcast's figures; the page's screenshot is kept with PBENCH_REPORT_SHOTS=DIR.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
SCRATCH_NAME=pbench-report-rules source "$(dirname "$0")/../orchestrator/common.sh"

"$PBENCH" run h --workers bcast,links --partitions 2 \
  --set bcast.sizes=8,256 --set bcast.repetitions=5 --set bcast.max_measurements=3 \
  --set links.latency_roundtrips=20 --set links.message_size=4KiB --set links.messages=2 \
  --set links.repetitions=1 > run1.txt 2> run1.err || { tail -20 run1.err; fail "pbench run h"; }
"$PBENCH" run h --again > run2.txt 2> run2.err || { tail -20 run2.err; fail "pbench run h --again"; }
"$PBENCH" report h -o out > report.txt
ls out/history-*.svg > /dev/null 2>&1 || fail "no history figure: $(ls out)"
ls out/links-*.svg > /dev/null 2>&1 || fail "no link matrix figure: $(ls out)"
"$PY" "$here/figure_rules.py" out > rules.txt || { cat rules.txt; fail "the report's rules"; }
cat rules.txt
# The history figures in the tables' units: bcast_ol in us, never s.
grep -q 'bcast_ol \[us\]' out/history-bcast-ol-at-2-processes.svg ||
  fail "the history of bcast_ol is not in us"
source "$here/../lib/chromium.sh"
chromium_shot "$work/history.png" 1400,1000 "$work/out/history-bcast-ol-at-2-processes.svg" ||
  fail "chromium failed"
"$PY" "$here/png_nonblank.py" history.png || fail "the history figure's screenshot is blank"
echo "report figure rules: ok"
