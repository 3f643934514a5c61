# Stopping a proof run part-way, sourced by proofs/run.sh and
# proofs/mutants.sh (tested by tests/proofs/stop_test.sh).
#
# Without it, Ctrl-C stopped the running Frama-C processes, which exit with
# a status of their own rather than die of the signal, so the script went
# on to its next pass, printed a summary of the pass it had cut short and
# left provers to a job runner's TERM (which only the script received).
#
# stop_on_signal NAME: on INT or TERM, stop every process this shell
# started (and theirs: Frama-C, why3server, the provers), say "NAME:
# interrupted" on stderr and exit 130 (INT) or 143 (TERM) -- a failure,
# whatever the passes before it proved.  A signal reaches
# bash's trap only between commands or during the `wait` builtin, so the
# scripts run their long commands in the background and wait for them.

# stop_under PID: TERM to every process under PID (not PID itself), the
# leaves first.  The tree is read once from /proc before anything is
# stopped, so a parent that dies first cannot hand a child to init, out of
# reach.  (/proc, not pgrep: procps is not on every fresh machine.)
stop_under() {
  local root=$1 stat line pid
  local -A kids=()
  for stat in /proc/[0-9]*/stat; do
    read -r line 2>/dev/null < "$stat" || continue
    pid=${stat#/proc/}; pid=${pid%/stat}
    line=${line##*) }          # after the command name, which may hold spaces
    set -- $line               # state, ppid, ...
    kids[$2]+=" $pid"
  done
  stop_kids() {
    local child
    for child in ${kids[$1]:-}; do stop_kids "$child"; kill -TERM "$child" 2>/dev/null; done
  }
  stop_kids "$root"
}

stop_on_signal() {
  local name=$1
  # shellcheck disable=SC2064  # name is expanded now, on purpose
  trap "stop_now '$name' 130" INT
  # shellcheck disable=SC2064
  trap "stop_now '$name' 143" TERM
}

stop_now() { # NAME STATUS
  trap - INT TERM
  stop_under $$   # no wait: a process that ignored TERM would hang the stop
  echo "$1: interrupted" >&2
  exit "$2"
}
