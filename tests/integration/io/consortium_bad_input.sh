#!/usr/bin/env bash
# Consortium bad input: one clear line naming the problem, exit status 2, no result, no files.
source "$(dirname "$0")/common.sh"
C=(--suite consortium --output result.json)
expect_fail "--transfer-size: 8192 B is larger than the block (4096 B)" \
  mpiexec -n 2 "$PBENCH_IO" "${C[@]}" --transfer-size 8192 --block-size 4096
expect_fail "--block-size: 4500 B is not a multiple of the 1000 B transfer" \
  mpiexec -n 2 "$PBENCH_IO" "${C[@]}" --pattern strided --transfer_size 1000 --block_size 4500
# 2 processes x 1000 B + 10 B padding: a stride of 2010 B.
expect_fail "--header-bytes: 2011 B is larger than a stride (2010 B)" \
  mpiexec -n 2 "$PBENCH_IO" "${C[@]}" --pattern strided --transfer-size 500 \
  --block-size 1000 --segment-count 2 --padding 10 --header-bytes 2011
expect_fail "--segment_count: '0' is outside the range 1 to 1000000000000" \
  mpiexec -n 2 "$PBENCH_IO" "${C[@]}" --pattern strided --segment-count 0
expect_fail "--block_size: '0' is outside the range 1 to 1125899906842624" \
  mpiexec -n 2 "$PBENCH_IO" "${C[@]}" --block-size 0
expect_fail "--suite: 'ior' is not a suite" mpiexec -n 2 "$PBENCH_IO" --suite ior --output result.json
expect_fail "--pattern: 'tiled' is not a pattern" \
  mpiexec -n 2 "$PBENCH_IO" "${C[@]}" --pattern tiled
expect_fail "--filename: 'a/b' is not a plain file name" \
  mpiexec -n 2 "$PBENCH_IO" "${C[@]}" --filename a/b
expect_fail "--iterations: '0' is outside the range 1 to 1000000" mpiexec -n 2 "$PBENCH_IO" "${C[@]}" --iterations 0
expect_fail "--api: 'hdf5' is not an I/O interface" mpiexec -n 2 "$PBENCH_IO" "${C[@]}" --api hdf5
expect_fail "--collective: collective calls need --api mpiio" \
  mpiexec -n 2 "$PBENCH_IO" "${C[@]}" --api posix --collective 1
expect_fail "--block_size: '4x' is not a size (a number of bytes, or with a unit: B, k/M/G/T or kB/MB/GB/TB" \
  mpiexec -n 2 "$PBENCH_IO" "${C[@]}" --block-size 4x
# Sizes take units: 8KiB is 8192 B, larger than the 4 KiB block.
expect_fail "--transfer-size: 8192 B is larger than the block (4096 B)" \
  mpiexec -n 2 "$PBENCH_IO" "${C[@]}" --transfer-size 8KiB --block-size 4KiB
no_benchmark_files
echo "consortium bad input: ok"
