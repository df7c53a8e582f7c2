#!/usr/bin/env bash
# Bad input ends pbench-comm with status 2, one clear line and no result written: one process,
# too little memory per process for L_max >= 4 KB, a malformed seed or size list, a target
# window with min >= max. And --describe needs no MPI and shows the ring labels.
source "$(dirname "$0")/common.sh"

expect_fail 2 "b_eff needs at least 2 processes; this run has 1" \
  mpiexec -n 1 "$COMM" --memory-per-proc 1MiB --output result.json
expect_fail 2 "memory per process 524287 B is too small: b_eff needs L_max = memory/128 >= 4096 B" \
  mpiexec -n 2 "$COMM" --memory-per-proc 524287 --output result.json
expect_fail 2 "malformed --seed '12x': expected a whole number from 0 to 4294967295" \
  mpiexec -n 2 "$COMM" --memory-per-proc 1MiB --seed 12x --output result.json
expect_fail 2 "malformed --seed '4294967296'" \
  mpiexec -n 2 "$COMM" --memory-per-proc 1MiB --seed 4294967296 --output result.json
expect_fail 2 "--sizes position 22 is out of range" \
  mpiexec -n 2 "$COMM" --memory-per-proc 1MiB --sizes 1,22 --output result.json
expect_fail 2 "malformed --sizes item '1-x'" \
  mpiexec -n 2 "$COMM" --memory-per-proc 1MiB --sizes 1-x --output result.json
expect_fail 2 "--target-window min (0.005 s) must be less than max (0.005 s)" \
  mpiexec -n 2 "$COMM" --memory-per-proc 1MiB --target-window 0.005,0.005 --output result.json
expect_fail 2 "--target-window min (0.01 s) must be less than max (0.001 s)" \
  mpiexec -n 2 "$COMM" --memory-per-proc 1MiB --target-window 0.01,0.001 --output result.json
# A result from before stays as it was.
echo '{"kept": true}' > result.json
rc=0; mpiexec -n 1 "$COMM" --memory-per-proc 1MiB --output result.json 2>/dev/null || rc=$?
[[ $rc -eq 2 && "$(cat result.json)" == '{"kept": true}' ]] || fail "a refused run touched result.json"

"$COMM" --describe --nprocs 33 > describe.txt
for label in '16\*2&+1' '8\*4&+1' '4\*8&+1' '2\*16&+1' 'ring5:1\*33' 'ring6:1\*33'; do
  grep -q "$label" describe.txt || fail "--describe --nprocs 33 lacks $label: $(cat describe.txt)"
done
echo "bad input: ok"
