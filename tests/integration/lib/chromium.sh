# chromium_shot PNG WIDTH,HEIGHT FILE: headless Chromium renders FILE (a page or a figure) at that
# window size into PNG, with a profile of its own beside PNG; PBENCH_REPORT_SHOTS=DIR keeps a copy
# there to look at. On failure, prints Chromium's output and returns 1. Shared by the tests that
# render reports (report/real_sweep.sh, report/environments.sh, scale/card_sweep.sh) and by
# bench/card_sweep.sh.
chromium_shot() {
  local png=$1 size=$2 file=$3
  local profile="$png.profile"
  rm -rf "$profile" && mkdir -p "$profile"
  if ! timeout 120 chromium --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
      --disable-background-networking --disable-component-update --disable-sync \
      --disable-dev-shm-usage --user-data-dir="$profile" --screenshot="$png" \
      --window-size="$size" "file://$(realpath "$file")" > "$png.log" 2>&1; then
    cat "$png.log"
    rm -rf "$profile"
    return 1
  fi
  rm -rf "$profile"
  if [[ -n ${PBENCH_REPORT_SHOTS:-} ]]; then cp "$png" "$PBENCH_REPORT_SHOTS/"; fi
}
