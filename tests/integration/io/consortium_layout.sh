#!/usr/bin/env bash
# The consortium suite on tiny files with 2 processes: each access pattern, independent and
# collective, shared file and file per process; the kept files are checked byte by byte and the
# result recomputed by consortium_check.py (also: sustained read never reads its own data).
source "$(dirname "$0")/common.sh"
CONSORTIUM_CHECK="$(dirname "$CHECK")/consortium_check.py"

run_case() {
  local label=$1
  shift
  rm -rf pbench-io.* result.json
  mpiexec -n 2 "$PBENCH_IO" --suite consortium --keep --output result.json "$@" \
    >protocol.txt 2>&1 || fail "$label: exit $?: $(cat protocol.txt)"
  validate result.json
  "$PY" "$CONSORTIUM_CHECK" result.json pbench-io.* || fail "$label: check failed"
}

run_case "segmented, independent" --pattern segmented --transfer-size 1000 --block-size 4000
run_case "segmented, collective, header" --pattern segmented --transfer_size 1000 \
  --block_size 3000 --header_bytes 123 --collective 1
run_case "strided, padding, 2 iterations" --pattern strided --transfer-size 512 \
  --block-size 2048 --segment-count 4 --padding 300 --iterations 2
run_case "random, collective" --pattern random --transfer-size 700 --block-size 5000 \
  --segment-count 2 --random-seed 12345 --collective 1
run_case "general" --pattern general --transfer_size 333 --block_size 2000 --segment_count 3 \
  --padding 77 --header_bytes 1000
run_case "file per process, strided" --pattern strided --file_per_process 1 \
  --transfer-size 256 --block-size 1024 --segment-count 3 --padding 50 --header-bytes 10
run_case "POSIX, shared file, general" --api posix --pattern general --transfer-size 400 \
  --block-size 1500 --segment-count 2 --padding 33 --header-bytes 21
run_case "POSIX, file per process, strided" --api posix --file-per-process 1 \
  --pattern strided --transfer-size 500 --block-size 1000 --segment-count 2 --padding 5
# The environment spelling; the command line wins over it.
PBENCH_PATTERN=strided PBENCH_SEGMENT_COUNT=2 PBENCH_TRANSFER_SIZE=99999 \
  run_case "environment" --transfer-size 1000 --block-size 2000
grep -q '"pattern": *{[^}]*"source": *"environment"' result.json ||
  "$PY" -c "import json,sys; p=json.load(open('result.json'))['parameters']; \
sys.exit(0 if p['pattern']['value']=='strided' and p['transfer_size']['value']==1000 else 1)" ||
  fail "environment: PBENCH_PATTERN not used or the command line did not win"
# The random seed is recorded and replays: the same seed gives the same files.
run_case "random replay 1" --pattern random --transfer-size 300 --block-size 2000 --random-seed 7
cp pbench-io.*/consortium.sustained_write.0 first.dat
run_case "random replay 2" --pattern random --transfer-size 300 --block-size 2000 --random-seed 7
cmp -s first.dat pbench-io.*/consortium.sustained_write.0 || fail "seed 7 did not replay"
# --preallocate: the write files are made and their space reserved before the timing; the
# layout is the same (padding reads as 0), but the padding is allocated, not a hole.
allocated() { echo $(($(stat -c '%b * %B' "$1"))); }
sparse_case=(--pattern strided --transfer-size 4096 --block-size 4096 --segment-count 4
  --padding 1048576)
run_case "strided, 1 MiB padding" "${sparse_case[@]}"
holes=$(allocated pbench-io.*/consortium.sustained_write.0)
extent=$(stat -c %s pbench-io.*/consortium.sustained_write.0)
((holes < extent / 4)) || fail "without --preallocate the padding is allocated ($holes of $extent B)"
for api in mpiio posix; do
  run_case "strided, 1 MiB padding, preallocated, $api" "${sparse_case[@]}" --api "$api" \
    --preallocate 1
  for f in pbench-io.*/consortium.sustained_write.0 pbench-io.*/consortium.cached_write.0; do
    [[ $(stat -c %s "$f") == "$extent" ]] || fail "$api: $f is not $extent B long"
    (($(allocated "$f") >= extent)) || fail "$api: $f has $(allocated "$f") of $extent B allocated"
  done
  grep -q "write files preallocated" protocol.txt || fail "$api: the protocol does not say so"
done
run_case "file per process, preallocated" --pattern segmented --file-per-process 1 \
  --transfer-size 1000 --block-size 3000 --preallocate 1 --api posix
# Without --keep the files go.
rm -rf pbench-io.*
mpiexec -n 2 "$PBENCH_IO" --suite consortium --transfer-size 1000 --block-size 2000 \
  --output result.json >protocol.txt 2>&1 || fail "no --keep: $(cat protocol.txt)"
no_benchmark_files
grep -q 'not large against the cache' result.json || fail "no warning on a small data set"
echo "consortium layout: ok"
