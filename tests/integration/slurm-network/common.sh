# Shared by the slurm-network tests: the orchestrator tests' scratch directory and helpers, and
# the networked lab (env.sh), which the "slurm network: lab up" fixture started; where the
# machine does not allow it, the test is skipped (77) with up's reason.
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
source "$here/env.sh"
source "$here/../orchestrator/common.sh"
source "$here/../lib/sbatch_wait.sh"
lab="$here/../../slurm-lab"
lab_env=$("$lab/up" "${lab_up_args[@]}") || {
  status=$?
  [[ $status -eq 77 ]] && { echo "skipped: the networked lab cannot run here (see above)"; exit 77; }
  fail "tests/slurm-lab/up ${lab_up_args[*]} failed ($status)"
}
eval "$lab_env"
export SLURM_CONF
# Payload share of the wire at MTU 1500 as tbf counts it: 1448 bytes of TCP payload (1500 minus
# 20 IP, 20 TCP and 12 timestamp-option bytes) per 1514 bytes (plus the 14-byte Ethernet header).
PAYLOAD_SHARE=$("$PY" -c 'print(1448 / 1514)')

# run_job NAME SBATCH-OPTIONS... : runs NAME.sh (already written) as a batch job and waits.
run_job() {
  local name=$1
  shift
  sbatch_wait -o "$work/$name.out" "$@" "$work/$name.sh" > /dev/null ||
    fail "job $name failed: $(tail -20 "$work/$name.out")"
}
# shape SPEC...: sets link rates of the running lab (tests/slurm-lab/shape).
shape() { "$lab/shape" "$@" >/dev/null 2>&1 || fail "shape $* failed: $("$lab/shape" "$@" 2>&1)"; }
