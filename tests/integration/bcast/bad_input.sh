#!/usr/bin/env bash
# Bad inputs to pbench-bcast: a clear one-line error naming the problem, exit status 2, and no
# result document written.
source "$(dirname "$0")/common.sh"

expect_fail 2 "--sizes: '8,,16': element 2 is empty" "$WORKER" --sizes 8,,16 --output r.json
expect_fail 2 "--sizes: '8,1q': element 2 '1q' is not a size" \
  "$WORKER" --sizes 8,1q --output r.json
expect_fail 2 "--sizes: no size given" "$WORKER" --sizes '' --output r.json
expect_fail 2 "--sizes: 0 is not a message size" "$WORKER" --sizes 8,0 --output r.json
expect_fail 2 "--sizes: 256 appears twice" "$WORKER" --sizes 256,8,256 --output r.json
expect_fail 2 "--sizes: 2147483648 B exceeds the largest message" \
  "$WORKER" --sizes 2147483648 --output r.json
expect_fail 2 "--sizes: '8,x': element 2 'x'" env PBENCH_SIZES=8,x "$WORKER" --output r.json
expect_fail 2 "--impl: unknown implementation 'ring' (known: mpi, linear, backward, binomial)" \
  "$WORKER" --impl ring --output r.json
expect_fail 2 "--root: '-1' is outside the range 0 to 10000000" "$WORKER" --root -1 --output r.json
expect_fail 2 "--root" "$WORKER" --root abc --output r.json
expect_fail 2 "--root-order: 'sideways' is neither forward nor backward" \
  "$WORKER" --root-order sideways --output r.json
expect_fail 2 "--hop-delay-us: a synthetic delay applies to the worker's own implementations" \
  "$WORKER" --hop-delay-us 100 --output r.json
expect_fail 2 "--hop-delay-us: '-5' is outside the range 0 to 10000000" "$WORKER" --impl linear --hop-delay-us -5 --output r.json
expect_fail 2 "--repetitions: '0' is outside the range 1 to 10000000" "$WORKER" --repetitions 0 --output r.json
expect_fail 2 "--max-measurements: '1' is outside the range 2 to 1000000" "$WORKER" --max-measurements 1 --output r.json
expect_fail 2 "--method: 'fast' is none of sync, oli, auto" "$WORKER" --method fast --output r.json
expect_fail 2 "--check-tasks: '-1' is outside the range 0 to 1000000" "$WORKER" --check-tasks -1 --output r.json
expect_fail 2 "--agreement-band: 0 is not a fraction" "$WORKER" --agreement-band 0 --output r.json
expect_fail 2 "--classic-sample: '0' is outside the range 1 to 1000000" "$WORKER" --classic-sample 0 --output r.json
expect_fail 2 "--clock-error-bound-us: 0 is not a bound" \
  "$WORKER" --clock-error-bound-us 0 --output r.json
expect_fail 2 "--clock-fit-seconds: '100' is outside the range 0 to 60" \
  "$WORKER" --clock-fit-seconds 100 --output r.json
expect_fail 2 "--max-missed-share: '2' is outside the range 0 to 1" \
  "$WORKER" --max-missed-share 2 --output r.json
expect_fail 2 "--bogus" "$WORKER" --bogus 1 --output r.json
# Only known once MPI runs: the root must be one of the processes (every rank stops alike).
expect_fail 2 "--root: 2 is not a rank of 2 processes (must be < 2)" \
  mpiexec -n 2 "$WORKER" --root 2 --output r.json
expect_fail 2 "--root: 3 is not a rank of 3 processes" \
  mpiexec -n 3 "$WORKER" --impl binomial --root 3 --output r.json
echo "bcast bad input: ok"
