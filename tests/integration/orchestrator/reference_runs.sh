#!/usr/bin/env bash
# References from history (issue 26, item 1) on real tiny bcast runs: five runs of one sweep
# with a synthetic spread (the hop delay given through the environment, PBENCH_HOP_DELAY_US,
# as a job script's variables would: 1000, 1050, 950, 1025 and 975 us), `reference --runs 5
# --tolerance auto` writes each figure's median, n, MAD, p5 and p95 and a tolerance of 3 robust
# standard deviations (at least 2%); `check` prints the reference's n and band, passes a run
# inside the band (1005 us) and fails a run about 45% worse (1500 us) as regressed (exit 10), in both
# directions of `--runs` (N, A-B); `history --stats` gives the same n, median and MAD. Bad
# --runs and --tolerance values are refused with nothing written. (Tiny bcast results are not
# valid on this machine: the test marks them valid, so that the band, not validity, decides.)
source "$(dirname "$0")/common.sh"
# 50 repetitions per measurement: with 10, one run's OL moved by up to 25% on the idle machine
# (a MAD of 240 us in one run of the test in four; it failed in a fresh-clone CI run).
B=(--workers bcast --partitions 2 --set bcast.impl=binomial --set bcast.sizes=8
   --set bcast.repetitions=50 --set bcast.max_measurements=3)
PBENCH_HOP_DELAY_US=1000 "$PBENCH" run spread "${B[@]}" > run.log 2>&1 || fail "run 1: $(tail -5 run.log)"
for delay in 1050 950 1025 975; do
  PBENCH_HOP_DELAY_US=$delay "$PBENCH" run spread --again > run.log 2>&1 || fail "run ($delay): $(tail -5 run.log)"
done
sqlite3 "$PBENCH_DB" "update results set valid = 1"
"$PBENCH" history spread --format json > history.json
"$PBENCH" history spread --stats --format json > stats.json

"$PBENCH" reference spread --runs 5 --tolerance auto -o refs.toml > reference.out 2> reference.err ||
  fail "reference --runs 5: $(cat reference.out reference.err)"
grep -q "the median of runs 1-5" reference.out || fail "reference said: $(cat reference.out)"
"$PY" - refs.toml history.json stats.json <<'PY'
import json, statistics, sys, tomllib
ref = tomllib.load(open(sys.argv[1], "rb"))
assert ref["runs"] == "1-5" and "3 x the robust standard deviation" in ref["made"], ref
f = [x for x in ref["figure"] if x["figure"] == "bcast_ol"]
assert len(f) == 1, ref["figure"]
f = f[0]
values = [r["value"] for r in json.load(open(sys.argv[2]))["rows"] if r["figure"] == "bcast_ol"]
assert len(values) == 5, values
median = statistics.median(values)
mad = statistics.median([abs(v - median) for v in values])
assert f["n"] == 5 and abs(f["value"] - median) <= 1e-12 * median, (f, median)
assert abs(f["mad"] - mad) <= 1e-12 * median, (f, mad)
assert f["p5"] <= f["value"] <= f["p95"] and f["p5"] >= min(values) and f["p95"] <= max(values), f
expected = max(2.0, 3 * 1.4826 * mad / median * 100)
assert f["tolerance"].endswith("%") and abs(float(f["tolerance"][:-1]) - expected) <= 0.01 * expected, (f, expected)
# The synthetic spread (a MAD of about 25 us on a 1.08 ms OL) gives a band of about 10%: wider
# than this machine's run-to-run noise of a few percent (a band of 2% from a 1% spread failed a
# run inside it when the noise reached 4%), far narrower than the 45% regression below. A loaded
# CI machine's noise can pull the five runs together (a MAD of 10.6 us, a band of 4.32%, in a
# fresh-clone run): the band is checked against the runs' own MAD above, and here only that it
# is at least the 2% floor and short of the regression: the 1500 us run must fall outside it
# (a bound from the test's own known values, not from this machine's noise, which once gave 20.7%).
assert 2 <= float(f["tolerance"][:-1]) < 100 * (1500e-6 / median - 1), (f, median)
stats = [r for r in json.load(open(sys.argv[3]))["rows"] if r["figure"] == "bcast_ol"]
assert len(stats) == 1 and stats[0]["n"] == 5, stats
assert abs(stats[0]["median"] - median) <= 1e-12 * median and abs(stats[0]["mad"] - mad) <= 1e-12 * median, stats
print("reference: median %.1f us, MAD %.2f us, tolerance %s" % (median * 1e6, mad * 1e6, f["tolerance"]))
PY

# check_run DELAY VERDICT CODE: a new run with this hop delay, checked against the reference.
check_run() {
  PBENCH_HOP_DELAY_US=$1 "$PBENCH" run spread --again > run.log 2>&1 || fail "run ($1): $(tail -5 run.log)"
  sqlite3 "$PBENCH_DB" "update results set valid = 1"
  local rc=0
  "$PBENCH" check spread --reference refs.toml --format json > check.json || rc=$?
  local py=0
  "$PY" - check.json "$2" "$rc" "$3" <<'PY' || py=$?
import json, sys
rows, verdict, rc, code = json.load(open(sys.argv[1]))["rows"], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
ol = [r for r in rows if r["figure"] == "bcast_ol"]
assert len(ol) == 1, rows
r = ol[0]
assert r["n"] == 5 and r["band_low"] < r["reference"] < r["band_high"], r
inside = r["band_low"] <= r["measured"] <= r["band_high"]
# Whatever the run measured, the verdict and the exit code follow the band.
assert (r["verdict"] == "pass") == inside, r
assert (rc == 0) == inside, (r, rc)
if (r["verdict"], rc) != (verdict, code):
    sys.exit(3)  # the run landed on the other side of the band from the one asked for
PY
  # 3: a noisy run, told apart from a wrong verdict (any other failure).
  [[ $py -eq 0 || $py -eq 3 ]] || fail "check of a run at $1 us: $(cat check.json)"
  return "$py"
}
# A run inside the band passes. The band (about 10%) is wider than the idle machine's noise, but
# a loaded CI machine has moved one run's OL outside it: up to three runs, each checked for a
# verdict that agrees with its band, and one of them must pass.
attempts=0
until check_run 1005 pass 0; do
  attempts=$((attempts + 1))
  echo "run $attempts at 1005 us landed outside the band: $(cat check.json)" >&2
  [[ $attempts -lt 3 ]] || fail "no run at 1005 us passed in three"
done
check_run 1500 regressed 10 || fail "a run 45% worse was not called regressed: $(cat check.json)"
runs=$((7 + attempts))
"$PBENCH" check spread --reference refs.toml > check.txt || true
grep -q "the median of runs 1-5" check.txt || fail "check does not say what the reference is: $(cat check.txt)"

# A range names the same runs; a fixed tolerance still writes the spread.
"$PBENCH" reference spread --runs 1-5 --tolerance 5% -o range.toml > /dev/null 2>&1 || fail "reference --runs 1-5"
"$PY" - refs.toml range.toml <<'PY'
import sys, tomllib
a, b = (tomllib.load(open(p, "rb")) for p in sys.argv[1:3])
fa, fb = a["figure"][0], b["figure"][0]
assert fa["value"] == fb["value"] and fa["n"] == fb["n"] == 5, (fa, fb)
assert b["tolerance"] == "5%" and "tolerance" not in fb, b
PY

# Bad input: clear errors, no file written.
expect_fail 2 "--runs 'x': give a count of runs" "$PBENCH" reference spread --runs x -o bad.toml
expect_fail 2 "--runs 12: the sweep has $runs runs" "$PBENCH" reference spread --runs 12 -o bad.toml
expect_fail 2 "--runs 5-3: the range ends before it starts" "$PBENCH" reference spread --runs 5-3 -o bad.toml
expect_fail 2 "--tolerance auto needs a spread: give --runs 3 or more (got 2)" "$PBENCH" reference spread --runs 2 --tolerance auto -o bad.toml
expect_fail 2 "--tolerance auto needs several runs" "$PBENCH" reference spread --tolerance auto -o bad.toml
[[ ! -e bad.toml ]] || fail "a refused reference wrote its file"
echo "reference from runs: ok"
