#!/usr/bin/env python3
"""What each worker's runs cost as P grows (issue 36 item 3), from their result documents.

Usage: cost_table.py [--wall RUNS] PATH...
  PATH  a result document, or a directory searched for result.json and *.json result documents
  --wall RUNS  lines "WORKER P START END" (seconds since the epoch) from the script that ran the
        workers: the launch-to-exit time of each run, printed beside the worker's own wall time

Per worker a table of P (with the number of hosts where more than one) and the result's `cost`
as the worker counted it (point-to-point messages and bytes, collective calls, measurement-loop
passes, MPI-IO calls and bytes), each count with its ratio to the row before, and the worker's
wall time; then each count's growth law: the model among O(1), O(P), O(P log P), O(P^2),
O(P^2 log P) and O(P^3) whose constant multiple fits the counts best (least squares of the
logarithms). Shared by bench/worker_cost.sh (one run per P, local mpiexec) and
bench/card_sweep.sh (the card's sweep in the Slurm lab).
"""
import argparse
import json
import math
import os
import sys

KEYS = ["messages", "bytes", "collectives", "loops", "io_calls", "io_bytes"]
WORKERS = ["logp", "comm", "io", "bcast", "links"]
MODELS = {
    "O(1)": lambda p: 1.0,
    "O(P)": lambda p: p,
    "O(P log P)": lambda p: p * math.log2(p),
    "O(P^2)": lambda p: p * p,
    "O(P^2 log P)": lambda p: p * p * math.log2(p),
    "O(P^3)": lambda p: p**3,
}


def law(points):
    """The model whose constant multiple fits the (P, count) points best on a log scale."""
    points = [(p, v) for p, v in points if v > 0 and p > 1]
    if len({p for p, _ in points}) < 2:
        return "-"
    best = None
    for name, f in MODELS.items():
        logs = [math.log(v / f(p)) for p, v in points]
        mean = sum(logs) / len(logs)
        error = sum((x - mean) ** 2 for x in logs)
        if best is None or error < best[0]:
            best = (error, name)
    return best[1]


def documents(paths):
    for path in paths:
        if os.path.isdir(path):
            for top, _, files in sorted(os.walk(path)):
                for name in sorted(files):
                    if name.endswith(".json"):
                        yield os.path.join(top, name)
        else:
            yield path


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--wall", help="WORKER P START END lines of the runs")
    ap.add_argument("paths", nargs="+")
    a = ap.parse_args()
    launched = {}
    if a.wall:
        for line in open(a.wall):
            w, p, start, end = line.split()
            launched[(w, int(p))] = float(end) - float(start)
    rows = {w: [] for w in WORKERS}
    for path in documents(a.paths):
        try:
            doc = json.load(open(path))
        except (OSError, ValueError):
            continue
        if not isinstance(doc, dict) or doc.get("worker") not in rows or "cost" not in doc:
            continue
        hosts = len(set(doc.get("rank_hosts") or [])) or len(doc.get("hosts") or []) or 1
        rows[doc["worker"]].append((doc["nprocs"], hosts, doc["cost"]))
    # Runs a worker's launch failed to finish are listed as failed.
    for (w, p), seconds in launched.items():
        if w in rows and not any(r[0] == p for r in rows[w]):
            rows[w].append((p, 0, None))
    for worker in WORKERS:
        if not rows[worker]:
            continue
        rows[worker].sort(key=lambda r: (r[0], r[1]))
        print(f"\n{worker}")
        print(f"{'P':>5} {'hosts':>5} " + " ".join(f"{k:>16}" for k in KEYS) +
              f" {'wall [s]':>9}" + (f" {'launch [s]':>10}" if launched else ""))
        previous = None
        for p, hosts, cost in rows[worker]:
            wall = launched.get((worker, p))
            if cost is None:
                print(f"{p:>5} failed after {wall:.1f} s")
                continue
            cells = []
            for k in KEYS:
                ratio = f"x{cost[k] / previous[k]:.2f}" if previous and previous[k] else ""
                cells.append(f"{cost[k]:>9} {ratio:>6}")
            line = f"{p:>5} {hosts:>5} " + " ".join(cells) + f" {cost['wall_time']:>9.2f}"
            if launched:
                line += f" {wall:>10.1f}" if wall is not None else f" {'-':>10}"
            print(line)
            previous = cost
        laws = [law([(p, c[k]) for p, _, c in rows[worker] if c is not None]) for k in KEYS]
        print(f"{'law':>5} {'':>5} " + " ".join(f"{l:>16}" for l in laws))
    return 0


if __name__ == "__main__":
    sys.exit(main())
