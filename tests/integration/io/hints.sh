#!/usr/bin/env bash
# MPI-IO hints from the command line (for all types and for type 0 only), a hints file and the
# environment are passed at open; the result records per file what was given and what
# MPI_File_get_info says is in effect.
source "$(dirname "$0")/common.sh"

printf '# a comment\nromio_ds_read = disable\n' > hints.txt
PBENCH_HINT_ROMIO_DS_WRITE=disable mpiexec -n 2 "$PBENCH_IO" -T 0.6 --partitions 2 \
  --hint romio_cb_write=enable --hint type0:cb_buffer_size=8388608 --hints-file hints.txt \
  "${SMALL[@]}" --output result.json > protocol.txt
validate result.json
"$PY" - result.json <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
t = doc["measurements"]["file_hints"]
names = [c["name"] for c in t["columns"]]
rows = [dict(zip(names, r)) for r in t["rows"]]
def hints(access, type_):
    return {r["key"]: (r["value"], r["given"]) for r in rows
            if r["access"] == access and r["type"] == type_}
for access in ("write", "rewrite", "read"):
    h = hints(access, 0)
    assert h["cb_buffer_size"] == ("8388608", "8388608"), h.get("cb_buffer_size")
    assert h["romio_cb_write"] == ("enable", "enable"), h.get("romio_cb_write")
    assert h["romio_ds_write"] == ("disable", "disable"), h.get("romio_ds_write")
    assert h["romio_ds_read"] == ("disable", "disable"), h.get("romio_ds_read")
for type_ in (1, 2, 3, 4):
    h = hints("write", type_)
    # type 0's buffer size is not given to the others: their effective value is the default.
    assert h["cb_buffer_size"][1] is None and h["cb_buffer_size"][0] != "8388608", h
    assert h["romio_cb_write"] == ("enable", "enable"), h
# Every hint given is echoed with its scope and where it came from.
g = doc["measurements"]["hints"]
given = sorted(tuple(r) for r in g["rows"])
assert given == sorted([("cb_buffer_size", "8388608", 0, "command_line"),
                        ("romio_cb_write", "enable", "all", "command_line"),
                        ("romio_ds_read", "disable", "all", "hints_file"),
                        ("romio_ds_write", "disable", "all", "environment")]), given
# Every file of every access has its row set; the file names are recorded.
files = {(r["access"], r["type"]) for r in rows}
assert len(files) == 11, files
assert all(r["file"].endswith("p2_type%d" % r["type"]) or r["type"] == 2 for r in rows)
PY
no_benchmark_files
echo "hints recorded: ok"
