#!/bin/sh
# pbench's nightly job (docs/operator-guide.md, "Monitoring"), for cron or a scheduled CI
# pipeline on a login node: a run of the sweep, its export for node_exporter's textfile collector
# (and, where batch jobs push, to a Pushgateway), and a check against the reference. The monitoring
# test (tests/integration/monitoring/nightly.sh) runs this file as it is.
# Settings, from the environment:
#   PBENCH_DB, PBENCH_RUNS_DIR  pbench's store and runs directory (pbench's own variables)
#   PBENCH_SWEEP                the sweep, made once at acceptance (default: nightly)
#   PBENCH_TEXTFILE_DIR         node_exporter's --collector.textfile.directory
#                               (default: Debian's, /var/lib/prometheus/node-exporter)
#   PBENCH_REFERENCE            the reference file to check against (unset: no check)
#   PBENCH_PUSHGATEWAY          a Pushgateway's URL to push the export to (unset: no push)
# Exit status: 1 when the export failed, the run's when it failed, else the check's (0 passed,
# 10 a figure regressed, ...: pbench check --help).
set -u
sweep=${PBENCH_SWEEP:-nightly}
textfile_dir=${PBENCH_TEXTFILE_DIR:-/var/lib/prometheus/node-exporter}
pbench run "$sweep" --again > /dev/null
run_status=$?
# The latest run (a failed run's finished points too); when no run started, the last one stays
# exported, and its start time tells how old it is (the alert PbenchExportStale).
pbench export "$sweep" --format openmetrics -o "$textfile_dir/pbench-$sweep.prom" || exit 1
if [ -n "${PBENCH_PUSHGATEWAY:-}" ]; then
  pbench export "$sweep" --format openmetrics |
    curl --silent --show-error --fail --request PUT --data-binary @- \
      "$PBENCH_PUSHGATEWAY/metrics/job/pbench/sweep/$sweep" || exit 1
fi
[ "$run_status" -eq 0 ] || exit "$run_status"
[ -n "${PBENCH_REFERENCE:-}" ] || exit 0
pbench check "$sweep" --reference "$PBENCH_REFERENCE"
