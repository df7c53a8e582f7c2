#!/usr/bin/env bash
# Bad input: one clear line naming the problem, exit status 2, no result and no files.
source "$(dirname "$0")/common.sh"
expect_fail "--partitions: 3 exceeds the 2 processes" \
  mpiexec -n 2 "$PBENCH_IO" -T 1 --partitions 3 --output result.json
expect_fail "--termination: 'soon' is not a rule" \
  mpiexec -n 2 "$PBENCH_IO" --termination soon --output result.json
expect_fail "--hint: hint 'cb_nodes' is not key=value" \
  mpiexec -n 2 "$PBENCH_IO" --hint cb_nodes --output result.json
expect_fail "--hints-file: cannot read hints file 'missing.txt'" \
  mpiexec -n 2 "$PBENCH_IO" --hints-file missing.txt --output result.json
expect_fail "--dir: cannot create a directory in '$work/nowhere': No such file or directory" \
  mpiexec -n 2 "$PBENCH_IO" -T 1 --dir "$work/nowhere" --output result.json
expect_fail "--schedule-time: must be > 0" \
  mpiexec -n 1 "$PBENCH_IO" -T 0 --output result.json
expect_fail "--guard-factor: must be > 0" \
  mpiexec -n 2 "$PBENCH_IO" -T 1 --guard-factor 0 --output result.json
expect_fail "--guard-factor: '-3' is outside the range 0 to 1000" \
  mpiexec -n 1 "$PBENCH_IO" -T 1 --guard-factor -3 --output result.json
expect_fail "--test-collective-write-delay: '-1' is outside the range 0 to 3600" \
  mpiexec -n 1 "$PBENCH_IO" -T 1 --test-collective-write-delay -1 --output result.json
expect_fail "--buffer-offset: '4096' is outside the range 0 to 4095" \
  mpiexec -n 1 "$PBENCH_IO" -T 1 --buffer-offset 4096 --output result.json
expect_fail "--buffer-offset: '-16' is not a size" \
  mpiexec -n 1 "$PBENCH_IO" -T 1 --buffer-offset -16 --output result.json
# Every number has a range (issue 51): an overflowing one is refused, naming it, at once.
expect_fail "--partitions: '99999999999999999999' is outside the range 1 to 10000000" \
  mpiexec -n 1 "$PBENCH_IO" -T 1 --partitions 99999999999999999999 --output result.json
no_benchmark_files
echo "bad input: ok"
