#!/usr/bin/env bash
# Which MPI a result came from (issue 28), for the worker set under test (PBENCH_EXPECT_MPI:
# "MPICH" or "Open MPI"), each worker launched by that MPI's own launcher (the `mpiexec` first
# on PATH is build/mpi/<set>/launch/mpiexec, never Debian's alternatives): the result of every
# worker (logp, comm, bcast, io and links) names the library, its version, its MPI-IO layer and
# the launch flags; io with a ROMIO-only hint says whether the hint is in effect (ROMIO: it is;
# Open MPI's OMPIO: it is not, stated).
SCRATCH_NAME=pbench-mpi-library source "$(dirname "$0")/../lib/workers.sh"
EXPECT=${PBENCH_EXPECT_MPI:?PBENCH_EXPECT_MPI must name the library (MPICH, Open MPI)}

# The launcher on PATH is the set's own, whatever the alternatives say.
launcher=$(command -v mpiexec)
[[ "$launcher" == */mpi/*/launch/mpiexec ]] || fail "mpiexec on PATH is $launcher, not the set's"

run() {
  local worker=$1
  shift
  mpiexec -n 2 "${WORKER[$worker]}" --output "$worker.json" "$@" > "$worker.log" 2>&1 ||
    fail "pbench-$worker under $launcher exited $?: $(tail -5 "$worker.log")"
  "$VALIDATE" --semantics "$worker.json" || fail "$worker.json is not a valid result document"
}
run logp --eel-roundtrips 50 --eel-runs 2 --queue-depths 1 --max-size 1024 --flood-messages 20 \
  --repetitions 2
run comm --memory-per-proc 1MiB --random-patterns 2 --repetitions 1 --target-window 0.0002,0.0005 \
  --start-looplength 10 --max-time 1
run bcast --sizes 8,256 --repetitions 5 --max-measurements 4
run io -T 0.6 --partitions 2 --memory-per-proc 1 --cache-bytes 1000 --hint romio_cb_write=enable
# links, the fifth worker, from the set's worker directory (the set is built with it).
WORKER[links]=${PBENCH_WORKER_DIR:?PBENCH_WORKER_DIR must name the worker directory of the set}/pbench-links
run links

"$PY" - "$EXPECT" logp.json comm.json bcast.json io.json links.json <<'PY'
import json, sys
expect = sys.argv[1]
for path in sys.argv[2:]:
    d = json.load(open(path))
    m = d["mpi"]
    assert m["library"] == expect, (path, m)
    assert m["version"], (path, m)
    assert m["standard"].count(".") == 1, (path, m)
    assert m["io_layer"] == ("OMPIO" if expect == "Open MPI" else "ROMIO"), (path, m)
    assert m["launcher"] is None or m["launcher"], (path, m)
    if expect == "Open MPI":
        # mpirun on 2 cores, as root here: the flags it needed are recorded.
        assert "--oversubscribe" in (m["launch_flags"] or ""), (path, m)
    assert d["mpi_library_version"].startswith(
        "MPICH" if expect == "MPICH" else "Open MPI"), d["mpi_library_version"]
io = json.load(open("io.json"))
warnings = [w for w in io["warnings"] if "romio_cb_write=enable" in w]
count = [m for m in io["summary"] if m["name"] == "hints_not_in_effect"][0]["value"]
if expect == "Open MPI":
    # OMPIO ignores ROMIO's hints: said, with the layer, and counted.
    assert warnings and "is not in effect" in warnings[0] and "OMPIO" in warnings[0], io["warnings"]
    assert count >= 1, count
else:
    assert not warnings, warnings
    assert count == 0, count
print("mpi library: %s, io layer %s, %d hint(s) not in effect" %
      (io["mpi"]["library"], io["mpi"]["io_layer"], count))
PY
echo "mpi library ($EXPECT): ok"
