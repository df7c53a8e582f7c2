#!/usr/bin/env bash
# The history stage of the orchestrator benchmark (issue 30, item 3): a store holding a decade of
# nightly runs of one sweep of all four workers, and the time of the commands a centre runs on
# it every night (query system, history, reference --runs 30, check, export, one more night's
# ingest), each against its target (200 ms; ingest >= 2,000 documents/s).
#
#   bench/orchestrator_history.sh [NIGHTS [DIR]]     (default 3653 nights, ten years; DIR kept)
#
# The seed is a real sweep, run once with quick settings on this machine (51 points: logp at
# partitions 1-4 and five queue depths, io at three T and two hint sets, comm and bcast at each
# partition; about five minutes); build/bench/orchestrator_scale --history then makes the other
# nights from its documents with varied values through the collect path (the Ingester, each
# night's headline answered as collect answers it) and times the commands with the pbench
# binary; then (issue 54, store version 11) the bounded check before a write beside the whole
# quick_check, collect with nothing new, sweep of a new sweep and store verify. Both stores are kept in DIR (default: a new temporary directory) for a second look.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=${PBENCH_BUILD_DIR:-$root/build}
nights=${1:-3653}
dir=${2:-$(mktemp -d)}
[[ $nights =~ ^[0-9]+$ && $nights -ge 2 ]] ||
  { echo "orchestrator_history: NIGHTS must be a whole number of at least 2, not '$nights'" >&2; exit 2; }
for f in "$build/orchestrator/pbench" "$build/bench/orchestrator_scale"; do
  [[ -x $f ]] || { echo "orchestrator_history: $f is missing: run scripts/build first" >&2; exit 2; }
done
mkdir -p "$dir"
cd "$dir"
if [[ ! -e seed.db ]]; then
  echo "seed: a real 51-point sweep of the four workers, quick settings (about five minutes)"
  "$build/orchestrator/pbench" --db seed.db --runs-dir seed-runs run nightly \
    --workers logp,comm,io,bcast --partitions 1,2,3,4 --queue-depths 1,4,16,64,256 \
    -T 0.5,0.75,1 --hints romio_cb_write=enable --hints romio_cb_write=disable \
    --set logp.eel_roundtrips=200 --set logp.eel_runs=2 --set logp.max_size=65536 \
    --set logp.repetitions=1 --set logp.flood_messages=200 \
    --set comm.memory_per_proc=1MiB --set comm.random_patterns=2 --set comm.repetitions=1 \
    --set comm.target_window=0.0002,0.0005 --set comm.start_looplength=10 \
    --set io.memory_per_proc=1 --set io.cache_bytes=1000 \
    --set bcast.sizes=8,64,512,4096,32768 --set bcast.repetitions=10 \
    --set bcast.max_measurements=3 > seed.log 2>&1 ||
    { tail -5 seed.log >&2; echo "orchestrator_history: the seed sweep failed (seed.log in $dir)" >&2; exit 1; }
fi
echo "stores in $dir (seed.db, decade.db)"
"$build/bench/orchestrator_scale" --history seed.db decade.db "$nights"
