# Checks the reproducibility envelopes of a sweep's finished attempts against what really ran:
# usage: envelope_check.py DB SWEEP JOB_ID_VARIABLE WORKER_BINARY
import hashlib, json, os, socket, sqlite3, sys

db, sweep, id_variable, worker = sys.argv[1:5]
sha = lambda path: hashlib.sha256(open(path, "rb").read()).hexdigest()
rows = sqlite3.connect(db).execute(
    """select a.job_id, a.job_dir, p.script_path, p.point_key from attempts a
       join points p on p.id = a.point_id join sweeps s on s.id = p.sweep_id where s.name = ?""",
    (sweep,)).fetchall()
assert rows, "no attempts"
for job_id, job_dir, script, key in rows:
    e = json.load(open(os.path.join(job_dir, "envelope.json")))
    assert e["job_id"] == job_id and e["sweep"] == sweep and e["point_key"] == key, e
    assert e["state"] == "done" and e["exit_status"] == 0, e
    assert e["node_list"] == socket.gethostname().split(".")[0], e["node_list"]
    assert e["script_sha256"] == sha(script), (e["script_sha256"], script)
    assert e["worker_sha256"] == sha(worker), e["worker_sha256"]
    assert "MPICH" in (e["mpi_version"] or ""), e["mpi_version"]
    assert e["pbench_version"], e
    env = e["environment"]
    assert env.get(id_variable) == job_id.split(".")[0], (id_variable, env)
    assert env.get("PBENCH_SWEEP") == sweep and env.get("PBENCH_POINT") == key, env
    assert not any(k.startswith(("HOME", "PATH", "USER")) for k in env), env
print("envelopes of", sweep, "ok")
