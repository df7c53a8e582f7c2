#!/usr/bin/env bash
# The real monitoring path (issue 55), with Debian's packages and nothing faked: node_exporter's
# textfile collector on the directory the nightly job exports to, a Prometheus scraping it (and
# a Pushgateway the job pushes to) with the shipped rules (share/pbench/prometheus/
# pbench.rules.yml), and an Alertmanager whose webhook receiver this test serves
# (webhook_receiver.py); all on loopback ports chosen here, their data in the scratch directory,
# all stopped at the end. After the sweep's acceptance run, the shipped nightly job
# (pbench-nightly.sh, run as it is) runs the tiny bcast sweep over two environments on three
# nights, exporting after each; in the third night environment a's hop delay is
# ten times the first two nights' (as the gate tests regress a sweep), b's stays. Read back
# through Prometheus's HTTP API: every series of the three exports is one series across the
# nights (no new series per run), each night's exported OL is a value of its env's one series,
# and PbenchOlRegressed fired for env a and reached the receiver after night 3 with the sweep,
# figure and env labels. The job's exit status is check's: 0, 0, then 10 (regressed; 11 when the tiny
# results are not valid).
here=$(cd "$(dirname "$0")" && pwd)
source "$here/../orchestrator/common.sh"
SHARE=$(cd "$here/../../../share/pbench/prometheus" && pwd)
WORKERS=${PBENCH_WORKER_DIR:?PBENCH_WORKER_DIR must name the MPICH worker set}

pids=()
stop_all() {
  local pid
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
}
trap 'stop_all; rm -rf "$work"' EXIT
# Five free loopback ports (bound and released here: each server binds its own at once).
read -r P_NODE P_PROM P_AM P_HOOK P_PUSH < <("$PY" -c '
import socket
s = [socket.socket() for _ in range(5)]
for x in s: x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])')
mkdir -p textfile tsdb alertmanager
"$PY" "$here/webhook_receiver.py" "$P_HOOK" "$work/received.jsonl" > receiver.log 2>&1 &
pids+=($!)
prometheus-node-exporter --web.listen-address="127.0.0.1:$P_NODE" --collector.disable-defaults \
  --collector.textfile --collector.textfile.directory="$work/textfile" > node.log 2>&1 &
pids+=($!)
prometheus-pushgateway --web.listen-address="127.0.0.1:$P_PUSH" > push.log 2>&1 &
pids+=($!)
cat > alertmanager.yml <<YAML
route:
  receiver: test
  group_by: [alertname, sweep, figure, env]
  group_wait: 1s
  group_interval: 1s
  repeat_interval: 2s  # a firing alert is sent again: what fires after night 3 arrives after it
receivers:
  - name: test
    webhook_configs:
      - url: http://127.0.0.1:$P_HOOK/alert
YAML
prometheus-alertmanager --config.file=alertmanager.yml --storage.path="$work/alertmanager" \
  --web.listen-address="127.0.0.1:$P_AM" --cluster.listen-address= > alertmanager.log 2>&1 &
pids+=($!)
cat > prometheus.yml <<YAML
global:
  scrape_interval: 1s
  evaluation_interval: 1s
rule_files:
  - $SHARE/pbench.rules.yml
alerting:
  alertmanagers:
    - static_configs:
        - targets: ['127.0.0.1:$P_AM']
scrape_configs:
  - job_name: node
    static_configs:
      - targets: ['127.0.0.1:$P_NODE']
  - job_name: pushgateway
    honor_labels: true
    static_configs:
      - targets: ['127.0.0.1:$P_PUSH']
YAML
prometheus --config.file=prometheus.yml --storage.tsdb.path="$work/tsdb" \
  --web.listen-address="127.0.0.1:$P_PROM" > prometheus.log 2>&1 &
pids+=($!)
# wait_for URL WHAT LOG: up to 60 s for URL to answer.
wait_for() {
  for _ in $(seq 300); do
    curl -sf "$1" > /dev/null 2>&1 && return 0
    sleep 0.2
  done
  fail "$2 did not start: $(tail -5 "$3")"
}
# The receiver answers GET with 404: the port file it writes once listening says it is up.
for _ in $(seq 100); do [[ -s received.jsonl.port ]] && break; sleep 0.1; done
[[ -s received.jsonl.port ]] || fail "the webhook receiver did not start: $(cat receiver.log)"
wait_for "http://127.0.0.1:$P_NODE/metrics" node_exporter node.log
wait_for "http://127.0.0.1:$P_PUSH/-/ready" pushgateway push.log
wait_for "http://127.0.0.1:$P_AM/-/ready" alertmanager alertmanager.log
wait_for "http://127.0.0.1:$P_PROM/-/ready" prometheus prometheus.log
API=http://127.0.0.1:$P_PROM/api/v1
start=$(date +%s)

# The sweep, run once at acceptance (its run 1, as the operator's guide says): bcast over two
# environments of the MPICH worker set; a's hop delay from the environment pbench runs in, b's
# its own.
source "$here/../lib/site_environments.sh"
{
  printf '[scheduler]\nname = "local"\n'
  site_environment a "$WORKERS" mpiexec /usr/bin/mpiexec.hydra
  site_environment b "$WORKERS" mpiexec /usr/bin/mpiexec.hydra
  echo 'variables = { PBENCH_HOP_DELAY_US = "1000" }'
} > site.toml
PBENCH_HOP_DELAY_US=1000 "$PBENCH" run nightly --site site.toml --envs a,b --workers bcast \
  --partitions 2 --set bcast.impl=binomial --set bcast.sizes=8 --set bcast.repetitions=50 \
  --set bcast.max_measurements=3 > acceptance.out 2>&1 || fail "pbench run: $(tail -5 acceptance.out)"
# The job as shipped, with pbench on PATH and its settings in the environment.
mkdir bin && ln -s "$PBENCH" bin/pbench
export PBENCH_SWEEP=nightly PBENCH_TEXTFILE_DIR=$work/textfile
export PBENCH_PUSHGATEWAY=http://127.0.0.1:$P_PUSH
# night N DELAY_US EXPECTED_STATUSES: the job (its exit status one of EXPECTED_STATUSES, as
# "10|11"), the export kept as night-N.prom, and Prometheus waited for until it holds the
# export's OL of both environments.
night() {
  local rc=0
  PATH="$work/bin:$PATH" PBENCH_HOP_DELAY_US=$2 sh "$SHARE/pbench-nightly.sh" > "job$1.out" 2>&1 ||
    rc=$?
  [[ "|$3|" == *"|$rc|"* ]] || fail "night $1: the job exited $rc, expected $3: $(tail -20 "job$1.out")"
  cp textfile/pbench-nightly.prom "night-$1.prom"
  promtool check metrics < "night-$1.prom" || fail "night $1: promtool refused the export"
  for _ in $(seq 150); do
    "$PY" "$here/prometheus_api.py" "$API" holds "night-$1.prom" && return 0
    sleep 0.2
  done
  fail "night $1: Prometheus never held the export's OL: $("$PY" "$here/prometheus_api.py" "$API" holds "night-$1.prom" --why)"
}
night 1 1000 0
night 2 1000 0
# Acceptance, after two nights: the reference of those two runs, which the job checks against.
"$PBENCH" reference nightly --runs 2 --tolerance 50% -o refs.toml > reference.out 2>&1 ||
  fail "pbench reference: $(cat reference.out)"
export PBENCH_REFERENCE=$work/refs.toml
# Night 3: check exits 10 (regressed), or 11 where the tiny results are not valid (check's
# verdict "not valid" comes before "regressed"; on this loaded machine the 3% rule often fails):
# its table shows env a's OL far past the band either way.
received_before=0
[[ -f received.jsonl ]] && received_before=$(wc -l < received.jsonl)
night 3 10000 "10|11"
"$PY" - job3.out <<'PY' || fail "night 3: the check's table does not show a's OL regressed: $(cat job3.out)"
import re, sys
rows = {m.group(1): float(m.group(2)) for m in
        re.finditer(r"^bcast_ol +(\w+) +2 +\S+ +\S+ +us +(\S+)", open(sys.argv[1]).read(), re.M)}
assert rows["a"] > 5 and 0.5 < rows["b"] < 2, rows
PY

# The alert: fired in Prometheus for env a and delivered to the receiver after night 3, within
# 90 s. (Whether env b stays quiet is not asserted: its night-to-night OL on a loaded machine
# is a measured ratio against the 20% band; the rules' unit tests hold the quiet cases.)
# (Waited for is env a's firing notification itself: env b's group, when its night-to-night noise
# passed the band, arrives on its own and once ended this wait before a's came.)
a_fired() {
  tail -n +"$((received_before + 1))" received.jsonl 2>/dev/null | "$PY" -c '
import json, sys
sys.exit(not any(a["labels"].get("alertname") == "PbenchOlRegressed" and
                 a["labels"].get("env") == "a" and a["status"] == "firing"
                 for line in sys.stdin for a in json.loads(line)["alerts"]))'
}
# Waited for too is the alert firing in Prometheus from both sources: each source's series
# fires on its own scrape, and the Pushgateway's can reach the receiver before node_exporter's
# night-3 sample is evaluated.
for _ in $(seq 450); do
  a_fired && "$PY" "$here/prometheus_api.py" "$API" firing && break
  sleep 0.2
done
"$PY" "$here/prometheus_api.py" "$API" verify "$start" night-1.prom night-2.prom night-3.prom \
  received.jsonl "$received_before" ||
  fail "Prometheus's API or the receiver disagree with the exports (above)"
echo "monitoring nightly: ok"
