# Output errors and option errors of every command: a full disk is exit 1 with
# "ringproof CMD: writing standard output: ...", a reader gone (EPIPE) a clean
# stop; a bad option is named as written.
# Sourced by tools.sh (uses RP, HOT, EMIT, RB_OBJ, PIN, bpffs, T, run, ok, nok, skip, check, refused).

FULL_MSG='writing standard output: No space left on device'
# exit code of a command writing to /dev/full, stderr in $T/err
run_full() { "$@" > /dev/full 2> "$T/err"; echo $?; }
# exit code of a command whose stdout is a pipe with no reader left (as once
# `| head -1` has exited, but without the race), stderr in $T/err
run_closed() {
  python3 -c 'import os, subprocess, sys
r, w = os.pipe(); os.close(r)
sys.exit(subprocess.call(sys.argv[1:], stdout=w))' "$@" 2> "$T/err"; echo $?
}
# check that $T/err holds the write error for command $2, exit code $1 = 1
full_check() { # name rc cmd
  check "$1 (rc=$2: $(tail -1 "$T/err"))" test "$2" = 1 -a -n "$(grep -x "ringproof $3: $FULL_MSG" "$T/err")"
}

# ---- option errors name the option ---------------------------------------------
opt_check() { # message args...
  local want=$1; shift
  local rc
  rc=$(run "$RP" "$@")
  check "$* names the option: $want (rc=$rc: $(head -1 "$T/err"))" \
    test "$rc" = 2 -a -n "$(grep -F ": $want" "$T/err")"
}
opt_check "unknown option '-x'" trace -xj
opt_check "unknown option '-q'" report -qg x.rec
opt_check "unknown option '-q'" record -qg -- true
opt_check "unknown option '-q'" pipe -qx /nonexistent/map
opt_check "option '-s' needs a value" trace -js
opt_check "option '--json' takes no value" trace --json=1
opt_check "option '--folded' takes no value" report --folded=yes x.rec

# The top-level help lists every long option of a command, or none of them.
partial=
for c in trace pipe record report; do
  top=$("$RP" --help | awk -v c="$c" '$1 == c && /^  [a-z]/ { f = 1; print; next } f && /^        \[/ { print; next } { f = 0 }' |
        grep -oE -- '--[a-z][a-z-]*' | sort -u)
  own=$("$RP" $c --help 2>&1 | grep -oE -- '--[a-z][a-z-]*' | grep -vx -- --help | sort -u)
  [ -z "$top" ] || [ "$top" = "$own" ] || partial="$partial $c:$(comm -13 <(echo "$top") <(echo "$own") | tr '\n' ' ')"
done
check "ringproof --help lists no command's options partially${partial:+ (missing:$partial)}" test -z "$partial"
rc=$(run_full "$RP" --help)
check "ringproof --help > /dev/full exits 1 with the message (rc=$rc)" test "$rc" = 1 -a -n "$(grep -x "ringproof: $FULL_MSG" "$T/err")"

# ---- trace ---------------------------------------------------------------------------
# --json writes one line per event: keep events coming for the second it runs
# (on a quiet machine there may be none, and then nothing is written at all)
( for _ in $(seq 300); do cat /proc/version > /dev/null; sleep 0.01; done ) &
full_load=$!
rc=$(run_full "$RP" trace --seconds 1 --json)
if [ "$rc" = 1 ] && refused; then
  skip "trace --json > /dev/full" "kernel refused bpf/perf: $(head -1 "$T/err")"
  skip "trace > /dev/full" "kernel refused bpf/perf"
else
  full_check "trace --json > /dev/full exits 1 with the message" "$rc" trace
  rc=$(run_full "$RP" trace --seconds 1)
  full_check "trace > /dev/full (the summary) exits 1 with the message" "$rc" trace
fi
kill $full_load 2> /dev/null
wait $full_load 2> /dev/null

# ---- pipe: a ring buffer holding 3 records -------------------------------------------
if [ "$bpffs" = 0 ]; then
  skip "pipe --json > /dev/full" "no bpffs"
else
  "$EMIT" pin-ringbuf "$PIN-rb" 2> "$T/err" && "$EMIT" ringbuf "$RB_OBJ" "$PIN-rb" 3 20 2>> "$T/err"; erc=$?
  if [ $erc = 3 ]; then
    skip "pipe --json > /dev/full" "kernel refused bpf: $(head -1 "$T/err")"
  elif [ $erc != 0 ]; then
    nok "pipe --json > /dev/full" "emit failed: $(head -1 "$T/err")"
  else
    rc=$(run_full timeout 10 "$RP" pipe "$PIN-rb" --count 3 --json)
    full_check "pipe --json > /dev/full exits 1 with the message" "$rc" pipe
  fi
  rm -f "$PIN-rb"
fi

# ---- record and report ---------------------------------------------------------------
rc=$(run "$RP" record -g -o "$T/out.rec" -- "$HOT" 300)
if [ "$rc" = 1 ] && refused; then
  reason=$(head -1 "$T/err")
  for t in "report -g > /dev/full" "report -g into a closed pipe" "record > /dev/full" "record into a closed pipe"; do
    skip "$t" "kernel refused perf: $reason"
  done
else
  rc=$(run_full "$RP" report -g "$T/out.rec")
  full_check "report -g > /dev/full exits 1 with the message" "$rc" report
  rc=$(run_closed "$RP" report -g "$T/out.rec")
  check "report -g into a closed pipe (| head -1) exits 0 silently (rc=$rc)" test "$rc" = 0 -a ! -s "$T/err"
  rc=$(run_full "$RP" record -- sh -c 'exit 3')
  check "record > /dev/full exits 1 with the message and the command's status (rc=$rc)" \
    test "$rc" = 1 -a -n "$(grep -x "ringproof record: $FULL_MSG" "$T/err")" -a -n "$(grep 'status 3' "$T/err")"
  rc=$(run_closed "$RP" record -g -- sh -c 'exit 4')
  check "record into a closed pipe (| head -1) exits with the command's status (rc=$rc)" \
    test "$rc" = 4 -a -z "$(grep 'writing standard output' "$T/err")"
fi
