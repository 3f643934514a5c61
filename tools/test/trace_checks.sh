# trace: syscall names, exec/exit details, filters, ordering, JSON shape.
# Sourced by tools.sh (uses RP, T, run, ok, nok, skip, check, refused).
JC="python3 $(dirname "${BASH_SOURCE[0]}")/jsoncheck.py"

# a load on both CPUs until the checks end (a fixed count ran out before the
# last checks on a fast machine): execs of cat (opening /proc/version), shells exiting
# with status 5, and a cat running as uid 65534
trace_load() {
  while :; do
    cat /proc/version > /dev/null; sh -c 'exit 5'
    setpriv --reuid=65534 --regid=65534 --clear-groups cat /proc/version > /dev/null 2>&1
    sleep 0.01
  done
}
trace_load & tl1=$!
trace_load & tl2=$!
trace_load_pids="$tl1 $tl2"   # tools.sh's cleanup stops them if the suite dies early

# The 2-second traces below run side by side, each checked as it ends, to
# its own files; the results are then reported in order (one after the
# other, traces and checks took 55 s of the suite).
jt_n=0; jt_name=(); jt_pid=()
jtrace() { # name check-args... -- trace-args...: starts the trace and its check
  local name=$1; shift
  local cargs=()
  while [ "$1" != -- ]; do cargs+=("$1"); shift; done; shift
  local i=$jt_n
  jt_n=$((jt_n + 1)); jt_name[i]=$name
  ( "$RP" trace --seconds 2 --json "$@" > "$T/jt$i.out" 2> "$T/jt$i.err"; echo $? > "$T/jt$i.rc"
    $JC "${cargs[0]}" "$T/jt$i.out" "${cargs[@]:1}" > "$T/jt$i.why" 2>&1; echo $? > "$T/jt$i.ok" ) &
  jt_pid[i]=$!
}
jtrace_report() { # waits for every trace started, reports each in order
  wait "${jt_pid[@]}"
  local i rc why
  for ((i = 0; i < jt_n; i++)); do
    rc=$(cat "$T/jt$i.rc" 2>/dev/null || echo none)
    if [ "$rc" = 1 ] && grep -qE 'Operation not permitted|Permission denied|Function not implemented|not supported' "$T/jt$i.err"; then
      skip "${jt_name[i]}" "kernel refused bpf/perf: $(head -1 "$T/jt$i.err")"
      continue
    fi
    why=$(cat "$T/jt$i.why" 2>/dev/null)
    if [ "$rc" = 0 ] && [ "$(cat "$T/jt$i.ok" 2>/dev/null)" = 0 ]; then
      ok "${jt_name[i]} ($why)"
    else
      nok "${jt_name[i]}" "rc=$rc: $why" "$(head -2 "$T/jt$i.err")"
    fi
  done
}

jtrace "trace --json: syscalls named by libseccomp, openat path argument" names --
jtrace "trace --json: exec events carry filename, argv, ppid, uid, gid" exec /cat /proc/version --
jtrace "trace --json: exit events carry the exit status" exit sh 5 --
jtrace "trace --comm cat: only cat" field comm cat -- --comm cat
jtrace "trace --uid 65534: only that user's events" field uid 65534 -- --uid 65534
jtrace "trace -p PID: only that process" field pid $tl1 -- -p $tl1
jtrace "trace --syscall openat,close: only those syscalls" syscalls openat close -- --syscall openat,close
jtrace "trace --ordered: one stream in timestamp order across CPUs" ordered 2 -- --ordered
jtrace "trace --wall: wall-clock times" wall -- --wall --syscall openat
jtrace "trace --ringbuf --json: exec events with filename and argv" exec /cat /proc/version -- --ringbuf
jtrace_report

# the same JSON shape from both transports (cpu present in both)
rc=$(run "$RP" trace --seconds 1 --json --syscall close)
if [ "$rc" = 1 ] && refused; then
  skip "trace JSON shape is the same with --ringbuf" "kernel refused bpf/perf"
else
  perf_shape=$($JC shape "$T/out" 2>&1)
  rc2=$(run "$RP" trace --seconds 1 --json --syscall close --ringbuf)
  rb_shape=$($JC shape "$T/out" 2>&1)
  check "trace JSON shape is the same with --ringbuf, cpu in both ($perf_shape)" \
    test "$rc" = 0 -a "$rc2" = 0 -a -n "$perf_shape" -a "$perf_shape" = "$rb_shape" \
         -a -n "$(grep -o ',cpu,' <<<",$perf_shape,")"
fi

rc=$(run "$RP" trace --seconds 1 --top 3)
if [ "$rc" = 1 ] && refused; then
  skip "trace --top 3 summary" "kernel refused bpf/perf"
else
  prows=$(sed -n '/PID  COMM/,/^$/p' "$T/out" | grep -cE '^ *[0-9]+  ')
  srows=$(sed -n '/^SYSCALL /,$p' "$T/out" | grep -cE '^[a-z_0-9]+ +[0-9]+ +[0-9]+$')
  check "trace --top 3: 3 process rows and 3 named syscall rows (got $prows, $srows)" \
    test "$rc" = 0 -a "$prows" = 3 -a "$srows" = 3 -a -n "$(grep -E '^(openat|close|read|execve|wait4) ' "$T/out")"
fi
rc=$(run "$RP" trace --syscall no_such_call)
check "trace --syscall with an unknown name exits 2" test "$rc" = 2 -a -n "$(grep 'unknown syscall' "$T/err")"
rc=$(run "$RP" trace --comm 0123456789abcdefg)
check "trace --comm longer than 15 bytes exits 2" test "$rc" = 2 -a -n "$(grep "comm wants a name" "$T/err")"

kill $tl1 $tl2 2>/dev/null; wait $tl1 $tl2 2>/dev/null; trace_load_pids=
