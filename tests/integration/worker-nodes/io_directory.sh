#!/usr/bin/env bash
# io on one node: b_eff_io and the consortium suite check the benchmark directory from every
# rank and read back another rank's chunk (one node: a warning says the check did not cross
# nodes); a rank that cannot see the directory (a private tmpfs over it, in its own mount
# namespace) stops the run with exit 2 and an error naming its node and rank, before anything
# is measured, and the run's directory is removed.
source "$(dirname "$0")/common.sh"

run 2 io beff.json "${IO_TINY[@]}" --partitions 2
run 2 io consortium.json --suite consortium --transfer-size 1000 --block-size 4000
"$PY" - beff.json consortium.json "$HOST" <<'PY'
import json, sys
host = sys.argv[3]
for name in sys.argv[1:3]:
    d = json.load(open(name))
    assert d["rank_hosts"] == [host, host], d["rank_hosts"]
    t = d["measurements"]["read_back_across_nodes"]
    assert [c["name"] for c in t["columns"]] == ["rank", "host", "source_rank", "source_host", "bytes", "wrong_bytes"]
    assert t["rows"] == [[0, host, 1, host, 65536, 0], [1, host, 0, host, 65536, 0]], (name, t["rows"])
    assert not [r for r in d["validity"]["reasons"] if "read-back check" in r], d["validity"]["reasons"]
    assert [w for w in d["warnings"] if w.startswith("every rank runs on one node: the read-back check")], d["warnings"]
PY
[[ -z $(find . -maxdepth 1 -name 'pbench-io.*') ]] || fail "the runs left their directories"

if [[ $(id -u) -ne 0 ]] || ! command -v unshare > /dev/null; then
  echo "SKIP: hiding the directory from one rank needs root and unshare (the rest passed)"
  exit 77
fi
mkdir shared
rc=0
out=$(mpiexec -n 1 "${WORKER[io]}" "${IO_TINY[@]}" --partitions 2 --dir shared --output hidden.json : \
  -n 1 unshare --mount --propagation private sh -c \
  'mount -t tmpfs tmpfs "$0" && exec "$@"' "$work/shared" \
  "${WORKER[io]}" "${IO_TINY[@]}" --partitions 2 --dir shared --output hidden.json 2>&1) || rc=$?
[[ $rc -eq 2 ]] || fail "a directory hidden from rank 1 exited $rc, expected 2: $out"
expected="pbench-io: error: --dir: the benchmark directory '$work/shared/pbench-io."
[[ "$out" == *"$expected"*"' is not visible from node $HOST (rank 1): rank 0 on $HOST wrote a marker there that they cannot read; give --dir on a file system that every node shares"* ]] ||
  fail "unclear error for a hidden directory: $out"
[[ ! -e hidden.json ]] || fail "a run that could not see its directory wrote a result"
[[ -z $(ls -A shared) ]] || fail "the run left its directory behind: $(ls -A shared)"
echo "io directory check on one node: ok"
