#!/usr/bin/env bash
# A lab stopped without `down` (a killed session, a reboot: every daemon and the jobs' processes
# gone at once) and started again: `up` cancels the jobs its controller recovers from the state
# as still running, so the nodes are idle and take new jobs. Without that, slurmctld keeps the
# dead job's nodes allocated until its time limit (seen in CI: a four-node lab started with two
# nodes allocated by a job of the session before). A lab of its own (own directory and port),
# so the shared lab of the other Slurm tests is never killed.
set -euo pipefail
fail() { echo "FAIL: $*" >&2; exit 1; }
lab="$(cd "$(dirname "$0")/../../slurm-lab" && pwd)"
work=$(mktemp -d "${TMPDIR:-/tmp}/pbench-lab-restart.XXXXXX")
export PBENCH_SLURM_LAB_DIR=$work/lab
export PBENCH_SLURM_LAB_PORT=$((${PBENCH_SLURM_LAB_PORT:-6817} + 20))
cleanup() {
  pkill -KILL -f "sleep 4242\.5" 2>/dev/null || true
  "$lab/down" --purge > /dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT
# munged's socket lives below it: every directory on the way must be searchable by all.
chmod 0755 "$work"
cd "$work"

# alive PID: the process exists and is not a zombie (nothing reaps daemons here).
alive() { [[ -r /proc/$1/stat && $(awk '{print $3}' "/proc/$1/stat") != Z ]]; }

# kill_lab: the controller stops (it saves its state, as it does every few seconds anyway: a
# SIGKILL right after a submission would lose the job instead), then the node daemon, munged
# and the job's processes are killed at once, nothing cleaned up.
kill_lab() {
  local name pids=() ctl
  ctl=$(cat "$PBENCH_SLURM_LAB_DIR/run/slurmctld.pid")
  scontrol shutdown slurmctld > /dev/null || fail "scontrol shutdown slurmctld failed"
  for _ in $(seq 100); do
    alive "$ctl" || break
    sleep 0.1
  done
  for name in munged slurmctld slurmd; do
    [[ -s "$PBENCH_SLURM_LAB_DIR/run/$name.pid" ]] && pids+=("$(cat "$PBENCH_SLURM_LAB_DIR/run/$name.pid")")
  done
  [[ -s job.pids ]] && read -ra job_pids < job.pids && pids+=("${job_pids[@]}")
  pkill -KILL -f "sleep 4242\.5" 2>/dev/null || true
  kill -KILL "${pids[@]}" 2>/dev/null || true
  for _ in $(seq 50); do
    local still=""
    for pid in "${pids[@]}"; do
      alive "$pid" && still=1
    done
    [[ -z "$still" ]] && return 0
    sleep 0.1
  done
  fail "the lab's processes did not die: ${pids[*]}"
}

env=$("$lab/up") || fail "up failed"
eval "$env"
export SLURM_CONF
node=$(sinfo -h -o '%N')
# A job that runs until the lab dies: its batch shell and its slurmstepd (the shell's parent).
cat > long.sh <<'SH'
#!/bin/bash
echo "$$ $PPID" > job.pids.new && mv job.pids.new job.pids
exec sleep 4242.5
SH
job=$(sbatch --parsable -t 60 -D "$work" -o /dev/null long.sh)
for _ in $(seq 150); do
  [[ -s job.pids ]] && break
  sleep 0.2
done
[[ -s job.pids ]] || fail "job $job did not start: $(squeue -h -j "$job")"
[[ $(sinfo -h -o '%T') == @(allocated|mixed) ]] || fail "the node is not allocated to job $job: $(sinfo)"

kill_lab
out=$("$lab/up" 2>&1) || fail "up after the kill failed: $out"
eval "$(grep '^export ' <<< "$out")"
[[ -z $(squeue -h) ]] || fail "jobs left after up: $(squeue)"
[[ $(sinfo -h -o '%T') == idle ]] || fail "the node is not idle after up: $(sinfo)"
[[ "$out" == *"cancelling jobs left by a lab stopped without down: $job"* ]] \
  || fail "up did not say it cancelled job $job: $out"
[[ $(scontrol show job "$job" 2>/dev/null | grep -o 'JobState=[A-Z]*') == JobState=CANCELLED ]] \
  || fail "job $job is not cancelled: $(scontrol show job "$job" 2>&1)"
# The lab takes new jobs at once, on the node the dead job held.
[[ $(timeout 60 srun -n1 -w "$node" echo ran) == ran ]] || fail "a new job did not run after up"

# A lab that is running is left alone: up cancels nothing.
job=$(sbatch --parsable -t 60 -D "$work" -o /dev/null long.sh)
for _ in $(seq 150); do
  [[ -n $(squeue -h -j "$job" -t RUNNING) ]] && break
  sleep 0.2
done
out=$("$lab/up" 2>&1) || fail "up on the running lab failed: $out"
[[ "$out" != *cancelling* ]] || fail "up cancelled the jobs of a running lab: $out"
[[ -n $(squeue -h -j "$job" -t RUNNING) ]] || fail "job $job of the running lab did not survive up"
scancel "$job"
echo "a lab stopped without down comes back with idle nodes: ok"
