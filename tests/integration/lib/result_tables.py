"""A result document's tables (measurements.NAME: columns and rows) as lists of rows by column
name, for the Python checks of the tests that run a worker (io/common.sh puts this folder on
PYTHONPATH)."""
import json


def rows(doc, name):
    """The table NAME of the result document `doc` as a list of dicts."""
    t = doc["measurements"][name]
    names = [c["name"] for c in t["columns"]]
    return [dict(zip(names, r)) for r in t["rows"]]


def load(path):
    """The result document at `path`, and table(NAME): its table NAME as a list of dicts."""
    doc = json.load(open(path))
    return doc, lambda name: rows(doc, name)
