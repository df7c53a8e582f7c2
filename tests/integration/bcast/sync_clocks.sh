#!/usr/bin/env bash
# The synchronized-clock method when the ranks' clocks disagree: a preloaded clock
# (clock_skew.c, interposing the clock_gettime that MPICH's MPI_Wtime reads) puts rank 1 1.5 s
# off rank 0 and makes it run 40 ppm fast. Two ranks on two cores.
# The result must recover the offset (within 5 ms: the drift moves it by at most a millisecond
# over the run) and the drift: the true 40 ppm within the uncertainty the model states for it
# (drift_uncertainty: three standard errors of the fitted slope), in every run; and within
# 10 ppm, with a stated uncertainty under 10 ppm, in one of up to three runs (on an idle machine
# the first: 40.0 +- 0.1 ppm; a rank that waited for a core during the fit widens the
# uncertainty of that run, which then must still hold the truth). The sync OL of the linear chain
# with a known delay d = 20 ms before each send must still be (P-1)·d = d within hop_delay.sh's
# band. Without the clock model the arrivals would be seconds off.
source "$(dirname "$0")/common.sh"
SHIM=${PBENCH_CLOCK_SKEW_SHIM:?PBENCH_CLOCK_SKEW_SHIM must name the clock shim}

d_us=20000
# attempt N: one run; exits 0 when the drift was recovered within 10 ppm, 3 when only within its
# (wider) stated uncertainty, 1 on a failure.
attempt() {
  LD_PRELOAD=$SHIM PBENCH_CLOCK_SKEW="0:0,1.5:40" \
    run_worker 2 "skew$1.json" --method sync --impl linear --hop-delay-us "$d_us" --sizes 8 \
    --repetitions 5 --max-measurements 2 --clock-error-bound-us 2000 --clock-fit-seconds 4
  "$PY" - "$d_us" "skew$1.json" <<'PY' || { rc=$?; [[ $rc -eq 3 ]] || cat "skew$1.json.log"; return $rc; }
import json, sys
from result_tables import rows
from truth_checks import check, problems
d = float(sys.argv[1]) * 1e-6
doc = json.load(open(sys.argv[2]))
clock = rows(doc, "clock")
truth = [(0, 0), (1.5, 40)]
close = True
for row, (offset, drift) in zip(clock, truth):
    check(abs(row["offset"] - offset) < 5e-3,
          f"rank {row['rank']}: offset {row['offset']:.6f} s recovered (true {offset} s)")
    error, stated = abs(row["drift"] - drift), row["drift_uncertainty"]
    check(error <= stated + 0.01,
          f"rank {row['rank']}: drift {row['drift']:.2f} +- {stated:.2f} ppm holds the true "
          f"{drift} ppm")
    close = close and error <= 10 and stated <= 10
m = {x["name"]: x["value"] for x in doc["summary"] if x["labels"].get("size") == 8}
check(0.85 * d <= m["ol"] <= 1.25 * d,
      f"sync OL {m['ol']*1e3:.3f} ms within [0.85, 1.25] x d on the skewed clocks")
check(not any("clock model's measured error" in r for r in doc["validity"]["reasons"]),
      "the clock model kept its 2 ms bound")
sys.exit(1 if problems else 0 if close else 3)
PY
}
for n in 1 2 3; do
  rc=0
  attempt "$n" || rc=$?
  [[ $rc -eq 0 ]] && { echo "bcast sync clocks: ok (run $n)"; exit 0; }
  [[ $rc -eq 3 ]] || fail "run $n: see above"
  echo "run $n: the drift within its stated uncertainty only, not within 10 ppm: once more"
done
fail "the drift was not recovered within 10 ppm in three runs"
