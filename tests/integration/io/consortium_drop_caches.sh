#!/usr/bin/env bash
# --drop-caches 1: before each sustained read every node syncs and writes 3 to
# /proc/sys/vm/drop_caches. Where that works (root with a writable /proc/sys) the sustained
# read's metric says caches_dropped 1 and no warning is given; where it does not (an
# unprivileged user: as root the test also runs the worker as 'nobody') the run still completes,
# caches_dropped is 0, and the warnings say why once and that the read may measure the cache.
source "$(dirname "$0")/common.sh"

RUN=(--suite consortium --transfer-size 1000 --block-size 4000 --drop-caches 1 --iterations 2)

# check RESULT DROPPED: the result's sustained-read label and warnings agree with DROPPED (1/0).
check() {
  validate "$1"
  "$PY" - "$1" "$2" <<'PY' || fail "$1: the drop-caches record is wrong"
import json, sys
doc = json.load(open(sys.argv[1]))
dropped = int(sys.argv[2])
assert doc["parameters"]["drop_caches"]["value"] == 1
read = [m for m in doc["summary"] if m["name"] == "sustained_read_transfer_rate"][0]
assert read["labels"]["caches_dropped"] == dropped, read
assert read["value"] > 0 and read["samples"] == 2, read
warnings = [w for w in doc["warnings"] if w.startswith("--drop-caches: ")]
if dropped:
    assert warnings == [], warnings
else:
    # Once, not per iteration, with the host, the reason and what it means.
    assert len(warnings) == 1, doc["warnings"]
    assert "cannot open /proc/sys/vm/drop_caches: Permission denied (not running as root)" in warnings[0]
    assert warnings[0].endswith("the caches were not dropped, so the sustained read may read cached data, not storage")
assert doc["validity"]["valid"] is True, doc["validity"]
PY
}

if [[ $(id -u) -eq 0 ]]; then
  if "$PY" -c "import os; os.close(os.open('/proc/sys/vm/drop_caches', os.O_WRONLY))" 2>/dev/null; then
    mpiexec -n 2 "$PBENCH_IO" "${RUN[@]}" --output root.json > protocol.txt 2>&1 ||
      fail "exit $?: $(cat protocol.txt)"
    check root.json 1
    echo "as root: the caches were dropped"
  else
    echo "note: /proc/sys/vm/drop_caches is not writable here even as root"
  fi
  source "$(dirname "$0")/../lib/nobody.sh"
  # The worker where nobody can run it (not inside a private checkout).
  staged=$(stage_for_nobody "$PBENCH_IO")
  chmod 777 "$work"
  "${NOBODY[@]}" env HOME="$work" \
    mpiexec -n 2 "$staged/pbench-io" "${RUN[@]}" --output nobody.json > protocol.txt 2>&1 ||
    fail "exit $? as nobody: $(cat protocol.txt)"
  check nobody.json 0
else
  mpiexec -n 2 "$PBENCH_IO" "${RUN[@]}" --output user.json > protocol.txt 2>&1 ||
    fail "exit $?: $(cat protocol.txt)"
  check user.json 0
fi
no_benchmark_files
echo "consortium drop caches: ok"
