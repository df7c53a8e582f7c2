# bash completion for pbench, installed as share/bash-completion/completions/pbench: pbench
# itself says what can follow the words typed so far (`pbench __complete WORD...`, the last word
# the one being completed): commands, options, and the sweep names in the store (--db, else
# PBENCH_DB, else ./pbench.db). An option's value completes as a file name.
_pbench() {
  local IFS=$'\n'
  local candidates
  candidates=$("${COMP_WORDS[0]}" __complete "${COMP_WORDS[@]:1:COMP_CWORD}" 2> /dev/null) ||
    return 0
  COMPREPLY=($candidates)
}
complete -o default -F _pbench pbench
