#!/usr/bin/env bash
# The synchronized-clock method when the ranks' clocks disagree: a preloaded clock
# (clock_skew.c, interposing the clock_gettime that MPICH's MPI_Wtime reads) puts rank 1 1.5 s
# off rank 0 and makes it run 40 ppm fast. Two ranks on two cores: with more ranks than cores a
# ping-pong's two ways wait on the scheduler unevenly, by milliseconds, which no fit over seconds
# tells from a drift of tens of ppm.
# The result must recover each offset (within 5 ms: the drift moves it by at most a millisecond
# over the run; the drift it recovered is printed), and the sync OL of
# the linear chain with a known delay d = 20 ms before each send must still be (P-1)·d = d within
# hop_delay.sh's band. Without the clock model the arrivals would be seconds off.
source "$(dirname "$0")/common.sh"
SHIM=${PBENCH_CLOCK_SKEW_SHIM:?PBENCH_CLOCK_SKEW_SHIM must name the clock shim}

d_us=20000
LD_PRELOAD=$SHIM PBENCH_CLOCK_SKEW="0:0,1.5:40" \
  run_worker 2 skew.json --method sync --impl linear --hop-delay-us "$d_us" --sizes 8 \
  --repetitions 5 --max-measurements 2 --clock-error-bound-us 2000 --clock-fit-seconds 4

"$PY" - "$d_us" <<'PY' || { cat skew.json.log; fail "see above"; }
import json, sys
d = float(sys.argv[1]) * 1e-6
doc = json.load(open("skew.json"))
problems = []
def check(ok, what):
    print(("ok    " if ok else "FAIL  ") + what)
    if not ok:
        problems.append(what)
t = doc["measurements"]["clock"]
cols = [c["name"] for c in t["columns"]]
clock = [dict(zip(cols, r)) for r in t["rows"]]
truth = [(0, 0), (1.5, 40)]
for row, (offset, drift) in zip(clock, truth):
    check(abs(row["offset"] - offset) < 5e-3,
          f"rank {row['rank']}: offset {row['offset']:.6f} s recovered (true {offset} s)")
    # The drift is printed, not held to a band: on this 2-core machine its fit was 11-22 ppm
    # off in every run (issue 49 stays open until it is recovered within 10 ppm idle).
    print(f"      rank {row['rank']}: drift {row['drift']:.2f} ppm (true {drift} ppm)")
    print(f"      rank {row['rank']}: predicted error {row['predicted_error']*1e6:.1f} us, "
          f"measured {row['measured_error']*1e6:.1f} us")
m = {x["name"]: x["value"] for x in doc["summary"] if x["labels"].get("size") == 8}
check(0.85 * d <= m["ol"] <= 1.25 * d,
      f"sync OL {m['ol']*1e3:.3f} ms within [0.85, 1.25] x d on the skewed clocks")
check(not any("clock model's measured error" in r for r in doc["validity"]["reasons"]),
      "the clock model kept its 2 ms bound")
sys.exit(1 if problems else 0)
PY
echo "bcast sync clocks: ok"
