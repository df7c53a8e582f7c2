"""A simulated Slurm of 10,000 nodes for bench/scale_sim.sh: stand-ins for squeue, scancel and
sacct (`fake_slurm.py COMMAND ARGS...`; sbatch is bench/lib/fake_sbatch.sh), which count their calls and make every job
end with the result a worker would have written, so that pbench's own cost at a scale no lab has
can be measured: submission, polling, ingest, queries and report.

State lives in $FAKE_SLURM_DIR: `calls` (one line per call: the command and, for squeue, how
many job ids it asked for), `submitted` (id|chdir|script|array per sbatch), `seen` (job ids
already polled once) and `seeds/<worker>.json` (one real result per worker, from a real run on
2 processes). A job is RUNNING the first time squeue is asked about it (its result, job.env and
exit marker are written then, as if it ran) and COMPLETED from the next poll on.

A result is its worker's seed relabelled: nprocs, procs_per_node, hosts and rank_hosts of the
job's partition and nodes (node names n00001..n10000, one process per node for a plain
partition), the arguments of its job script's launch line, the origin its job gives
(sweep, point, attempt, nonce), and distinct start and end times. Its measured figures and
tables stay the seed's (2 processes): the simulation counts per point, not per rank.
"""
import json
import os
import re
import shlex
import sys

state = os.environ["FAKE_SLURM_DIR"]
command = sys.argv[1]
args = sys.argv[2:]
NODES = 10000


def log(line):
    with open(os.path.join(state, "calls"), "a") as out:
        out.write(line + "\n")


def lines_of(path):
    try:
        with open(path) as f:
            return [l.rstrip("\n") for l in f if l.strip()]
    except FileNotFoundError:
        return []


def node_name(i):
    return "n%05d" % i


def script_facts(script):
    """The worker, its arguments, the partition and shape, sweep and point of a job script."""
    facts = {"nodes": None, "ppn": None}
    for line in open(script):
        words = line.strip()
        if words.startswith("#"):
            continue
        if words.startswith("export PBENCH_SWEEP="):
            parts = dict(w.split("=", 1) for w in shlex.split(words)[1:])
            facts["sweep"], facts["point"] = parts["PBENCH_SWEEP"], parts["PBENCH_POINT"]
        elif words.startswith("export PBENCH_PARTITION="):
            facts["partition"] = int(shlex.split(words)[1].split("=", 1)[1])
        elif words.startswith("pbench_nodes="):
            parts = dict(w.split("=", 1) for w in shlex.split(words))
            if parts.get("pbench_nodes"):
                facts["nodes"] = int(parts["pbench_nodes"])
                facts["ppn"] = int(parts["pbench_procs_per_node"])
        elif "--output" in words:
            tokens = shlex.split(words)
            if "--output" not in tokens:
                continue
            at = next(i for i, w in enumerate(tokens) if os.path.basename(w).startswith("pbench-"))
            facts["worker"] = os.path.basename(tokens[at])[len("pbench-"):]
            facts["arguments"] = tokens[at + 1:]
            facts["output"] = tokens[tokens.index("--output") + 1]
    return facts


def run_job(job_dir, script, serial):
    """Writes what the job's worker and script would have: job.env, the result, exit.json."""
    facts = script_facts(script)
    processes = facts["partition"]
    if facts["nodes"]:
        nodes, ppn = facts["nodes"], facts["ppn"]
    else:
        nodes, ppn = min(processes, NODES), -(-processes // min(processes, NODES))
    names = [node_name(i + 1) for i in range(nodes)]
    node_list = "n[%s-%s]" % (names[0][1:], names[-1][1:]) if nodes > 1 else names[0]
    nonce = "%032x" % (serial * 7919 + 17)
    with open(os.path.join(job_dir, "job.env"), "wb") as out:
        for name, value in (("PBENCH_HOST", names[0]), ("PBENCH_NODE_LIST", node_list),
                            ("PBENCH_NONCE", nonce), ("SLURM_JOB_NODELIST", node_list)):
            out.write(f"{name}={value}\0".encode())
    doc = json.load(open(os.path.join(state, "seeds", facts["worker"] + ".json")))
    doc["nprocs"] = processes
    doc["procs_per_node"] = ppn
    doc["hosts"] = names
    doc["rank_hosts"] = [names[r // ppn] for r in range(processes)]
    doc["arguments"] = facts["arguments"]
    doc["origin"] = {"sweep": facts["sweep"], "point": facts["point"],
                     "attempt": os.path.basename(job_dir.rstrip("/")), "nonce": nonce}
    # Distinct documents: the milliseconds of the times moved by the job's serial number.
    for key in ("started_at", "ended_at"):
        stamp = doc[key]
        doc[key] = stamp[:-4] + "%03dZ" % ((int(stamp[-4:-1]) + serial) % 1000)
    output = facts["output"]
    if not os.path.isabs(output):
        output = os.path.join(job_dir, output)
    with open(output, "w") as out:
        json.dump(doc, out)
    with open(os.path.join(job_dir, "exit.json"), "w") as out:
        json.dump({"status": 0, "signal": "", "signal_source": "", "reason": "",
                   "started_at": doc["started_at"], "ended_at": doc["ended_at"]}, out)


def jobs_of(record):
    """The (id, job_dir, script) of one sbatch: the job, or each element of a job array."""
    job_id, chdir, script, array = record.split("|")
    if not array:
        return [(job_id, chdir, script)]
    out = []
    for line in open(script):
        m = re.match(r"\s*(\d+)\) (.*) ;;$", line)
        if m:
            words = shlex.split(m.group(2).split(" >>")[0])
            # cd DIR && exec bash SCRIPT
            out.append((f"{job_id}_{m.group(1)}", words[1], words[-1]))
    return out


def squeue():
    ids = args[args.index("-j") + 1].split(",") if "-j" in args else []
    log(f"squeue {len(ids)}")
    seen_path = os.path.join(state, "seen")
    seen = set(lines_of(seen_path))
    known = {}
    for serial, record in enumerate(lines_of(os.path.join(state, "submitted"))):
        for index, (job_id, job_dir, script) in enumerate(jobs_of(record)):
            known[job_id] = (job_dir, script, serial * 100000 + index)
    out, newly = [], []
    for job_id in ids:
        if job_id not in known:
            continue
        if job_id in seen:
            out.append(f"{job_id}|COMPLETED|None")
        else:
            job_dir, script, serial = known[job_id]
            run_job(job_dir, script, serial)
            newly.append(job_id)
            out.append(f"{job_id}|RUNNING|None")
    with open(seen_path, "a") as f:
        for job_id in newly:
            f.write(job_id + "\n")
    if not out:
        print("slurm_load_jobs error: Invalid job id specified", file=sys.stderr)
        sys.exit(1)
    print("\n".join(out))


if command == "squeue":
    squeue()
elif command == "scancel":
    log("scancel")
else:
    log(command)
    print(f"{command}: not simulated", file=sys.stderr)
    sys.exit(1)
