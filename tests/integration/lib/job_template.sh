# template_with LINE OUT: a copy of pbench's built-in job template (jobtemplates/job.sh, one for
# every scheduler) in OUT, with LINE inserted before the worker's command (inside the job's
# command function, so a line that returns or exits ends the command, not the job script).
template_with() {
  local line=$1 out=$2
  awk -v line="$line" '/^\{\{command\}\}$/ { print line } { print }' \
    "$(dirname "${BASH_SOURCE[0]}")/../../../jobtemplates/job.sh" > "$out"
  grep -qF -- "$line" "$out" || fail "could not make the test template $out"
}
