#!/usr/bin/env bash
# The gate per environment (issue 39, items 1, 2 and 6): one bcast sweep over two MPI
# environments (MPICH and Open MPI worker sets, local scheduler) run three times; in the third run
# MPICH's jobs get a synthetic hop delay ten times the others' (PBENCH_HOP_DELAY_US from the
# environment pbench runs in, which the Open MPI environment's own variable overrides), and
# `check` against a reference of runs 1-2 exits 10 with bcast_ol regressed in env mpich, while
# Open MPI's passes. A fourth run under another root order (PBENCH_ROOT_ORDER) is a changed
# definition (exit 13) naming the setting; a new sweep with other sizes checked --against the
# first names the setting too. query system, history and reference give one row per environment
# and select one (--where env=, --envs); check names the run it scored, refuses a run of the
# reference's own unless asked, and a band that cannot fail is said; run --again says when the
# site profile changed since the sweep was made. (Tiny bcast results are not valid on this
# machine: the test marks them valid, so that the band and the definition, not validity, decide.)
source "$(dirname "$0")/common.sh"
source "$(dirname "$0")/../lib/site_environments.sh"
two_worker_sets
# MPICH and Open MPI by their own launchers; Open MPI's jobs get their own hop delay.
{
  printf '[scheduler]\nname = "local"\n'
  system_mpis_environments "$MPICH_DIR" "$OPENMPI_DIR"
  echo 'variables = { PBENCH_HOP_DELAY_US = "1000" }'
} > site.toml
# 50 repetitions per measurement: the OL of a 1 ms hop moves by a few percent between runs.
B=(--workers bcast --partitions 2 --set bcast.impl=binomial --set bcast.sizes=8
   --set bcast.repetitions=50 --set bcast.max_measurements=3)
mark_valid() { sqlite3 "$PBENCH_DB" "update results set valid = 1"; }

PBENCH_HOP_DELAY_US=1000 "$PBENCH" run envs --site site.toml --envs mpich,openmpi "${B[@]}" \
  > run1.out 2>&1 || fail "run 1: $(tail -5 run1.out)"
PBENCH_HOP_DELAY_US=1000 "$PBENCH" run envs --again > run2.out 2>&1 || fail "run 2: $(tail -5 run2.out)"
grep -q "site profile" run2.out && fail "run --again warned of an unchanged profile: $(cat run2.out)"
mark_valid

# query system and history: a row of each figure per environment; --where env= selects one.
"$PBENCH" query system --sweep envs --format json > system.json
"$PBENCH" query system --sweep envs --where env=openmpi --format json > system-ompi.json
"$PBENCH" history envs --format json > history.json
"$PBENCH" history envs --where env=mpich --format json > history-mpich.json
"$PY" - <<'PY'
import json
rows = json.load(open("system.json"))["rows"]
ol = [(r["env"], r["partition"]) for r in rows if r["figure"] == "bcast_ol"]
assert ol == [("mpich", 2), ("openmpi", 2)], rows
assert [r["env"] for r in json.load(open("system-ompi.json"))["rows"] if r["value"] is not None] == ["openmpi"]
h = [(r["run"], r["env"]) for r in json.load(open("history.json"))["rows"] if r["figure"] == "bcast_ol"]
assert h == [(1, "mpich"), (1, "openmpi"), (2, "mpich"), (2, "openmpi")], h
hm = {r["env"] for r in json.load(open("history-mpich.json"))["rows"] if r["value"] is not None}
assert hm == {"mpich"}, hm
PY

# The reference of runs 1-2: a figure per environment, the settings each ran with.
"$PBENCH" reference envs --runs 2 --tolerance 50% -o refs.toml --format json > reference.json 2> reference.err ||
  fail "reference: $(cat reference.err)"
"$PY" - <<'PY'
import json, tomllib
ref = tomllib.load(open("refs.toml", "rb"))
figures = sorted((f["figure"], f["env"], f["partition"]) for f in ref["figure"])
assert figures == [("bcast_ol", "mpich", 2), ("bcast_ol", "openmpi", 2)], ref["figure"]
assert all("worker" not in f and "metric" not in f for f in ref["figure"]), ref["figure"]
defs = {(d["worker"], d["env"]): d["settings"] for d in ref["definition"]}
assert set(defs) == {("bcast", "mpich"), ("bcast", "openmpi")}, defs
assert defs[("bcast", "mpich")]["impl"] == ['"binomial"'], defs
assert "hop_delay_us" not in defs[("bcast", "mpich")] and "output" not in defs[("bcast", "mpich")], defs
table = json.load(open("reference.json"))
assert [(r["figure"], r["env"]) for r in table["rows"]] == [("bcast_ol", "mpich"), ("bcast_ol", "openmpi")], table
assert table["notes"][0].startswith("reference refs.toml: 2 figures of sweep envs, the median of runs 1-2"), table["notes"]
PY
"$PBENCH" reference envs --runs 2 --envs openmpi -o ompi.toml > /dev/null 2>&1 || fail "reference --envs openmpi"
"$PY" -c "import tomllib; f = tomllib.load(open('ompi.toml', 'rb'))['figure']; assert [x['env'] for x in f] == ['openmpi'], f"

# A band that cannot fail is said, naming the figure.
"$PBENCH" reference envs --runs 2 --tolerance 200% -o wide.toml > /dev/null 2> wide.err || fail "reference 200%"
grep -q "warning: bcast_ol at 2 processes in env mpich: a band that cannot fail" wide.err ||
  fail "no warning of a band that cannot fail: $(cat wide.err)"
grep -q "tolerance 200% is above the ceiling of 50%" wide.err || fail "no ceiling named: $(cat wide.err)"
grep -q "is at or below zero, which bcast_ol cannot be" wide.err || fail "no lower limit named: $(cat wide.err)"

# A run of the reference's own is refused unless asked.
expect_fail 2 "run 2 of sweep 'envs' is one of the reference's own" \
  "$PBENCH" check envs --reference refs.toml
rc=0; "$PBENCH" check envs --reference refs.toml --allow-reference-run > own.txt || rc=$?
[[ $rc -ne 2 ]] && grep -q "scored: sweep envs run 2, started" own.txt ||
  fail "check of the reference's own run 2 with --allow-reference-run exited $rc: $(cat own.txt)"

# Run 3: MPICH ten times slower per hop; the profile edited meanwhile (--again says so).
echo "# edited after the sweep was made" >> site.toml
PBENCH_HOP_DELAY_US=10000 "$PBENCH" run envs --again > run3.out 2>&1 || fail "run 3: $(tail -5 run3.out)"
grep -q "warning: the site profile site.toml has changed since sweep envs was made" run3.out ||
  fail "run --again did not say the profile changed: $(cat run3.out)"
mark_valid
rc=0; "$PBENCH" check envs --reference refs.toml --format json > check3.json || rc=$?
"$PBENCH" check envs --reference refs.toml > check3.txt || true
"$PY" - "$rc" <<'PY' || fail "check of run 3: exit $rc, $(cat check3.txt)"
import json, sys
t = json.load(open("check3.json"))
verdicts = {r["env"]: r["verdict"] for r in t["rows"] if r["figure"] == "bcast_ol"}
assert verdicts == {"mpich": "regressed", "openmpi": "pass"}, t["rows"]
assert int(sys.argv[1]) == 10, sys.argv[1]
assert "regressed: bcast_ol at 2 processes in env mpich" in t["notes"], t["notes"]
scored = [n for n in t["notes"] if n.startswith("scored: sweep envs run 3, started ")]
assert scored, t["notes"]
assert any("the median of runs 1-2" in n for n in t["notes"]), t["notes"]
PY
grep -q "mpich .*regressed" check3.txt || fail "the table does not name the environment: $(cat check3.txt)"
# One environment alone: --envs.
rc=0; "$PBENCH" check envs --reference refs.toml --envs openmpi > ompi.txt || rc=$?
[[ $rc -eq 0 ]] || fail "check --envs openmpi exited $rc: $(cat ompi.txt)"
expect_fail 2 "--envs: no figure of sweep 'envs' in environment 'intel' (its environments: mpich, openmpi)" \
  "$PBENCH" check envs --reference refs.toml --envs intel

# Run 4: another root order from the environment: a changed definition, its own verdict.
PBENCH_HOP_DELAY_US=1000 PBENCH_ROOT_ORDER=backward "$PBENCH" run envs --again > run4.out 2>&1 ||
  fail "run 4: $(tail -5 run4.out)"
mark_valid
rc=0; "$PBENCH" check envs --reference refs.toml --format json > check4.json || rc=$?
"$PY" - "$rc" <<'PY' || fail "check of run 4: exit $rc, $(cat check4.json)"
import json, sys
t = json.load(open("check4.json"))
assert [r["verdict"] for r in t["rows"]] == ["changed definition"] * 2, t["rows"]
assert int(sys.argv[1]) == 13, sys.argv[1]
for env in ("mpich", "openmpi"):
    said = [n for n in t["notes"] if n.startswith("changed definition: bcast in env %s " % env)]
    assert said and 'root_order = "backward" (the reference: "forward")' in said[0], t["notes"]
PY

# A new sweep with other sizes, checked --against the first: every setting that differs named.
PBENCH_HOP_DELAY_US=1000 "$PBENCH" run other --site site.toml --envs mpich,openmpi \
  "${B[@]/bcast.sizes=8/bcast.sizes=8,64}" > other.out 2>&1 || fail "sweep other: $(tail -5 other.out)"
mark_valid
rc=0; "$PBENCH" check other --against envs --format json > against.json || rc=$?
"$PY" - "$rc" <<'PY' || fail "check --against: exit $rc, $(cat against.json)"
import json, sys
t = json.load(open("against.json"))
assert int(sys.argv[1]) == 13, sys.argv[1]
said = [n for n in t["notes"] if n.startswith("changed definition: bcast in env mpich ")]
assert said and "sizes = [8,64] (the reference: [8])" in said[0], t["notes"]
PY
echo "envs gate: ok"
