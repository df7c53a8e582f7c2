#!/usr/bin/env bash
# pbench report of a sweep over two MPI environments (issue 39 item 3), on the local scheduler
# with a site profile naming this build's MPICH and Open MPI worker sets: every figure of every
# worker has a series of each environment, its key naming the environment with its MPI library
# and version; the header lists the sweep's workers with their own settings (no JSON, no queue
# depths for a sweep without logp); titles follow the display rule (d = 20 us, never
# 20.000000); the reasons of results that are not valid name their environment; the page
# renders in headless Chromium.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
SCRATCH_NAME=pbench-report-envs source "$(dirname "$0")/../orchestrator/common.sh"

# Each environment launched by its own MPI's launcher (tests/integration/lib/site_environments.sh).
source "$here/../lib/site_environments.sh"
two_worker_sets
two_envs_site "$MPICH_DIR" "$OPENMPI_DIR" > site.toml
"$PBENCH" run envs --site site.toml --envs mpich,openmpi --workers logp,comm,io,bcast \
  --partitions 1,2 --queue-depths 1,8 -T 0.5 \
  --set logp.eel_roundtrips=200 --set logp.eel_runs=5 --set logp.max_size=16384 \
  --set logp.repetitions=1 --set logp.flood_messages=100 \
  --set comm.memory_per_proc=1MiB --set comm.random_patterns=2 --set comm.repetitions=1 \
  --set comm.target_window=0.0002,0.0005 --set comm.start_looplength=10 \
  --set io.memory_per_proc=1 --set io.cache_bytes=1000 \
  --set bcast.sizes=8,256 --set bcast.repetitions=5 --set bcast.max_measurements=3 \
  --set bcast.impl=linear --set bcast.hop_delay_us=20 \
  > run.txt 2> run.err || { tail -20 run.err; fail "pbench run"; }
"$PBENCH" run nologp --site site.toml --envs mpich,openmpi --workers comm --partitions 2 \
  --set comm.memory_per_proc=1MiB --set comm.random_patterns=2 --set comm.repetitions=1 \
  --set comm.target_window=0.0002,0.0005 --set comm.start_looplength=10 \
  > nologp.txt 2> nologp.err || { tail -20 nologp.err; fail "pbench run nologp"; }

"$PBENCH" report envs -o out > report.txt
"$PY" "$here/check_report.py" out --expect-figure logp-gap.svg --expect-figure logp-size-p2.svg \
  --expect-figure comm-bandwidth-p2.svg --expect-figure comm-scaling.svg \
  --expect-figure io-partitions.svg --expect-figure io-patterns-1.svg \
  --expect-figure bcast-linear-delay.svg --sections system,missing,logp,comm,io,bcast,model,cost \
  --expect-header sweep --expect-header logp --expect-header comm --expect-header io \
  --expect-header bcast --expect-header environments --no-data-count 0
"$PY" "$here/svg_check.py" out/*.svg > svg.txt || { cat svg.txt; fail "a figure is too small"; }
# Every figure: a key entry of each environment, named with its library and version as the
# results say them; the labels come from the store, so the test reads them there too.
"$PY" - "$PBENCH_DB" <<'PY'
import glob, html, json, re, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
db.create_function("document", 1, lambda b: b and __import__("subprocess").run(
    ["zstd", "-dcq"], input=b, capture_output=True, check=True).stdout.decode())  # results.packed
libraries = {}
for env, doc in db.execute(
        "select json_extract(p.params_json, '$.env'), document(r.packed) from results r "
        "join points p on p.id = r.point_id join sweeps s on s.id = p.sweep_id "
        "where s.name = 'envs'"):
    mpi = json.loads(doc)["mpi"]
    libraries.setdefault(env, set()).add(
        mpi["library"] + (" " + mpi["version"] if mpi["version"] else ""))
assert set(libraries) == {"mpich", "openmpi"}, libraries
assert any(l.startswith("MPICH") for l in libraries["mpich"]), libraries
assert any(l.startswith("Open MPI") for l in libraries["openmpi"]), libraries
labels = {env: "%s (%s)" % (env, " / ".join(sorted(l))) for env, l in libraries.items()}
with open("env_labels.txt", "w") as out:  # for the rules of reading below
    out.writelines(label + "\n" for _, label in sorted(labels.items()))
figures = sorted(glob.glob("out/*.svg"))
assert len(figures) >= 7, figures
for svg in figures:
    text = html.unescape(re.sub(r"<[^>]+>", " ", open(svg, encoding="utf-8").read()))
    for env, label in labels.items():
        # A key entry ends with the label: "q = 1, mpich (MPICH 4.0.2)".
        assert ", " + env + " (" in text, (svg, env, "no series of this environment")
        assert any(", " + env + " (" + l in text for l in libraries[env]), (svg, env, labels)
# The data files behind the figures hold both environments' values: each .gp plots at least
# one data block per environment.
for gp in glob.glob("out/*.gp"):
    script = open(gp, encoding="utf-8").read()
    for env in labels:
        assert ", " + env + " (" in script, (gp, env)
page = open("out/index.html", encoding="utf-8").read()
header = page[:page.index("<nav")]
assert "{&quot;" not in header and '{"' not in header, "raw JSON in the header"
assert "queue depths 1, 8" in header and "T 0.5 s" in header, header
assert "mpich: workers in " in header and "openmpi: workers in " in header, header
# The display rule in titles: the hop delay as 20 us, not 20.000000 us.
assert "d = 20 us" in page and "20.000000" not in page, "hop delay title"
# The reasons of results that are not valid name their environment.
assert "environment mpich)" in page and "environment openmpi)" in page, "not-valid reasons"
PY
# The report's rules of reading, in Chromium: above all one colour per environment in every
# figure (issue 52: type 0 of MPICH and type 3 of Open MPI were both purple), an environment's
# panel of its own where their values lie orders apart, legends off the data.
# The environments' labels as the check of the figures above read them from the store.
mapfile -t env_labels < env_labels.txt
env_args=()
for label in "${env_labels[@]}"; do env_args+=(--env "$label"); done
"$PY" "$here/figure_rules.py" out "${env_args[@]}" > rules.txt ||
  { cat rules.txt; fail "the report's rules"; }
grep -q "environments " rules.txt || { cat rules.txt; fail "no figure with both environments"; }

# A sweep without logp: no queue depths in its header.
"$PBENCH" report nologp -o nologp-out > /dev/null
"$PY" - <<'PY'
page = open("nologp-out/index.html", encoding="utf-8").read()
header = page[:page.index("<nav")]
assert "queue depth" not in header, header
assert "comm" in header and "settings memory_per_proc=1MiB" in header, header
PY
# The query tables' notes name the environment too (io with T = 0.5 s is not valid).
"$PBENCH" query io --sweep envs --format json > io.json
"$PY" - <<'PY'
import json
notes = json.load(open("io.json"))["notes"]
assert any("environment mpich" in n for n in notes), notes
assert any("environment openmpi" in n for n in notes), notes
PY

# Headless Chromium renders the page: the screenshot is not blank.
source "$here/../lib/chromium.sh"
chromium_shot "$work/envs.png" 1400,2400 "$work/out/index.html" || fail "chromium failed"
"$PY" "$here/png_nonblank.py" envs.png || fail "the page's screenshot is blank"
echo "report environments: ok"
