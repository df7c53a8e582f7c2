#!/usr/bin/env bash
# Every worker refuses to measure when started as other processes than its job launched
# (PBENCH_PARTITION, which every job script exports): fewer ranks than asked, singletons (each a
# world of 1, what a launcher whose PMI does not match the MPI library starts), more ranks, and a
# value that is not a count. Each exits 2 at once, before measuring, with one error naming the
# likely cause, and writes no result.
SCRATCH_NAME=pbench-trust source "$(dirname "$0")/../lib/workers.sh"

# refuses CODE 'MESSAGE' OUTPUT command...: the command exits CODE, says MESSAGE, writes nothing.
refuses() {
  local code=$1 message=$2 output=$3
  shift 3
  local rc=0
  "$@" > out.txt 2> err.txt || rc=$?
  [[ $rc -eq $code ]] || fail "'$*' exited $rc, expected $code: $(cat err.txt)"
  grep -qF "$message" err.txt || fail "'$*' did not say '$message': $(cat err.txt)"
  [[ ! -e $output ]] || fail "'$*' wrote a result"
}
fewer="but this worker's MPI world has 1 process: the launcher started singletons or fewer processes than asked. Likely causes: a launcher whose PMI does not match the MPI library"
for w in logp comm io bcast; do
  bin=${WORKER[$w]}
  PBENCH_PARTITION=2 refuses 2 "pbench-$w: error: launch: the job launches partition 2 (PBENCH_PARTITION), $fewer" \
    "$w.json" mpiexec -n 1 "$bin" --output "$w.json"
  [[ $(grep -c "error: launch:" err.txt) -eq 1 ]] || fail "$w: more than one error line: $(cat err.txt)"
  # Two singletons, each started without a launcher: each refuses.
  rc1=0 rc2=0
  PBENCH_PARTITION=2 "$bin" --output "$w-1.json" > s1.txt 2>&1 &
  first=$!
  PBENCH_PARTITION=2 "$bin" --output "$w-2.json" > s2.txt 2>&1 || rc2=$?
  wait "$first" || rc1=$?
  [[ $rc1 -eq 2 && $rc2 -eq 2 ]] || fail "$w singletons exited $rc1 and $rc2: $(cat s1.txt s2.txt)"
  grep -qF "$fewer" s1.txt && grep -qF "$fewer" s2.txt || fail "$w singletons said: $(cat s1.txt s2.txt)"
  [[ ! -e $w-1.json && ! -e $w-2.json ]] || fail "$w: a singleton wrote a result"
  PBENCH_PARTITION=1 refuses 2 "but this worker's MPI world has 2 processes: the launch line starts more processes than the partition" \
    "$w.json" mpiexec -n 2 "$bin" --output "$w.json"
  PBENCH_PARTITION=two refuses 2 "launch: PBENCH_PARTITION='two' is not a number of processes" \
    "$w.json" mpiexec -n 1 "$bin" --output "$w.json"
done
echo "worker launch check: ok"
