#!/usr/bin/env bash
# Cleanup of the install tests: removes the staged tree stage.sh recorded. Usage: clean.sh RECORD
set -euo pipefail
record=$1
if [[ -s $record ]]; then
  stage=$(cat "$record")
  [[ $stage == /tmp/pbench-install.* ]] && rm -rf "$stage"
  rm -f "$record"
fi
