#!/usr/bin/env bash
# The Grafana dashboard shipped beside the rules (share/pbench/prometheus/pbench-dashboard.json)
# against a real export: a tiny sweep of all five workers (logp, comm, io, bcast, links) run
# and exported; the dashboard is valid JSON whose every query names families of that export, and
# every PromQL expression in it parses (promtool check rules on them as recording rules). The
# check is shown to fail on a dashboard that names a family the export lacks and on one whose
# expression does not parse.
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../orchestrator/common.sh"
SHARE=$here/../../../share/pbench/prometheus
"$PBENCH" run all --workers logp,comm,io,bcast,links --partitions 2 -T 0.3 "${SMALL[@]}" \
  --set comm.memory_per_proc=1MiB --set comm.random_patterns=2 --set comm.repetitions=1 \
  --set comm.target_window=0.0002,0.0005 --set comm.start_looplength=10 \
  --set io.memory_per_proc=1 --set io.cache_bytes=1000 \
  --set bcast.sizes=8 --set bcast.repetitions=10 --set bcast.max_measurements=3 \
  --set links.latency_roundtrips=20 --set links.message_size=4KiB --set links.messages=2 \
  --set links.repetitions=1 > run.out 2>&1 || fail "the sweep failed: $(tail -5 run.out)"
"$PBENCH" export all --format openmetrics -o all.prom
promtool check metrics < all.prom || fail "promtool refused the export"
for family in pbench_headline_bytes_per_second pbench_headline_seconds \
    pbench_headline_seconds_per_byte pbench_headline_valid pbench_links_weak_links \
    pbench_links_weak_nodes pbench_run_started_timestamp_seconds pbench_run_number; do
  grep -q "^$family{" all.prom || fail "no $family in the export: $(grep -c '^pbench' all.prom) series"
done
for figure in b_eff b_eff_io logp_EEL logp_G bcast_ol; do
  grep -q "^pbench_headline_[a-z_]*{.*figure=\"$figure\"" all.prom || fail "no $figure in the export"
done
"$PY" "$here/check_dashboard.py" "$SHARE/pbench-dashboard.json" all.prom queries.yml ||
  fail "the dashboard does not match the export"
promtool check rules queries.yml || fail "a query of the dashboard does not parse: $(cat queries.yml)"
# The check fails where it should: a family the export lacks, an expression that does not parse.
sed 's/pbench_links_weak_links{/pbench_links_weak_linkz{/' "$SHARE/pbench-dashboard.json" > bad.json
rc=0; "$PY" "$here/check_dashboard.py" bad.json all.prom bad.yml > bad.out 2>&1 || rc=$?
[[ $rc -ne 0 ]] && grep -q "pbench_links_weak_linkz" bad.out ||
  fail "the check passed a dashboard naming a family the export lacks: $(cat bad.out)"
sed 's/pbench_run_number{sweep=~\\"$sweep\\"}/pbench_run_number{sweep=~\\"$sweep\\"/' \
  "$SHARE/pbench-dashboard.json" > bad.json
"$PY" "$here/check_dashboard.py" bad.json all.prom bad.yml > /dev/null || fail "check of bad.json"
! promtool check rules bad.yml > bad.out 2>&1 || fail "promtool parsed an unclosed selector"
echo "dashboard: ok"
