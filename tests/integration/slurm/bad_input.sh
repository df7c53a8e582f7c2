#!/usr/bin/env bash
# Bad input for the batch schedulers: a clear one-line error, a non-zero exit, and points that
# stay planned (a refused submission shows Slurm's own message; a missing command is named).
source "$(dirname "$0")/common.sh"

expect_fail 2 "partition 8 needs 8 processes, but --nodes 1 x --procs-per-node 4 gives only 4" \
  "$PBENCH" sweep b1 --scheduler slurm --partitions 2,8 --nodes 1 --procs-per-node 4
expect_fail 2 "--nodes applies to a batch scheduler (--scheduler slurm or pbs), not local" \
  "$PBENCH" sweep b1 --nodes 2
expect_fail 2 "--time-limit: '1h' is not a time limit" \
  "$PBENCH" sweep b1 --scheduler slurm --time-limit 1h
expect_fail 2 "--account: 'a b' is not an account name" \
  "$PBENCH" sweep b1 --scheduler pbs --account 'a b'
expect_fail 2 "unknown launcher 'aprun' (known: mpiexec, mpirun, srun, custom)" \
  "$PBENCH" sweep b1 --scheduler slurm --launcher aprun
# A sweep file is read and validated like the command line; --dry-run shows what it expands to.
cat > sweep.toml <<'EOT'
partitions = [2]
queue_depths = [1, 8]
[settings.logp]
eel_roundtrips = 500
[scheduler]
name = "slurm"
queue = "lab"
time_limit = "7"
EOT
"$PBENCH" sweep f --spec sweep.toml --dry-run > dry.txt
[[ $(grep -c '^#SBATCH --time=00:07:00$' dry.txt) -eq 2 ]] || fail "dry run of the sweep file: $(cat dry.txt)"
grep -q -- "--eel-roundtrips=500" dry.txt || fail "the sweep file's settings are not in the scripts"
expect_fail 2 "--partitions cannot be combined with --spec (write it in the sweep file)" \
  "$PBENCH" sweep f --spec sweep.toml --partitions 4
printf '[scheduler]\nname = "slurm"\nnodes = 4\n' > bad.toml
expect_fail 2 "--nodes 4 is more than partition 1 has processes" "$PBENCH" sweep f --spec bad.toml
[[ ! -e "$PBENCH_DB" ]] || fail "a refused sweep created the store"

# Slurm refuses the submission: its message is shown and the point stays planned.
for scheduler in slurm pbs; do
  "$PBENCH" sweep "q-$scheduler" --scheduler "$scheduler" --queue nosuchqueue --partitions 2 \
    --queue-depths 1 > /dev/null
  expect_fail 5 "invalid partition specified: nosuchqueue" "$PBENCH" submit "q-$scheduler"
  [[ $(point_states "q-$scheduler") == "2:planned" ]] || fail "$scheduler: $(point_states "q-$scheduler")"
  [[ $(sqlite3 "$PBENCH_DB" "select count(*) from attempts where job_id is not null") -eq 0 ]] \
    || fail "$scheduler: a refused submission got a job id"
done

# Without the scheduler's commands the error names the command and points to the lab (the
# launcher is there: a missing one is refused before, by the launch check, trust: launch_preflight).
mkdir empty-path
ln -s "$(command -v mpiexec)" empty-path/mpiexec
"$PBENCH" sweep m --scheduler slurm --partitions 1 --queue-depths 1 > /dev/null
expect_fail 5 \
  "slurm: command 'sbatch' not found on PATH; on a machine without slurm, start the local lab" \
  env PATH="$work/empty-path" "$PBENCH" submit m --foreground
[[ $(point_states m) == "1:planned" ]] || fail "missing sbatch: $(point_states m)"
# A bad PBENCH_POLL_MAX is named before anything is submitted, by submit, run and wait.
for command in "submit m --foreground" "wait m" "run r --scheduler slurm --partitions 1 --queue-depths 1"; do
  # shellcheck disable=SC2086
  expect_fail 2 "PBENCH_POLL_MAX 'fast' is not a number of seconds from 0.2 to 3600" \
    env PBENCH_POLL_MAX=fast "$PBENCH" $command
done
[[ $(point_states m) == "1:planned" && $(point_states r) == "1:planned" ]] \
  || fail "bad PBENCH_POLL_MAX: $(point_states m) $(point_states r)"
echo "bad input: ok"
