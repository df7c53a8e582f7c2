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
# impossible), as the calibration's rule reads them.
def best(worker, metric, largest):
    rows = db.execute("SELECT value, valid FROM metric_values WHERE sweep = 'cal' AND latest "
                      "AND worker = ? AND metric = ? AND value > 0", (worker, metric)).fetchall()
    valid = [v for v, ok in rows if ok] or [v for v, ok in rows]
    assert valid, (worker, metric, rows)
    return (max if largest else min)(valid)
expected = {
    "latency_us": best("logp", "eel_min", False) * 1e6,
    "process_bandwidth_gb_s": best("logp", "bandwidth", True) * 1e-9,
    "node_bandwidth_gb_s": best("comm", "b_eff_per_node", True) * 1e-9,
    "fs_bandwidth_gb_s": best("io", "b_eff_io", True) * 1e-9,
}
notes = calibrated["notes"]
[keep] = [n for n in notes if "state it in the site profile" in n]
table = dict(re.findall(r"^(\w+) = (\S+)$", keep, re.M))
for key, value in expected.items():
    assert key in table, (key, keep)
    assert abs(float(table[key]) - value) <= 1e-5 * value, (key, table[key], value)
note = rule_note(calibrated)
for figure, source in [("latency", "logp eel_min smallest of 1 result within a node"),
                       ("per process", "logp bandwidth largest of 1 result within a node"),
                       ("per node", "comm b_eff_per_node largest of 1 result"),
                       ("file system", "io b_eff_io largest of 1 result")]:
    assert f"(calibration sweep cal run 1: {source}" in note, (figure, source, note)
assert "io b_eff_io largest of 1 result, not valid: scheduled time" in note, note
assert any(n.startswith("not calibrated: fs_metadata_ops_s") for n in notes), notes
plain_note = rule_note(plain)
assert "calibration" not in plain_note and "latency 5 us (stated default)" in plain_note, plain_note
print("calibrated:", {k: round(v, 4) for k, v in expected.items()})
PY

expect_fail 2 "no sweep 'nosuch'" "$PBENCH" plan big --calibrate nosuch
expect_fail 2 "sweep 'big' run 1 calibrates no figure of the machine: latency_us (no logp eel_min measured)" "$PBENCH" plan big --calibrate big
echo "plan calibrate: ok"
