#!/usr/bin/env bash
# pbench plan --calibrate (issue 50): the machine's figures from a small calibration sweep's
# stored results. A real run of logp, comm and io on 2 processes; a cluster sweep planned with
# it names every figure's source (the calibration sweep, its run, the metric and how many
# results; "not valid: ..." for io's short T), takes exactly the store's values (the smallest
# EEL, the largest 1/G, b_eff per node and b_eff_io), prints them as a [machine] table to keep,
# and names what it could not calibrate. Without --calibrate the same plan says "stated default".
# A sweep that is not there, or has measured none of the figures, is refused (exit 2).
source "$(dirname "$0")/common.sh"

"$PBENCH" run cal --workers logp,comm,io --partitions 2 --queue-depths 1 -T 0.3 "${SMALL[@]}" \
  --set comm.memory_per_proc=1MiB --set comm.random_patterns=2 --set comm.repetitions=1 \
  --set io.memory_per_proc=1 --set io.cache_bytes=1000 > cal.out 2>&1 || true
"$PBENCH" sweep big --workers logp,comm,io,bcast --partitions 64x1 --scheduler slurm > /dev/null ||
  fail "sweep big"
"$PBENCH" plan big --calibrate cal --format json > calibrated.json || fail "plan --calibrate"
"$PBENCH" plan big --format json > plain.json || fail "plan"

"$PY" - "$PBENCH_DB" calibrated.json plain.json <<'PY' || fail "see above"
import json, re, sqlite3, sys
db = sqlite3.connect(sys.argv[1])
calibrated, plain = json.load(open(sys.argv[2])), json.load(open(sys.argv[3]))
def rule_note(plan):
    [note] = [n for n in plan["partitions"]["notes"] if n.startswith("method rule:")]
    return note
# What the store holds: the usable values of each figure (valid first, else not valid but not
# impossible), as the calibration's rule reads them; None where it has none (a logp whose G fit
# failed on a loaded machine writes no 1/G): that figure must be named as not calibrated.
# A result not valid as physically impossible or as run on ranks that shared cores (which a loaded
# machine can make of any run here: the worker sees fewer cores than ranks) is never used.
def best(worker, metric, largest):
    rows = db.execute("SELECT value, valid, coalesce(reason, '') FROM metric_values WHERE "
                      "sweep = 'cal' AND latest AND worker = ? AND metric = ? AND value > 0",
                      (worker, metric)).fetchall()
    usable = [(v, ok) for v, ok, why in rows
              if ok or not ("physically impossible: " in why or why.startswith("oversubscribed"))]
    valid = [v for v, ok in usable if ok] or [v for v, ok in usable]
    return (max if largest else min)(valid) if valid else None
figures = [  # key, worker, metric, largest, to the key's unit, the source's words, its label
    ("latency_us", "logp", "eel_min", False, 1e6, "smallest of 1 result within a node"),
    ("process_bandwidth_gb_s", "logp", "bandwidth", True, 1e-9, "largest of 1 result within a node"),
    ("node_bandwidth_gb_s", "comm", "b_eff_per_node", True, 1e-9, "largest of 1 result"),
    ("fs_bandwidth_gb_s", "io", "b_eff_io", True, 1e-9, "largest of 1 result"),
]
notes = calibrated["notes"]
[keep] = [n for n in notes if "state it in the site profile" in n]
table = dict(re.findall(r"^(\w+) = (\S+)$", keep, re.M))
note = rule_note(calibrated)
calibrated_keys = []
for key, worker, metric, largest, unit, words in figures:
    stored = best(worker, metric, largest)
    if stored is None:
        assert key not in table, (key, keep)
        assert any(n.startswith(f"not calibrated: {key} (no {worker} {metric}") for n in notes), \
            (key, notes)
        continue
    value = stored * unit
    assert key in table, (key, keep)
    assert abs(float(table[key]) - value) <= 1e-5 * value, (key, table[key], value)
    assert f"(calibration sweep cal run 1: {worker} {metric} {words}" in note, (key, note)
    calibrated_keys.append(key)
# EEL is measured by every logp run: the latency is calibrated unless the logp result was
# refused as impossible or oversubscribed, which the plan then says.
assert "latency_us" in calibrated_keys or any(
    n.startswith("not calibrated: latency_us (no logp eel_min but ") for n in notes), notes
if "fs_bandwidth_gb_s" in calibrated_keys:
    assert "io b_eff_io largest of 1 result, not valid: scheduled time" in note, note
assert any(n.startswith("not calibrated: fs_metadata_ops_s") for n in notes), notes
plain_note = rule_note(plain)
assert "calibration" not in plain_note and "latency 5 us (stated default)" in plain_note, plain_note
print("calibrated:", calibrated_keys)
PY

expect_fail 2 "no sweep 'nosuch'" "$PBENCH" plan big --calibrate nosuch
expect_fail 2 "sweep 'big' run 1 calibrates no figure of the machine: latency_us (no logp eel_min measured)" "$PBENCH" plan big --calibrate big
echo "plan calibrate: ok"
