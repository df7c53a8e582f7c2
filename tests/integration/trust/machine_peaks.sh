#!/usr/bin/env bash
# Physical caps per machine (issue 51): where the site profile states the machine's peaks
# ([machine] process_bandwidth_gb_s, node_bandwidth_gb_s), collect holds every bandwidth figure
# of every worker that measures one (logp, comm, io, links) to them instead of the generic
# 10 TB/s per process. A machine stated to move 1 kB/s per process and per node makes every real
# figure of a tiny sweep impossible: each result is stored not valid, its reason naming the
# figure, the peak and the profile; the same sweep without [machine] is held to the generic cap
# alone (no such reason). `store rebuild` judges the documents the same way again.
source "$(dirname "$0")/common.sh"

# EVERY_WORKER's sweep for the four workers that measure a bandwidth (bcast measures none).
SWEEP=(--workers logp,comm,io,links)
for ((i = 2; i < ${#EVERY_WORKER[@]}; ++i)); do
  if [[ ${EVERY_WORKER[i]} == --set && ${EVERY_WORKER[i + 1]} == bcast.* ]]; then
    i=$((i + 1))
  else
    SWEEP+=("${EVERY_WORKER[i]}")
  fi
done
cat > slow.toml <<'TOML'
[machine]
cluster = "slow"
process_bandwidth_gb_s = 1e-6
node_bandwidth_gb_s = 1e-6
TOML

"$PBENCH" run known --site slow.toml "${SWEEP[@]}" \
  > known.out 2>&1 || true
"$PBENCH" run unknown "${SWEEP[@]}" > unknown.out 2>&1 || true
expect_results 8

# reasons DB SWEEP: "worker<TAB>valid<TAB>reason" per result of SWEEP.
reasons() {
  "$PY" - "$1" "$2" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
for worker, valid, reason in db.execute(
        "SELECT f.worker, f.valid, coalesce(f.reason, '') FROM result_facts f "
        "JOIN sweeps s ON s.id = f.sweep_id WHERE s.name = ? ORDER BY f.worker", (sys.argv[2],)):
    print(f"{worker}\t{valid}\t{reason}")
PY
}
check_known() {  # DB: every result of "known" is not valid for the stated peak
  local n
  n=$(reasons "$1" known | grep -c "more than the machine's stated peak") || true
  [[ $n -eq 4 ]] || fail "$1: $n of 4 results held to the stated peak: $(reasons "$1" known)"
  reasons "$1" known | while IFS=$'\t' read -r worker valid reason; do
    [[ $valid -eq 0 ]] || fail "$1: $worker stored valid above the stated peak"
    [[ $reason == *"1000 B/s per process"* && $reason == *"slow.toml [machine]"* ]] ||
      fail "$1: $worker's reason names neither the peak nor the profile: $reason"
  done
  ! reasons "$1" unknown | grep -q "stated peak" ||
    fail "$1: the sweep without [machine] was held to a stated peak: $(reasons "$1" unknown)"
  [[ $(reasons "$1" unknown | wc -l) -eq 4 ]] || fail "$1: unknown: $(reasons "$1" unknown)"
}
check_known "$PBENCH_DB"
grep -q "more than the machine's stated peak" known.out || fail "run known did not say it: $(cat known.out)"

# The store rebuilt from the runs directory judges the documents by the same peaks.
"$PBENCH" store rebuild --output rebuilt.db > rebuild.out 2>&1 || true
[[ -f rebuilt.db ]] || fail "store rebuild wrote no store: $(cat rebuild.out)"
check_known rebuilt.db
echo "trust machine_peaks: ok"
