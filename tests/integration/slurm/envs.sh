#!/usr/bin/env bash
# The MPI library as a sweep dimension on the real Slurm (issue 28): a site profile with two
# environments, MPICH launched by its mpiexec (Hydra) and Open MPI by its mpirun, each with its
# own worker directory; one sweep over logp, comm, io and bcast with --envs mpich,openmpi
# through sbatch, collected and queried --by env. Every result names its MPI library; the io
# point under Open MPI with a ROMIO-only hint says the hint was not in effect. Bad input (a
# profile that is not TOML, an unknown dialect or launcher, --envs naming an environment the
# profile lacks) is refused with a clear error and nothing stored.
source "$(dirname "$0")/common.sh"
source "$(dirname "$0")/../lib/site_environments.sh"
two_worker_sets

# Which PMI plugins this Slurm has: srun launches where the library's PMI is there (MPICH: pmi2).
srun --mpi=list > pmi.txt 2>&1 || fail "srun --mpi=list failed: $(cat pmi.txt)"
echo "srun --mpi=list: $(tr '\n' ' ' < pmi.txt)"
cat > site.toml <<'TOML'
lines = ["echo site profile lines ran"]
[scheduler]
name = "slurm"
queue = "lab"
time_limit = "10:00"
[variables]
PBENCH_TEST_SITE = "lab"
TOML
system_mpis_environments "$MPICH_DIR" "$OPENMPI_DIR" >> site.toml

TINY=(--workers logp,comm,io,bcast --partitions 2 --queue-depths 1 -T 0.6
      --hints romio_cb_write=enable
      --set logp.eel_roundtrips=50 --set logp.eel_runs=2 --set logp.max_size=1024
      --set logp.repetitions=1 --set logp.flood_messages=20
      --set comm.memory_per_proc=1MiB --set comm.random_patterns=2 --set comm.repetitions=1
      --set comm.target_window=0.0002,0.0005 --set comm.max_time=1
      --set io.memory_per_proc=1 --set io.cache_bytes=1000
      --set bcast.sizes=8,256 --set bcast.repetitions=5 --set bcast.max_measurements=4)

# Bad input first: nothing is stored.
echo 'scheduler = [' > broken.toml
expect_fail 2 "site profile broken.toml is not TOML: line 1" \
  "$PBENCH" sweep bad --site broken.toml "${TINY[@]}"
printf '[scheduler]\nname = "pbs"\ndialect = "sge"\n' > dialect.toml
expect_fail 2 "scheduler.dialect: unknown dialect 'sge' (known: torque, pbspro)" \
  "$PBENCH" sweep bad --site dialect.toml "${TINY[@]}"
printf '[launcher]\nname = "aprun"\n' > launcher.toml
expect_fail 2 "launcher: unknown launcher 'aprun' (known: mpiexec, mpirun, srun, custom)" \
  "$PBENCH" sweep bad --site launcher.toml "${TINY[@]}"
expect_fail 2 "has no environment 'intel' (it has: mpich, openmpi)" \
  "$PBENCH" sweep bad --site site.toml --envs mpich,intel "${TINY[@]}"
PBENCH_SITE= expect_fail 2 "--envs needs a site profile" \
  "$PBENCH" sweep bad --envs mpich "${TINY[@]}"
[[ ! -e "$PBENCH_DB" ]] || [[ $(sqlite3 "$PBENCH_DB" "select count(*) from sweeps") == 0 ]] ||
  fail "a refused sweep was stored"

# The sweep: 4 workers x 2 environments, each job with its environment's launcher.
"$PBENCH" run envs --site site.toml --envs mpich,openmpi "${TINY[@]}" --max-parallel 2 \
  > run.txt 2>&1 || fail "pbench run exited $?: $(tail -20 run.txt)"
for job in runs/envs/points/*/job.sh; do
  grep -q "^#SBATCH --partition=lab" "$job" || fail "no profile queue in $job"
  grep -q "^echo site profile lines ran" "$job" || fail "no profile lines in $job"
  grep -q "^export PBENCH_TEST_SITE=lab" "$job" || fail "no profile variable in $job"
  if grep -q "^export PBENCH_ENV=openmpi" "$job"; then
    grep -q "^/usr/bin/mpirun.openmpi -np 2 --oversubscribe .*$OPENMPI_DIR/pbench-" "$job" ||
      fail "the openmpi job does not launch its workers with mpirun: $job"
  else
    grep -q "^export PBENCH_ENV=mpich" "$job" || fail "no environment in $job"
    grep -q "^/usr/bin/mpiexec.hydra -n 2 $MPICH_DIR/pbench-" "$job" ||
      fail "the mpich job does not launch its workers with mpiexec.hydra: $job"
  fi
done
sqlite3 "$PBENCH_DB" "select count(*) from results" | grep -qx 8 ||
  fail "expected 8 results: $(sqlite3 "$PBENCH_DB" 'select count(*) from results'); $(tail -20 run.txt)"

# Every result names its MPI library, by environment, and so does its job's envelope (the
# library the worker links and its version, not the first MPI on PATH).
"$PY" - "$PBENCH_DB" runs <<'PY'
import glob, json, os, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.create_function("document", 1, lambda b: b and __import__("subprocess").run(
    ["zstd", "-dcq"], input=b, capture_output=True, check=True).stdout.decode())  # results.packed
envelopes = 0
for path in glob.glob(os.path.join(sys.argv[2], "envs", "points", "*", "attempt-*", "job.env")):
    env = dict(x.split("=", 1) for x in open(path, "rb").read().decode().split("\0") if "=" in x)
    want = {"mpich": ("libmpich.so", "MPICH"), "openmpi": ("libmpi.so", "Open MPI")}[env["PBENCH_ENV"]]
    assert want[0] in env["PBENCH_MPI_LIBRARY"] and want[1] in env["PBENCH_MPI_VERSION"], (path, env)
    envelopes += 1
assert envelopes >= 8, envelopes
seen = {}
for params, doc in db.execute(
        "select p.params_json, document(r.packed) from results r join points p on p.id = r.point_id"):
    env = json.loads(params)["env"]
    d = json.loads(doc)
    lib = d["mpi"]["library"]
    assert lib == {"mpich": "MPICH", "openmpi": "Open MPI"}[env], (env, d["worker"], d["mpi"])
    assert d["mpi"]["launcher"].startswith(
        {"mpich": "/usr/bin/mpiexec.hydra", "openmpi": "/usr/bin/mpirun.openmpi"}[env]), d["mpi"]
    seen[(env, d["worker"])] = d
assert len(seen) == 8, sorted(seen)
ompi_io = seen[("openmpi", "io")]
assert ompi_io["mpi"]["io_layer"] == "OMPIO", ompi_io["mpi"]
assert "--oversubscribe" in ompi_io["mpi"]["launch_flags"], ompi_io["mpi"]
said = [w for w in ompi_io["warnings"] if "romio_cb_write=enable" in w and "not in effect" in w]
assert said, ompi_io["warnings"]
mpich_io = seen[("mpich", "io")]
assert mpich_io["mpi"]["io_layer"] == "ROMIO", mpich_io["mpi"]
assert not [w for w in mpich_io["warnings"] if "romio_cb_write" in w], mpich_io["warnings"]
print("openmpi io:", said[0])
PY

# Queried by environment: --by env, --where env=..., and status shows it.
"$PBENCH" query logp --sweep envs --by env --format json > by_env.json
"$PY" - by_env.json <<'PY'
import json, sys
rows = json.load(open(sys.argv[1]))["rows"]
assert [r["env"] for r in rows] == ["mpich", "openmpi"], rows
PY
"$PBENCH" query bcast --sweep envs --where env=openmpi --format json > where.json
"$PY" -c "import json; r=json.load(open('where.json'))['rows']; assert r and all(x['env']=='openmpi' for x in r), r"
for worker in comm io; do
  "$PBENCH" query $worker --sweep envs --by env --format csv > $worker.csv
  head -1 $worker.csv | grep -q "^sweep,env," || fail "query $worker has no column env: $(head -1 $worker.csv)"
done
# One environment's headline figures against the other's.
"$PBENCH" query compare envs --envs mpich,openmpi --format json > compare.json
"$PY" - compare.json <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))
rows = {r["figure"]: r for r in t["rows"]}
# Every worker's headline, each side from its own environment; the ratio wherever both values
# are there and positive. (Tiny runs on a loaded machine can leave a figure without a value,
# comm stopped by its --max-time, or give a negative OL, not valid: no ratio by design.)
assert any(n.startswith("ratio = envs env=openmpi / envs env=mpich") for n in t["notes"]), t["notes"]
for figure in ("b_eff", "logp_g", "bcast_ol", "b_eff_io"):
    r = rows[figure]
    both = r["a"] is not None and r["b"] is not None and r["a"] > 0 and r["b"] > 0
    assert (r["ratio"] is not None) == both, r
assert any(r["ratio"] is not None for r in rows.values()), rows
print("compare mpich -> openmpi:", ", ".join("%s %s" % (f, rows[f]["ratio"]) for f in ("b_eff", "logp_g", "bcast_ol", "b_eff_io")))
PY
expect_fail 2 "sweep 'envs' has no environment 'intel' (its environments: mpich, openmpi)" \
  "$PBENCH" query compare envs --envs mpich,intel
"$PBENCH" status envs > status.txt
grep -q "env=openmpi" status.txt || fail "status does not show the environment: $(head -5 status.txt)"
# srun where the lab's Slurm has the PMI the library needs: Open MPI's workers through srun
# --mpi=pmix start as one job of 2 ranks (the wrong PMI would start 2 singletons, which the
# worker's launch check refuses), the result naming Open MPI and srun.
if grep -qw pmix pmi.txt; then
  { cat site.toml; cat <<TOML
[[environment]]
name = "openmpi-srun"
worker_dir = "$OPENMPI_DIR"
launcher = { name = "srun", pmi = "pmix" }
TOML
  } > srun.toml
  "$PBENCH" run srun --site srun.toml --envs openmpi-srun --workers bcast --partitions 2 \
    --set bcast.sizes=8 --set bcast.repetitions=5 --set bcast.max_measurements=3 \
    > srun.txt 2>&1 || fail "pbench run (srun --mpi=pmix) exited $?: $(tail -20 srun.txt)"
  grep -q "^srun --mpi=pmix -n 2 .*$OPENMPI_DIR/pbench-bcast" runs/srun/points/*/job.sh ||
    fail "the job does not launch with srun --mpi=pmix: $(grep -v '^#' runs/srun/points/*/job.sh | tail -3)"
  "$PY" - "$PBENCH_DB" <<'PY'
import json, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.create_function("document", 1, lambda b: b and __import__("subprocess").run(
    ["zstd", "-dcq"], input=b, capture_output=True, check=True).stdout.decode())  # results.packed
(doc,) = db.execute("select document(r.packed) from results r join points p on p.id = r.point_id "
                    "join sweeps s on s.id = p.sweep_id where s.name = 'srun'").fetchone()
d = json.loads(doc)
assert d["nprocs"] == 2 and d["mpi"]["library"] == "Open MPI", (d["nprocs"], d["mpi"])
assert d["mpi"]["launcher"].startswith("srun --mpi=pmix"), d["mpi"]
print("srun --mpi=pmix: Open MPI, 2 ranks")
PY
else
  echo "this Slurm has no pmix plugin: srun for Open MPI not tried"
fi

# The sweep records the profile it was made with.
sqlite3 "$PBENCH_DB" "select spec_json from sweeps where name = 'envs'" > spec.json
"$PY" - spec.json "$(sha256sum site.toml | cut -d' ' -f1)" <<'PY'
import json, sys
spec = json.load(open(sys.argv[1]))
assert spec["site"]["sha256"] == sys.argv[2], spec["site"]
assert [e["name"] for e in spec["environments"]] == ["mpich", "openmpi"], spec["environments"]
PY
echo "envs through sbatch: ok"
