#!/usr/bin/env bash
# slurmctld stopped and restarted while `pbench wait` follows a sweep: the failing squeue calls
# are retried, wait says the scheduler is unreachable meanwhile, resumes when it answers and
# the sweep completes. A controller that stays away longer than --scheduler-outage ends the
# wait with a clear error (exit 5); once it is back, waiting again finishes the sweep.
source "$(dirname "$0")/common.sh"
controller="$lab/controller"
trap '"$controller" start > /dev/null 2>&1 || true; rm -rf "$work"' EXIT

# Slurm's clients retry a stopped controller for MessageTimeout (10 s by default) before they
# fail; pbench and its jobs use a copy of the lab's configuration with 2 s, so a short outage
# gives several failed polls. The daemons keep the lab's own configuration.
sed 's/^MinJobAge=/MessageTimeout=2\nMinJobAge=/' "$SLURM_CONF" > slurm.conf
grep -q '^MessageTimeout=2$' slurm.conf || fail "could not make the client configuration"
export SLURM_CONF="$work/slurm.conf"

# Jobs that stay 8 s after their worker ends: the controller goes away while they run, but
# not while the worker starts (mpiexec's srun needs slurmctld to start its job step, and after
# an outage Slurm's own retries may hold it back for minutes).
awk '{ print } /^\{\{command\}\}$/ { print "pbench_status=$?; sleep 8; exit $pbench_status" }' \
  "$here/../../../jobtemplates/job.sh" > slow.sh
grep -q "sleep 8" slow.sh || fail "could not make the test template"
workers_done() {  # NAME COUNT: until COUNT workers of sweep NAME have written their result
  for _ in $(seq 300); do
    [[ $(ls runs/"$1"/points/*/attempt-1/result.json 2> /dev/null | wc -l) -eq $2 ]] && return 0
    sleep 0.2
  done
  fail "the workers of $1 did not finish: $(point_states "$1")"
}

# A brief outage: the sweep completes.
"$PBENCH" sweep out --scheduler slurm --share-nodes --partitions 1,2 --queue-depths 1 --template slow.sh \
  "${SMALL[@]}" > /dev/null
"$PBENCH" submit out --max-parallel 2 > /dev/null
workers_done out 2
"$PBENCH" wait out --timeout 240 > wait.out 2> wait.err &
wait_pid=$!
"$controller" stop
sleep 10
grep -q "scheduler unreachable for [0-9]* s (gives up after 600 s): slurm: squeue failed: .*Unable to contact slurm controller" \
  wait.err || fail "wait does not say the scheduler is unreachable: $(cat wait.err)"
"$controller" start
rc=0
wait "$wait_pid" || rc=$?
[[ $rc -eq 0 ]] || fail "wait exited $rc after the outage: $(tail -3 wait.err)"
[[ $(point_states out | tr '\n' ' ') == "1:done 2:done " ]] || fail "states: $(point_states out)"
grep -q "scheduler unreachable" runs/out/driver.log && grep -q "the scheduler answers again" \
  runs/out/driver.log || fail "the driver's log: $(cat runs/out/driver.log)"
[[ ! -e runs/out/scheduler-unavailable ]] || fail "the outage is still noted"
"$PBENCH" collect out | grep "2 results stored" >/dev/null || fail "collect after the outage"

# An outage longer than the budget (8 s): a clear error, first from the background driver,
# then from wait, which takes over; nothing is lost.
"$PBENCH" sweep gone --scheduler slurm --share-nodes --partitions 2 --queue-depths 1 --template slow.sh \
  "${SMALL[@]}" > /dev/null
"$PBENCH" --scheduler-outage 8 submit gone > /dev/null
workers_done gone 1
"$controller" stop
rc=0
"$PBENCH" --scheduler-outage 8 wait gone > gone.out 2> gone.err || rc=$?
message="the scheduler has been unreachable for [0-9]* s, longer than the outage budget of 8 s (--scheduler-outage); last failure: slurm: squeue failed: .*Unable to contact slurm controller"
[[ $rc -eq 5 ]] || fail "wait exited $rc, expected 5: $(cat gone.err)"
grep -q "^pbench: scheduler error: $message" gone.err || fail "unclear error: $(tail -2 gone.err)"
grep -q "^pbench: scheduler error: $message" runs/gone/driver.log \
  || fail "the background driver did not give up: $(cat runs/gone/driver.log)"
# The driver's own account: it gave up once the outage had lasted longer than the budget (how
# soon after is the poll interval's matter, not asserted against the clock).
unreachable=$(sed -n 's/.*has been unreachable for \([0-9]*\) s.*/\1/p' gone.err | head -1)
((unreachable >= 8)) || fail "wait gave up after an outage of $unreachable s, within its budget of 8 s"
"$controller" start
"$PBENCH" wait gone --timeout 120 > /dev/null 2>&1 || fail "waiting again: $(point_states gone)"
[[ $(point_states gone) == "2:done" ]] || fail "states: $(point_states gone)"
echo "scheduler outage: ok"
