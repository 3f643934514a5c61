# record: stopping a command that ignores Ctrl-C; -o FILE written safely;
# report refusing damaged files with the right message.
# Sourced by tools.sh (uses RP, HOT, T, run, ok, nok, skip, check, refused).

ms() { date +%s%3N; }
report_lines() { grep -cE '^# Samples: |^no samples ' "$T/out"; }

# record CMD in the background, send it the signals "$@" (a number waits that
# many seconds), and set rc and took (ms from the first signal to the end)
record_signalled() {
  local cmd=$1 pid t0 s; shift
  "$RP" record -- sh -c "$cmd" > "$T/out" 2> "$T/err" &
  pid=$!
  sleep 1
  t0=$(ms)
  for s in "$@"; do
    case $s in [0-9]*) sleep "$s" ;; *) kill -"$s" $pid ;; esac
  done
  wait $pid; rc=$?
  took=$(( $(ms) - t0 ))
}

rc=$(run "$RP" record -- true)
if [ "$rc" = 1 ] && refused; then
  reason=$(head -1 "$T/err")
  for t in "record: TERM is passed on to CMD" "record: a second INT kills a CMD that ignores INT" \
           "record: INT kills a CMD still running 2 s later" \
           "record: stopping CMD kills a grandchild that ignores INT and TERM" \
           "record: a grandchild that ignores TERM goes with CMD" \
           "record: a grandchild that called setsid and ignores INT and TERM is killed" \
           "record: TERM reaches a grandchild that called setsid" \
           "record: what CMD leaves when it ends by itself is left alone" \
           "record: CMD reads the terminal it runs on" \
           "record: CMD stays in ringproof's process group" \
           "record: HUP is passed on to CMD, report printed"; do
    skip "$t" "kernel refused perf: $reason"
  done
else
  record_signalled "exec sleep 8" TERM
  check "record: TERM is passed on to CMD, which it ends (rc=$rc, ${took} ms)" \
    test "$rc" = 143 -a "$took" -lt 2000 -a "$(report_lines)" = 1
  record_signalled "trap '' INT TERM; exec sleep 8" INT 0.3 INT
  check "record: a second INT kills a CMD that ignores INT and TERM, report printed (rc=$rc, ${took} ms)" \
    test "$rc" = 137 -a "$took" -lt 2000 -a -n "$(grep 'a second signal came' "$T/err")" -a "$(report_lines)" = 1
  record_signalled "trap '' INT TERM; exec sleep 8" INT
  check "record: INT kills a CMD still running 2 s later, report printed (rc=$rc, ${took} ms)" \
    test "$rc" = 137 -a "$took" -ge 1900 -a "$took" -lt 4500 -a -n "$(grep 'still running 2 s' "$T/err")" -a "$(report_lines)" = 1

  # CMD (the sh script $1) starts a grandchild that writes its pid to
  # $T/gc.pid; the tool is stopped with the signal $2.  Sets rc, took (ms
  # from the signal to the end), gpid and left (the grandchild's pid when it
  # is still running after the tool ended; its start time tells it from a
  # later process given the same pid).
  record_grandchild() {
    local pid st state now t0
    rm -f "$T/gc.pid"
    "$RP" record -- sh -c "$1" > "$T/out" 2> "$T/err" &
    pid=$!
    for _ in $(seq 100); do [ -s "$T/gc.pid" ] && break; sleep 0.1; done
    gpid=$(cat "$T/gc.pid" 2> /dev/null)
    st=$(awk '{ print $22 }' "/proc/${gpid:-none}/stat" 2> /dev/null)
    t0=$(ms)
    kill -"$2" $pid
    wait $pid; rc=$?
    took=$(( $(ms) - t0 ))
    left=
    if [ -n "$st" ] && read -r state now < <(awk '{ print $3, $22 }' "/proc/$gpid/stat" 2> /dev/null) &&
       [ "$now" = "$st" ] && [ "$state" != Z ]; then
      left=$gpid
      kill -KILL "$gpid"
    fi
    [ -n "$st" ] || gpid=
  }
  record_grandchild "trap '' INT TERM; (trap '' INT TERM; exec sleep 1000) & echo \$! > '$T/gc.pid'; wait" INT
  check "record: stopping CMD kills a grandchild that ignores INT and TERM (rc=$rc, grandchild ${gpid:-not seen}${left:+ still running})" \
    test "$rc" = 137 -a -n "$gpid" -a -z "$left" -a "$(report_lines)" = 1
  record_grandchild "(trap '' INT TERM; exec sleep 1000) & echo \$! > '$T/gc.pid'; wait" TERM
  check "record: a grandchild that ignores TERM goes with CMD, which TERM ended (rc=$rc, grandchild ${gpid:-not seen}${left:+ still running})" \
    test "$rc" = 143 -a -n "$gpid" -a -z "$left" -a "$(report_lines)" = 1
  # A grandchild in a session (and process group) of its own is reached
  # through ancestry: ignoring the signal, it is killed 2 s later ...
  record_grandchild "setsid sh -c 'trap \"\" INT TERM; echo \$\$ > \"$T/gc.pid\"; exec sleep 1000' & wait" TERM
  check "record: a grandchild that called setsid and ignores INT and TERM is killed after 2 s (rc=$rc, ${took} ms, grandchild ${gpid:-not seen}${left:+ still running})" \
    test "$rc" = 143 -a -n "$gpid" -a -z "$left" -a "$took" -lt 4500 -a "$(report_lines)" = 1 -a \
         -n "$(grep 'killing what is left of the processes of' "$T/err")"
  # ... and a TERM sent to ringproof reaches it at once, also when its
  # parent (a subshell of CMD) has ended and it is ringproof's child
  record_grandchild "(setsid sh -c 'echo \$\$ > \"$T/gc.pid\"; exec sleep 1000' &); exec sleep 1000" TERM
  check "record: TERM reaches a grandchild that called setsid and was orphaned, with no SIGKILL (rc=$rc, ${took} ms, grandchild ${gpid:-not seen}${left:+ still running})" \
    test "$rc" = 143 -a -n "$gpid" -a -z "$left" -a "$took" -lt 1900 -a "$(report_lines)" = 1 -a \
         -z "$(grep SIGKILL "$T/err")"

  # Without a stop signal, what CMD leaves running is left alone
  rm -f "$T/gc.pid"
  rc=$(run "$RP" record -- sh -c "sleep 1000 & echo \$! > '$T/gc.pid'")
  gpid=$(cat "$T/gc.pid" 2> /dev/null)
  state=$(awk '{ print $3 }' "/proc/${gpid:-none}/stat" 2> /dev/null)
  [ -z "$gpid" ] || kill -KILL "$gpid" 2> /dev/null
  check "record: what CMD leaves when it ends by itself is left alone (rc=$rc, ${gpid:-no} grandchild, state ${state:-gone})" \
    test "$rc" = 0 -a -n "$gpid" -a -n "$state" -a "$state" != Z

  # CMD reads the terminal: ringproof runs as the foreground job of a
  # pseudo-terminal (a session of its own), CMD reads a line from it
  tty_out=$(timeout 20 python3 - "$RP" "$T/tty.out" <<'PY' 2>&1
import os, pty, select, sys, time
pid, fd = pty.fork()
if pid == 0:
    os.execv(sys.argv[1], [sys.argv[1], "record", "-o", sys.argv[2], "--", "sh", "-c", "read x; echo got:$x"])
time.sleep(0.5)
os.write(fd, b"hello\n")
out, end = b"", time.time() + 10
while time.time() < end and b"got:hello" not in out:
    if select.select([fd], [], [], 0.2)[0]:
        try:
            out += os.read(fd, 4096)
        except OSError:
            break
os.kill(pid, 9) if b"got:hello" not in out else None
print(os.waitpid(pid, 0)[1] >> 8, b"got:hello" in out)
PY
)
  check "record: CMD reads the terminal it runs on, not stopped as a background job (status, read: ${tty_out:-nothing})" \
    test "$tty_out" = "0 True"

  # Ctrl-C on the terminal reaches its foreground group (ringproof and CMD)
  # from the kernel: ringproof passes it on only to the processes of CMD's
  # tree outside that group.  CMD and a child of it in a session of its own
  # log the si_code of each SIGINT they get: the terminal's is SI_KERNEL
  # (128), ringproof's SI_USER (0).  Once each: 128 for CMD, 0 for the child
  rm -f "$T/int.cmd" "$T/int.sid"
  int_out=$(timeout 20 python3 - "$RP" "$T/int.rec" "$T/int.cmd" "$T/int.sid" <<'PY' 2>&1
import os, pty, select, sys, time
rp, rec, log_cmd, log_sid = sys.argv[1:5]
cmd = r"""
import os, signal, sys
signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
def log(path):
    open(path, "a").close()
    while True:
        i = signal.sigwaitinfo({signal.SIGINT})
        with open(path, "a") as f:
            f.write("%d\n" % i.si_code)
if os.fork() == 0:
    os.setsid()
    log(sys.argv[2])
log(sys.argv[1])
"""
pid, fd = pty.fork()
if pid == 0:
    os.execv(rp, [rp, "record", "-o", rec, "--", sys.executable, "-c", cmd, log_cmd, log_sid])
end = time.time() + 10
while time.time() < end and not (os.path.exists(log_cmd) and os.path.exists(log_sid)):
    time.sleep(0.05)
time.sleep(0.2)
os.write(fd, b"\x03")
end, done = time.time() + 10, False
while time.time() < end and not done:
    done = os.waitpid(pid, os.WNOHANG)[0] != 0
    if not done and select.select([fd], [], [], 0.1)[0]:
        try:
            os.read(fd, 4096)
        except OSError:
            pass
if not done:
    os.kill(pid, 9)
    os.waitpid(pid, 0)
print("ended" if done else "ringproof still running 10 s after Ctrl-C")
PY
)
  int_cmd=$(paste -sd, "$T/int.cmd" 2> /dev/null)
  int_sid=$(paste -sd, "$T/int.sid" 2> /dev/null)
  check "record: Ctrl-C comes once to CMD (from the terminal) and once to its processes in another session (from ringproof) (${int_out:-nothing}; CMD got ${int_cmd:-none}, the other session ${int_sid:-none})" \
    test "$int_out" = ended -a "$int_cmd" = 128 -a "$int_sid" = 0

  # CMD runs in ringproof's process group (the terminal's foreground job
  # when ringproof is), with no signal blocked and SIGTSTP not ignored; a
  # hangup stops it with the report.  HUP is set back to its default: under
  # nohup (as in CI) ringproof starts with it ignored, and keeps it so
  rm -f "$T/gc.pid"
  env --default-signal=HUP "$RP" record -- sh -c "echo \$\$ > '$T/gc.pid'; exec sleep 30" > "$T/out" 2> "$T/err" &
  pid=$!
  for _ in $(seq 100); do [ -s "$T/gc.pid" ] && break; sleep 0.1; done
  sleep 0.2 # past the exec
  cpid=$(cat "$T/gc.pid" 2> /dev/null)
  rgroup=$(awk '{ print $5 }' /proc/$pid/stat 2> /dev/null)
  cgroup=$(awk '{ print $5 }' "/proc/${cpid:-none}/stat" 2> /dev/null)
  blocked=$(awk '$1 == "SigBlk:" { print $2 }' "/proc/${cpid:-none}/status" 2> /dev/null)
  ignored=$(awk '$1 == "SigIgn:" { print $2 }' "/proc/${cpid:-none}/status" 2> /dev/null)
  tstp_ign=$(( 0x${ignored:-0} >> 19 & 1 ))
  check "record: CMD stays in ringproof's process group, no signal blocked, TSTP not ignored (groups ${rgroup:-?} and ${cgroup:-?}, blocked ${blocked:-?}, ignored ${ignored:-?})" \
    test -n "$cgroup" -a "$cgroup" = "$rgroup" -a "$blocked" = 0000000000000000 -a "$tstp_ign" = 0
  kill -HUP $pid
  wait $pid; rc=$?
  check "record: HUP is passed on to CMD, report printed (rc=$rc)" \
    test "$rc" = 129 -a "$(report_lines)" = 1 -a -n "$(grep 'killed by signal 1$' "$T/err")"
fi

# -o FILE: a bad path fails before the command runs
t0=$(ms)
rc=$(run "$RP" record -o /nonexistent/dir/prof.rec -- sh -c "touch '$T/ran'; sleep 2")
took=$(( $(ms) - t0 ))
check "record -o into a missing directory fails at once, the command not run (rc=$rc, ${took} ms)" \
  test "$rc" = 1 -a "$took" -lt 1000 -a ! -e "$T/ran" -a -n "$(grep '/nonexistent/dir/prof.rec: No such file' "$T/err")"

# -o FILE on a full filesystem: ENOSPC named, no partial file left
rc=$(run "$RP" record -- true)
if [ "$rc" = 1 ] && refused; then
  skip "record -o onto a full filesystem" "kernel refused perf: $(head -1 "$T/err")"
elif ! mkdir -p "$T/full" || ! mount -t tmpfs -o size=16k tmpfs "$T/full" 2> "$T/mount.err"; then
  skip "record -o onto a full filesystem" "mount -t tmpfs refused: $(head -1 "$T/mount.err")"
else
  trap 'umount "$T/full"; cleanup' EXIT
  head -c 64k /dev/zero > "$T/full/fill" 2> /dev/null
  rc=$(run "$RP" record -o "$T/full/prof.rec" -- "$HOT" 200)
  left=$(cd "$T/full" && ls | grep -v '^fill$' | tr '\n' ' ')
  umount "$T/full"
  trap cleanup EXIT
  check "record -o onto a full filesystem names ENOSPC and leaves no file (rc=$rc${left:+, left: $left})" \
    test "$rc" = 1 -a -z "$left" -a -n "$(grep 'prof.rec: No space left on device' "$T/err")"
fi

# -o FILE: a tool killed while recording leaves neither FILE nor a temporary
# file (FILE is written to an unnamed O_TMPFILE file and linked in at the end).
# Where the filesystem refuses O_TMPFILE (tools-test-notmpfile.so stands in
# for one), a named FILE.tmp.XXXXXX is used instead.
NOTMP=$DIR/tools-test-notmpfile.so
# A tool built with gcc's ASan (CFLAGS=-fsanitize=address) refuses to start
# unless its shared runtime comes first in the preload list.
san=$(ldd "$RP" 2> /dev/null | grep -oE '/[^ ]*/libasan\.so[^ ]*' | head -1)
[ -n "$san" ] && NOTMP="$san $NOTMP"
# record -o DIR/prof.rec with the environment "$@", SIGKILLed while CMD runs;
# sets left (the files left in DIR), cpid (CMD's pid, empty if not seen) and
# alive (yes when CMD still ran after the SIGKILL, as ringproof.1 says)
record_killed() {
  local dir=$1 pid; shift
  rm -rf "$dir" "$T/kill.pid"
  mkdir -p "$dir"
  env "$@" "$RP" record -o "$dir/prof.rec" -- sh -c "echo \$\$ > '$T/kill.pid'; exec sleep 30" > /dev/null 2> "$T/err" &
  pid=$!
  for _ in $(seq 100); do [ -s "$T/kill.pid" ] && break; sleep 0.1; done
  sleep 0.3
  kill -KILL $pid
  wait $pid 2> /dev/null
  cpid=$(cat "$T/kill.pid" 2> /dev/null)
  alive=no # a zombie (killed, not yet reaped by init) is not alive
  sleep 0.1
  [ -n "$cpid" ] && [ -r "/proc/$cpid/stat" ] &&
    ! grep -qE '^[0-9]+ \(.*\) [ZX] ' "/proc/$cpid/stat" && alive=yes
  [ -z "$cpid" ] || kill -KILL -- "-$cpid" 2> /dev/null || kill -KILL "$cpid" 2> /dev/null
  left=$(ls -A "$dir" | tr '\n' ' ')
}
# record -o DIR/FILE over an old FILE with umask 027, the environment "$@";
# sets rc, left and mode
record_replace() {
  local dir=$1; shift
  rm -rf "$dir"
  mkdir -p "$dir"
  echo old > "$dir/prof.rec"
  rc=$( (umask 027; env "$@" "$RP" record -o "$dir/prof.rec" -- "$HOT" 20 > "$T/out" 2> "$T/err"); echo $?)
  left=$(ls -A "$dir" | tr '\n' ' ')
  mode=$(stat -c %a "$dir/prof.rec")
}
# after record_replace: FILE replaced whole, mode 0640, nothing else left
replaced() {
  [ "$rc" = 0 ] && [ "$left" = "prof.rec " ] && [ "$mode" = 640 ] &&
    [ "$(head -1 "$1")" = "ringproof-record 2" ] && grep -q '^end ' "$1"
}
rc=$(run "$RP" record -- true)
if [ "$rc" = 1 ] && refused; then
  for t in "record -o: a killed record leaves no file" "record: CMD runs on after a SIGKILL of the tool" \
           "record -o replaces FILE" "record -o creates a new FILE" \
           "record -o without O_TMPFILE: a killed record leaves FILE.tmp.*" "record -o without O_TMPFILE replaces FILE"; do
    skip "$t" "kernel refused perf: $(head -1 "$T/err")"
  done
else
  record_killed "$T/kill"
  check "record -o: SIGKILL of the tool leaves neither FILE nor FILE.tmp.* (cmd ${cpid:-not seen}${left:+, left: $left})" \
    test -n "$cpid" -a -z "$left"
  check "record: CMD runs on after a SIGKILL of the tool, as ringproof.1 says (cmd ${cpid:-not seen}, alive: $alive)" \
    test "$alive" = yes
  # the normal path: FILE replaced whole, mode 0666 less the umask, nothing else left
  record_replace "$T/keep"
  check "record -o replaces FILE, mode 0666 less the umask, no temporary left (rc=$rc, mode $mode, files: $left)" \
    replaced "$T/keep/prof.rec"
  rm -f "$T/keep/prof.rec"
  rc=$(run "$RP" record -o "$T/keep/new.rec" -- "$HOT" 20)
  left=$(ls -A "$T/keep" | tr '\n' ' ')
  rc2=$(run "$RP" report "$T/keep/new.rec")
  check "record -o creates a new FILE that report reads, no temporary left (rc=$rc, report rc=$rc2, files: $left)" \
    test "$rc" = 0 -a "$rc2" = 0 -a "$left" = "new.rec " -a "$(report_lines)" = 1
  # without O_TMPFILE: the named temporary file, which a SIGKILL leaves (so
  # the fallback was taken), renamed over FILE on the normal path
  record_killed "$T/kill" LD_PRELOAD="$NOTMP"
  check "record -o without O_TMPFILE: a killed record leaves FILE.tmp.XXXXXX alone (cmd ${cpid:-not seen}, left: ${left:-nothing})" \
    test -n "$cpid" -a -n "$(grep -xE 'prof\.rec\.tmp\.[A-Za-z0-9]{6} ' <<<"$left")"
  record_replace "$T/keep" LD_PRELOAD="$NOTMP"
  check "record -o without O_TMPFILE replaces FILE, mode 0666 less the umask, no temporary left (rc=$rc, mode $mode, files: $left)" \
    replaced "$T/keep/prof.rec"
fi

# report refuses a damaged file, saying what is wrong
: > "$T/empty.rec"
rc=$(run "$RP" report "$T/empty.rec")
check "report of an empty file says it is empty (rc=$rc: $(head -1 "$T/err"))" \
  test "$rc" = 1 -a -n "$(grep 'empty.rec: the file is empty$' "$T/err")"
mkdir -p "$T/dir.rec"
rc=$(run "$RP" report "$T/dir.rec")
check "report of a directory says so (rc=$rc: $(head -1 "$T/err"))" \
  test "$rc" = 1 -a -n "$(grep 'dir.rec: Is a directory$' "$T/err")"
printf 'ringproof-record 2\n' > "$T/one.rec"
rc=$(run "$RP" report "$T/one.rec")
check "report of a file of one line says line 2 is missing (rc=$rc: $(head -1 "$T/err"))" \
  test "$rc" = 1 -a -n "$(grep 'one.rec: the file ends early: line 2 (the header) is missing$' "$T/err")"

rc=$(run "$RP" record -o "$T/good.rec" -- "$HOT" 200)
if [ "$rc" = 1 ] && refused; then
  reason=$(head -1 "$T/err")
  for t in "report of a file cut in a line" "report of a file cut at a line end" "report of secs nan" \
           "report --json with a total period of 0"; do
    skip "$t" "kernel refused perf: $reason"
  done
else
  size=$(stat -c %s "$T/good.rec")
  head -c $((size - 4)) "$T/good.rec" > "$T/cut.rec"
  rc=$(run "$RP" report "$T/cut.rec")
  check "report of a file cut in a line refuses it (rc=$rc: $(head -1 "$T/err"))" \
    test "$rc" = 1 -a ! -s "$T/out" -a -n "$(grep 'cut.rec: the file ends in the middle of line [0-9]' "$T/err")"
  head -n -1 "$T/good.rec" > "$T/cut.rec"
  rc=$(run "$RP" report "$T/cut.rec")
  check "report of a file cut at a line end refuses it (rc=$rc: $(head -1 "$T/err"))" \
    test "$rc" = 1 -a ! -s "$T/out" -a -n "$(grep 'cut.rec: the file ends early: no end line' "$T/err")"
  sed '2s/ secs [^ ]* / secs nan /' "$T/good.rec" > "$T/nan.rec"
  rc=$(run "$RP" report --json "$T/nan.rec")
  check "report of secs nan refuses it (rc=$rc: $(head -1 "$T/err"))" \
    test "$rc" = 1 -a ! -s "$T/out" -a -n "$(grep 'nan.rec: line 2: secs is not a finite number' "$T/err")"
  # every sample of period 0: shares of 0, not 0/0
  awk '$1 == "s" { $6 = 0 } { print }' "$T/good.rec" > "$T/zero.rec"
  rc=$(run "$RP" report --json "$T/zero.rec")
  strict=$(python3 -c 'import json, sys
o = json.load(open(sys.argv[1]), parse_constant=lambda c: sys.exit("not JSON: " + c))
print("%d entries, overhead %s" % (len(o["entries"]), sorted({e["overhead"] for e in o["entries"]})))' "$T/out" 2>&1 | tail -1)
  check "report --json with a total period of 0: valid JSON, overheads 0 (rc=$rc, $strict)" \
    test "$rc" = 0 -a -n "$(grep 'overhead \[0.0\]$' <<<"$strict")"
fi
