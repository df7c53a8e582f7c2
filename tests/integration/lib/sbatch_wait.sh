# sbatch_wait [--limit SECONDS] SBATCH-ARGUMENTS...: what `sbatch --parsable --wait` does (submits
# the job, prints its id, waits for it to end, fails unless it completed with exit code 0), but
# it asks the controller every 0.2 s: sbatch --wait sleeps 2, 8, then 32 s between its looks,
# so a job that ended after 12 s was seen at 42 s (each of bcast_sync's two jobs took 42 s so).
# --limit: cancel the job and return 124 when it has not ended within SECONDS (as `timeout`).
# The lab keeps ended jobs for MinJobAge (an hour), so scontrol still shows an ended one.
sbatch_wait() {
  local limit=0 id info state code
  if [[ $1 == --limit ]]; then
    limit=$2
    shift 2
  fi
  id=$(sbatch --parsable "$@") || return 1
  id=${id%%;*}
  echo "$id"
  local started=$SECONDS
  while :; do
    info=$(scontrol -o show job "$id" 2> /dev/null) || info=""
    state=$(sed -n 's/.* JobState=\([A-Z_]*\) .*/\1/p' <<< "$info")
    case $state in
      COMPLETED | FAILED | CANCELLED | TIMEOUT | NODE_FAIL | OUT_OF_MEMORY | PREEMPTED | BOOT_FAIL | DEADLINE)
        break ;;
    esac
    if ((limit > 0 && SECONDS - started >= limit)); then
      scancel "$id" 2> /dev/null || true
      return 124
    fi
    sleep 0.2
  done
  [[ $state == COMPLETED ]] && return 0
  code=$(sed -n 's/.* ExitCode=\([0-9]*\):.*/\1/p' <<< "$info")
  ((${code:-0} != 0)) && return "$code"
  return 1
}
