#!/usr/bin/env bash
# pbench job script for the scheduler {{scheduler}}, rendered by pbench from its one job template
# (jobtemplates/job.sh): every substituted value is shell-quoted, but the scheduler's directives
# and lines, which it quotes itself.
# Sweep {{sweep}}, point {{point_key}}: {{worker}} on {{partition}} processes.
{{directives}}
set -u
# The job runs in its attempt directory: its scheduler starts it there (local, sbatch --chdir),
# or its first lines go there (PBS starts it in $PBS_O_WORKDIR or the home directory).
{{start}}
pbench_now() { date -u +%Y-%m-%dT%H:%M:%S.%3NZ; }
pbench_started=$(pbench_now)
pbench_start_s=$(date +%s)
pbench_time_limit_s={{time_limit_seconds}}
pbench_signal=""
pbench_signal_source=""  # job: this script was signalled; command: its command was
# The exit marker: status, signal and times, written however the job ends (but SIGKILL of
# this shell itself, which the scheduler sees as a vanished job). A TERM once the time limit has
# passed is the batch system's time-limit kill ("reason": "time_limit"), which a scheduler that
# shows every finished job alike cannot tell from a cancel.
pbench_on_exit() {
  local status=$? reason=""
  if [[ -z "$pbench_signal" && $status -gt 128 ]]; then
    pbench_signal=$(kill -l $((status - 128)) 2>/dev/null || true)
    pbench_signal_source=command
  fi
  if [[ "$pbench_signal" == TERM ]] && ((pbench_time_limit_s > 0)) &&
    (($(date +%s) - pbench_start_s >= pbench_time_limit_s)); then
    reason=time_limit
  fi
  # A full or read-only runs directory: said with the path (pbench then reports the point
  # "failed: exit marker unreadable (disk full?)").
  if ! { printf '{"status": %d, "signal": "%s", "signal_source": "%s", "reason": "%s", "started_at": "%s", "ended_at": "%s"}\n' \
    "$status" "$pbench_signal" "$pbench_signal_source" "$reason" "$pbench_started" "$(pbench_now)" \
    >exit.json.tmp && mv -f exit.json.tmp exit.json; }; then
    echo "pbench job: cannot write the exit marker '$PWD/exit.json' (a full or read-only runs directory?)" >&2
  fi
}
trap pbench_on_exit EXIT
# The command runs in the background (below) and the script waits for it, so that a TERM or INT
# is acted on at once, not when the command returns: a launcher that is starting may not pass it
# on (Hydra's mpiexec then runs its ranks to their end), and ranks in sessions of their own
# (Hydra's) are outside the job's process group that the local scheduler signals. So under the
# local scheduler the trap sends TERM to every process of the job on this host: the command's
# tree (/proc's lists of children) and those that left it (orphaned when their parent died
# first, as the subshell that runs the command does at the group's TERM), found by the attempt's
# nonce in their environment. Pids once seen are kept; they get 2-3 s (by the shell's whole
# SECONDS), then what is left is killed. TERM for an INT too: a command started in the background
# ignores INT.
pbench_child="" pbench_scheduler={{scheduler}}
pbench_tree() {  # the descendants of a process (builtins only: no helper process of its own)
  local file pid kids
  for file in /proc/"$1"/task/*/children; do
    kids=()
    read -r -a kids 2>/dev/null <"$file" || true
    for pid in "${kids[@]}"; do
      echo "$pid"
      pbench_tree "$pid"
    done
  done
}
pbench_job_processes() {
  {
    echo "$pbench_child"
    pbench_tree "$pbench_child"
    if [[ -n "${PBENCH_NONCE:-}" ]]; then
      grep -lzsxF "PBENCH_NONCE=$PBENCH_NONCE" /proc/[0-9]*/environ | cut -d/ -f3
    fi
  } | sort -un | grep -vx "$$"
}
pbench_running() {  # a process that exists and is not a zombie
  local stat=""
  read -r stat 2>/dev/null <"/proc/$1/stat" || [[ -n "$stat" ]] || return 1
  stat=${stat##*) }
  [[ -n "$stat" && ${stat:0:1} != Z ]]
}
pbench_stop() {
  pbench_signal=$1 pbench_signal_source=job
  trap '' TERM INT
  # A batch system signals every process of its job itself (and kills them KillWait later): the
  # marker is written at once. The local scheduler sends one TERM to the script's process group.
  if [[ -n "$pbench_child" && "$pbench_scheduler" == local ]]; then
    # The trap's own helpers (grep, sort, sleep) must not carry the nonce that finds the job's
    # processes: it stays a variable of this shell, no longer exported.
    export -n PBENCH_NONCE
    local signalled=" " alive="" fresh pid until=$((SECONDS + 3))
    while :; do
      fresh=""
      for pid in $(pbench_job_processes); do
        [[ "$signalled" == *" $pid "* ]] && continue
        signalled+="$pid " fresh=1
        kill -TERM "$pid" 2>/dev/null
      done
      alive=""
      for pid in $signalled; do pbench_running "$pid" && alive+=" $pid"; done
      # Done when every process seen has ended and a last look found none new: a launcher may
      # fork a rank just before it dies, after the look that found the launcher.
      [[ -n "$alive" || -n "$fresh" ]] && ((SECONDS < until)) || break
      sleep 0.1
    done
    [[ -z "$alive" ]] || kill -KILL $alive 2>/dev/null
  fi
  exit "$2"
}
trap 'pbench_stop TERM 143' TERM
trap 'pbench_stop INT 130' INT
# The job's pid, once it traps TERM: the local scheduler's job id, which it waits for and signals.
echo $$ >job.pid.tmp && mv -f job.pid.tmp job.pid
export PBENCH_SWEEP={{sweep}} PBENCH_POINT={{point_key}}
# The attempt (its directory, attempt-N, where the job runs) and a nonce made anew by each
# attempt: the worker writes all four into its result's "origin", and pbench stores a result only
# under the attempt that made it (a document copied from another point or attempt is refused).
export PBENCH_ATTEMPT="${PWD##*/}"
PBENCH_NONCE=$(od -An -N16 -tx1 /dev/urandom 2>/dev/null | tr -d ' \n')
export PBENCH_NONCE="${PBENCH_NONCE:-$$-$pbench_start_s-$RANDOM$RANDOM}"
# The partition this job launches (and its shape NxP, where the point has one): every worker
# started as other processes than these (singletons of a launcher whose PMI does not match the
# MPI library) says so and exits before measuring (workers/common/LaunchCheck.hpp).
export PBENCH_PARTITION={{partition}}
pbench_nodes={{nodes}} pbench_procs_per_node={{procs_per_node}}
if [[ -n "$pbench_nodes" ]]; then
  export PBENCH_NODES=$pbench_nodes PBENCH_PROCS_PER_NODE=$pbench_procs_per_node
fi
# The job's end as planned: its start here plus its time limit. The worker stops before it (minus
# a margin) at a clean point and writes what it measured as a partial result, so that a job that
# runs out of time is not killed with nothing; a queued job gets the end of its own run. None
# without a time limit (0: the local scheduler's jobs).
if ((pbench_time_limit_s > 0)); then
  export PBENCH_DEADLINE=$((pbench_start_s + pbench_time_limit_s))
fi
# The site profile's lines and variables, the environment's, and the launch the worker records
# (before the envelope, so that job.env records what they set: the modules' MPI, PBENCH_ENV).
{{setup}}
# The job's side of the reproducibility envelope (job.env, NUL-separated NAME=VALUE): what ran
# where, with pbench's variables and those of the scheduler it names; pbench adds it to
# envelope.json.
pbench_sha256() { sha256sum <"$1" 2>/dev/null | cut -d' ' -f1; }
pbench_worker=$(command -v {{worker_binary}} || echo {{worker_binary}})
{
  printf 'PBENCH_HOST=%s\0' "$(hostname)"
  printf 'PBENCH_SCRIPT_SHA256=%s\0' "$(pbench_sha256 "$0")"
  printf 'PBENCH_WORKER_BINARY=%s\0' "$pbench_worker"
  printf 'PBENCH_WORKER_SHA256=%s\0' "$(pbench_sha256 "$pbench_worker")"
  printf 'PBENCH_NODE_LIST=%s\0' {{node_list}}
{{mpi_record}}
  env -0 | grep -z -E {{recorded_variables}} || true
} >job.env
pbench_command() {
{{command}}
}
pbench_command &
pbench_child=$!
wait "$pbench_child"
