"""Result documents edited in place and then said valid, for the trust tests that make a job's
document lie (trust/identity.sh, physics.sh, own_rules.sh; orchestrator/common.sh puts this
folder on PYTHONPATH)."""
import json


def edit_said_valid(paths, edit, workers):
    """edit(doc) changes each result document at `paths`; each is then marked valid, with no
    reasons, and written back. The documents must be those of `workers`, each edited."""
    seen = set()
    for path in paths:
        doc = json.load(open(path))
        edit(doc)
        doc["validity"] = {"valid": True, "reasons": []}
        json.dump(doc, open(path, "w"))
        seen.add(doc["worker"])
    assert seen == set(workers), seen
