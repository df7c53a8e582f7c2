# The start every test group's common.sh shares: strict mode, python, the Python checks' shared
# pieces (this folder: result_tables.py, truth_checks.py, ...) on PYTHONPATH, a scratch
# directory named after SCRATCH_NAME (removed at exit by cleanup, which a test may redefine)
# made the working directory, and fail. Usage: SCRATCH_NAME=pbench-<group> source .../lib/scratch.sh
set -euo pipefail
PY=/usr/bin/python3
export PYTHONPATH="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)${PYTHONPATH:+:$PYTHONPATH}"
work=$(mktemp -d "${TMPDIR:-/tmp}/${SCRATCH_NAME:?SCRATCH_NAME must name the scratch directory}.XXXXXX")
cleanup() { rm -rf "$work"; }
trap cleanup EXIT
cd "$work"

fail() { echo "FAIL: $*" >&2; exit 1; }
