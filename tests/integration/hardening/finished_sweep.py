"""Makes the points of a planned sweep look finished, each with its own result document, so a
test can give `pbench collect` thousands of documents without running thousands of jobs.

usage: finished_sweep.py DB SWEEP REAL_RESULT OFFSET

Every point gets attempt 1 (done, exit status 0) and, in its attempt directory, a copy of
REAL_RESULT (a document a real worker wrote) whose started_at/ended_at are moved by a distinct
number of milliseconds (OFFSET + the point's index), so every document is different, and whose
"arguments" are the ones the point's job script gives its worker (collect holds a document to
its point's arguments; the attempts have no job.env, so no nonce is expected of its "origin").
"""
import datetime
import json
import os
import shlex
import sqlite3
import sys

db_path, sweep, real_result, offset = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
doc = json.load(open(real_result))
fmt = "%Y-%m-%dT%H:%M:%S.%f"


def parse(stamp):
    return datetime.datetime.strptime(stamp.rstrip("Z"), fmt)


def stamp(t):
    return t.strftime(fmt)[:-3] + "Z"


def worker_arguments(script_path):
    """The worker's arguments on the job script's launch line (the line ending in --output)."""
    for line in open(script_path):
        if "--output" not in line or line.lstrip().startswith("#"):
            continue
        words = shlex.split(line)
        if "--output" in words:
            at = next(i for i, w in enumerate(words) if os.path.basename(w).startswith("pbench-"))
            return words[at + 1:]
    raise SystemExit(f"no launch line in {script_path}")


started, ended = parse(doc["started_at"]), parse(doc["ended_at"])
db = sqlite3.connect(db_path)
points = db.execute(
    "select p.id, p.script_path from points p join sweeps s on s.id = p.sweep_id "
    "where s.name = ? order by p.id", (sweep,)).fetchall()
assert points, f"no points in sweep {sweep}"
with db:
    for i, (point_id, script_path) in enumerate(points):
        shift = datetime.timedelta(milliseconds=offset + i)
        doc["started_at"], doc["ended_at"] = stamp(started + shift), stamp(ended + shift)
        doc["arguments"] = worker_arguments(script_path)
        doc.pop("origin", None)
        job_dir = os.path.join(os.path.dirname(script_path), "attempt-1")
        os.makedirs(job_dir, exist_ok=True)
        result = os.path.join(job_dir, "result.json")
        with open(result, "w") as out:
            json.dump(doc, out)
        db.execute(
            "insert into attempts(point_id, attempt_no, job_id, native_state, state, submitted_at,"
            " started_at, ended_at, exit_status, job_dir, stdout_path, stderr_path, result_path)"
            " values (?, 1, ?, 'exited 0', 'done', ?, ?, ?, 0, ?, ?, ?, ?)",
            (point_id, str(100000 + i), doc["started_at"], doc["started_at"], doc["ended_at"],
             job_dir, os.path.join(job_dir, "stdout.log"), os.path.join(job_dir, "stderr.log"),
             result))
        db.execute("update points set state = 'done' where id = ?", (point_id,))
print(len(points))
