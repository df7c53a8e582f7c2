"""Checks of a result against a known truth (a synthetic delay, a skewed clock) for the tests'
Python (bcast/hop_delay.sh, sync_truth.sh, sync_clocks.sh, slurm-nodes/bcast_sync.sh): check()
prints every check, passed or not, and keeps the failures in `problems`; the script exits 1
when there are any."""

problems = []


def check(ok, what):
    """Prints `what` after "ok" or "FAIL", and keeps it in `problems` when not `ok`."""
    print(("ok    " if ok else "FAIL  ") + what)
    if not ok:
        problems.append(what)
