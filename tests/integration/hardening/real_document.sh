# Shared by the hardening tests that fill a store with copies of one document (collect_killed,
# concurrent_collect; source it after ../orchestrator/common.sh): `here`, this folder (with
# finished_sweep.py, which makes each point of a sweep finish with a variant of the document),
# and real.json, one real logp result document (2 ranks, small, queue depths 1 and 8).
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
mpiexec -n 2 "${PBENCH_WORKER_DIR:?}/pbench-logp" --queue-depths 1,8 --eel-roundtrips 500 \
  --max-size 131072 --repetitions 1 --flood-messages 500 --output real.json > /dev/null 2>&1 \
  || fail "the logp worker did not run"
