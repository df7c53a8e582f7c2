#!/usr/bin/env bash
# The runs directory and the store agree (issue 51 item 1): collect records each document's
# SHA-256 beside its envelope (result.sha256, sha256sum's format); `store verify` compares the
# store with the runs directory, naming a document that is missing there (the store is not
# damaged by it) and one edited on disk (EEL 5,910 us -> 0.41 us, as the issue did: exit 7); and
# `store rebuild` refuses the edited document, naming it, and rebuilds the rest. Nothing stored
# is lost: the store keeps the document as it was collected.
source "$(dirname "$0")/common.sh"

"$PBENCH" run s --partitions 2 --queue-depths 1,8 "${SMALL[@]}" > /dev/null 2> run.err ||
  fail "run s: $(cat run.err)"
expect_results 2
mapfile -t docs < <(ls runs/s/points/*/attempt-1/result.json)
[[ ${#docs[@]} -eq 2 ]] || fail "expected 2 result documents: ${docs[*]}"
for doc in "${docs[@]}"; do
  dir=$(dirname "$doc")
  [[ -f $dir/envelope.json && -f $dir/result.sha256 ]] || fail "no result.sha256 beside $dir/envelope.json"
  (cd "$dir" && sha256sum -c --quiet result.sha256) || fail "$dir/result.sha256 does not check"
done
"$PBENCH" store verify > verify.out || fail "verify of a sound store: $(cat verify.out)"
grep -q "; 2 documents compared with the runs directory$" verify.out || fail "verify: $(cat verify.out)"

# One document missing from the runs directory: named; the store is not damaged by it.
mv "${docs[1]}" missing.json
"$PBENCH" store verify > missing.out || fail "verify with a document missing on disk failed: $(cat missing.out)"
grep -qF "its document '$work/${docs[1]}' is not in the runs directory (the store holds it)" missing.out ||
  fail "verify does not name the missing document: $(cat missing.out)"
grep -q "1 documents compared with the runs directory, 1 not there" missing.out || fail "verify: $(cat missing.out)"
mv missing.json "${docs[1]}"

# One document edited on disk after collect: EEL from microseconds to 0.41 us.
"$PY" - "${docs[0]}" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
for m in doc["summary"]:
    if m["name"] == "eel_min":
        m["value"] = 0.41e-6
json.dump(doc, open(sys.argv[1], "w"))
PY
rc=0
"$PBENCH" store verify > edited.out 2>&1 || rc=$?
[[ $rc -eq 7 ]] || fail "verify of an edited document exited $rc, expected 7: $(cat edited.out)"
grep -qF "its document on disk '$work/${docs[0]}' differs from the stored one" edited.out ||
  fail "verify does not name the edited document: $(cat edited.out)"
grep -q "and its runs directory differ: 1 problem" edited.out || fail "verify: $(cat edited.out)"
grep -q "the store holds those documents as they were collected" edited.out || fail "verify: $(cat edited.out)"
expect_results 2

# Rebuild refuses the edited document, names it, and stores the other.
"$PBENCH" store rebuild -o rebuilt.db > rebuild.out 2> rebuild.err || fail "rebuild: $(cat rebuild.out rebuild.err)"
grep -q "1 results stored, 1 result documents refused" rebuild.out || fail "rebuild: $(cat rebuild.out rebuild.err)"
grep -qF "result '$work/${docs[0]}': edited after collect: its SHA-256 is" rebuild.err ||
  fail "rebuild does not name the edited document: $(cat rebuild.err)"
expect_results 1 rebuilt.db
"$PY" - rebuilt.db <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
assert db.execute("SELECT count(*) FROM metrics WHERE name = 'eel_min' AND value = 0.41e-6").fetchone()[0] == 0
PY
# The original store still holds both documents as collected.
expect_results 2
echo "runs directory and store agree: ok"
