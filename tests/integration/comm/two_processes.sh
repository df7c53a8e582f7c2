#!/usr/bin/env bash
# A real b_eff run on 2 processes with all 21 sizes and all three methods: the result validates,
# every summary figure recomputed from the rows equals the reported one, the protocol ends with
# the b_eff line, and the shrunk configuration is recorded and marked not valid.
source "$(dirname "$0")/common.sh"

mpiexec -n 2 "$COMM" --memory-per-proc 1MiB --seed 4711 "${TINY[@]}" --rmax 1e9 \
  --output result.json > protocol.txt
check_result result.json --expect-complete
grep -q '^b_eff = .* MB/s \* 2 processes with 1.0 MiB memory per process (NOT VALID)$' protocol.txt ||
  fail "no final b_eff line: $(tail -3 protocol.txt)"
grep -q 'ring1:1\*2' protocol.txt || fail "the pattern list is not in the protocol"
grep -q 'balance factor b_eff / R_max' protocol.txt || fail "no balance factor with --rmax"
"$PY" - result.json <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
assert d["seeds"] == {"random_patterns": 4711}, d["seeds"]
assert d["validity"]["valid"] is False
reason = d["validity"]["reasons"][0]
assert reason.startswith("not the reference configuration: random_patterns = 2 (reference 30)"), reason
assert "repetitions = 1 (reference 3)" in reason and "start_looplength = 10" in reason, reason
assert d["parameters"]["seed"] == {"value": "4711", "unit": "", "source": "command_line"}, d["parameters"]["seed"]
assert any("unlike the original b_eff" in w for w in d["warnings"]), d["warnings"]
sizes = [r[1] for r in d["measurements"]["message_sizes"]["rows"]]
assert sizes[12] == 4096 and sizes[-1] == 8192, sizes
differences = {r[0]: r[1] for r in d["measurements"]["differences_from_b_eff_3_6"]["rows"]}
assert set(differences) == {"measurement window", "warm-up", "repetitions", "message buffers",
                            "two largest sizes"}, differences
assert "10 iterations at the first size" in differences["measurement window"], differences
PY

# --max-time stops early: a partial result, not valid for that reason, still consistent. With
# the reference window the plan takes seconds (about 1000 measurements of 2.5 ms and more);
# the first measurement starts before 0.5 s have passed, so there is at least one row.
mpiexec -n 2 "$COMM" --memory-per-proc 1MiB --random-patterns 2 --repetitions 1 --max-time 0.5 \
  --output partial.json > partial.txt
check_result partial.json --expect-partial
grep -q 'NOT VALID: stopped by --max-time 0.5 s: [1-9][0-9]* of 966 measurements done' partial.txt ||
  fail "no stop line in the protocol: $(grep 'NOT VALID' partial.txt)"
echo "two processes: ok"
