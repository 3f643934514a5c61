#!/usr/bin/env bash
# A proof run stopped part-way (proofs/stop.sh): every process it started
# is stopped, even one that ignores Ctrl-C, and the run fails with the
# signal's status.  No Frama-C needed: the run is a stand-in with the same
# shape (background commands waited for, one of them a tree).  TAP.
set -u
cd "$(dirname "$0")/../.."
root=$PWD
. tests/proofs/tap.sh

# The stand-in run: a child, a grandchild under a subshell, and a
# grandchild that ignores INT (as a prover whose parent caught Ctrl-C and
# went on would outlive it); each writes its pid to $t/pids.
cat > "$t/run.sh" <<'RUN'
set -u
. "$1/proofs/stop.sh"
stop_on_signal stand-in
pids=$2
sleep 300 & echo $! >> "$pids"
( sleep 300 & echo $! >> "$pids"; wait ) &
( trap '' INT; sleep 300 & echo $! >> "$pids"; wait ) &
wait
echo "not reached"
RUN

alive() { # any pid of FILE still running (and not a zombie)
  local p s
  for p in $(cat "$1"); do
    s=$(sed -n 's/^State:[[:space:]]*\([A-Z]\).*/\1/p' /proc/$p/status 2>/dev/null)
    [ -n "$s" ] && [ "$s" != Z ] && return 0
  done
  return 1
}
none_alive() { ! alive "$1"; }
started() { [ "$(wc -l < "$1" 2>/dev/null || echo 0)" = 3 ]; }

# NAME SIGNAL TARGET(script|group) STATUS.  Each wait polls for up to 20 s
# (a loaded machine), and ends as soon as the state is reached.
one_case() {
  local name=$1 sig=$2 target=$3 want=$4 pid rc i
  : > "$t/$name.pids"
  # The run in a process group of its own, as a terminal's job, and with
  # INT and TERM handled by default, as a terminal's job has them: a shell
  # cannot trap a signal ignored when it started, and a job runner that
  # starts make check in the background (nohup cmd &, a script's cmd &)
  # passes INT on ignored.
  set -m
  env --default-signal=INT,TERM bash "$t/run.sh" "$root" "$t/$name.pids" \
    > "$t/$name.out" 2> "$t/$name.err" &
  pid=$!
  set +m
  for i in $(seq 400); do started "$t/$name.pids" && break; sleep 0.05; done
  check "$name: the stand-in started its three sleeps" started "$t/$name.pids"
  if [ "$target" = group ]; then kill -"$sig" -- -"$pid"; else kill -"$sig" "$pid"; fi
  for i in $(seq 400); do kill -0 "$pid" 2>/dev/null || break; sleep 0.05; done
  wait "$pid"; rc=$?
  check "$name: the run exits with status $want (got $rc)" test "$rc" = "$want"
  for i in $(seq 400); do alive "$t/$name.pids" || break; sleep 0.05; done
  check "$name: no process of the run is left" none_alive "$t/$name.pids"
  check "$name: it says it was interrupted" grep -qx 'stand-in: interrupted' "$t/$name.err"
  check "$name: it stops at once (nothing after the wait runs)" test ! -s "$t/$name.out"
  # leave nothing behind whatever happened
  for p in $(cat "$t/$name.pids"); do kill -KILL "$p" 2>/dev/null; done
}

one_case ctrl-c INT group 130
one_case term TERM script 143

tap_end
