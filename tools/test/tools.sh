#!/usr/bin/env bash
# The tools suite: the ringproof CLI against the real kernel, as TAP.
#   tools/test/tools.sh RINGPROOF_BIN TOOLS_BUILD_DIR BPF_DIR
# (BPF_DIR holds the compiled bpf/*.bpf.c: bench_perf.bpf.o, bench_ringbuf.bpf.o)
# Tests that need bpf()/perf_event_open report SKIP with the kernel's reason.
set -u
RP=$1
DIR=$2
BPF_DIR=$3
EMIT=$DIR/tools-test-emit
HOT=$DIR/tools-test-hot
PERF_OBJ=$BPF_DIR/bench_perf.bpf.o
RB_OBJ=$BPF_DIR/bench_ringbuf.bpf.o
T=$(mktemp -d)
PIN=/sys/fs/bpf/ringproof-test-$$
n=0
trace_load_pids=
cleanup() { [ -z "$trace_load_pids" ] || kill $trace_load_pids 2>/dev/null; rm -rf "$T"; rm -f "$PIN-perf" "$PIN-rb" "$PIN-hash" "$PIN-small" 2>/dev/null; }
trap cleanup EXIT

ok()   { n=$((n + 1)); echo "ok $n - $1"; }
nok()  { n=$((n + 1)); echo "not ok $n - $1"; shift; for l in "$@"; do echo "#   $l"; done; }
skip() { n=$((n + 1)); echo "ok $n - $1 # SKIP $2"; }
check() { local name=$1; shift; if "$@"; then ok "$name"; else nok "$name" "failed: $*"; fi; }

# exit code of a command, output in $T/out and $T/err
run() { "$@" > "$T/out" 2> "$T/err"; echo $?; }

# ---- command line --------------------------------------------------------
rc=$(run "$RP" --help)
check "--help exits 0 and shows usage" test "$rc" = 0 -a -n "$(grep '^Usage: ringproof' "$T/out")"
rc=$(run "$RP" --version)
check "--version exits 0 and prints the version" test "$rc" = 0 -a -n "$(grep -E '^ringproof [0-9]+\.[0-9]+\.[0-9]+$' "$T/out")"
for c in trace pipe record; do
  rc=$(run "$RP" $c --help)
  check "$c --help exits 0" test "$rc" = 0 -a -n "$(grep "^Usage: ringproof $c" "$T/out")"
done
# Every long option a command's --help names is documented in the man page
# and the README (the docs cannot fall behind the code).
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
undoc=
for c in trace pipe record report; do
  for o in $("$RP" $c --help 2>&1 | grep -oE '(^|[ ,])--[a-z][a-z-]*' | tr -d ' ,' | sort -u); do
    grep -qF -- "$(printf '%s' "$o" | sed 's/-/\\-/g')" "$ROOT/tools/ringproof.1" || undoc="$undoc man:$c:$o"
    grep -qF -- "$o" "$ROOT/README.md" || undoc="$undoc README:$c:$o"
  done
done
check "every --help option is in the man page and the README${undoc:+ (missing:$undoc)}" test -z "$undoc"
rc=$(run "$RP")
check "no command: usage on stderr, exit 2" test "$rc" = 2 -a -s "$T/err" -a ! -s "$T/out"
rc=$(run "$RP" frobnicate)
check "unknown command exits 2" test "$rc" = 2 -a -n "$(grep -i 'unknown command' "$T/err")"
rc=$(run "$RP" trace --seconds abc)
check "trace --seconds abc exits 2 with a hint" test "$rc" = 2 -a -n "$(grep -- "--help" "$T/err")"
rc=$(run "$RP" trace --seconds)
check "trace --seconds without value exits 2" test "$rc" = 2
rc=$(run "$RP" trace --bogus)
check "trace --bogus exits 2" test "$rc" = 2
rc=$(run "$RP" trace extra)
check "trace with a stray argument exits 2" test "$rc" = 2
rc=$(run "$RP" pipe)
check "pipe without MAP exits 2" test "$rc" = 2 -a -n "$(grep -i 'missing MAP' "$T/err")"
rc=$(run "$RP" pipe /x --count 0)
check "pipe --count 0 exits 2" test "$rc" = 2
rc=$(run "$RP" record)
check "record without a command exits 2" test "$rc" = 2
rc=$(run "$RP" record -F 0 -- true)
check "record -F 0 exits 2" test "$rc" = 2
rc=$(run "$RP" record -e no-such-event -- true)
check "record -e unknown exits 2" test "$rc" = 2
rc=$(run "$RP" pipe name no_such_map_rp)
check "pipe name with no such map exits 1 and says so" test "$rc" = 1 -a -n "$(grep "no map is named 'no_such_map_rp'" "$T/err")"
rc=$(run "$RP" pipe bogus /x)
check "pipe with a bad MAP form exits 2" test "$rc" = 2
rc=$(run "$RP" pipe /nonexistent/map)
check "pipe on a missing path exits 1 with the errno text" test "$rc" = 1 -a -n "$(grep 'No such file' "$T/err")"

# ---- trace against the kernel ------------------------------------------------
refused() { grep -qE 'Operation not permitted|Permission denied|Function not implemented|not supported' "$T/err"; }

# A quiet machine may make no syscall in 2 s besides the tool's own (which the
# BPF program skips): keep a small load of syscalls and execs running.
( for _ in $(seq 1500); do cat /proc/version > /dev/null; sleep 0.01; done ) &
load_pid=$!
rc=$(run "$RP" trace --seconds 2)
if [ "$rc" = 1 ] && refused; then
  reason=$(head -1 "$T/err")
  for t in "trace 2 s: >= 1 event, 0 corrupt" "trace --json parses as JSON" \
           "SIGINT ends trace with the summary" "trace --json | head -1 ends cleanly"; do
    skip "$t" "kernel refused bpf/perf: $reason"
  done
else
  sum=$(grep '^ringproof trace:' "$T/out")
  ev=$(sed -nE 's/^ringproof trace: ([0-9]+) events.*/\1/p' <<<"$sum")
  cor=$(sed -nE 's/.* ([0-9]+) corrupt.*/\1/p' <<<"$sum")
  if [ "$rc" = 0 ] && [ -n "$ev" ] && [ "$ev" -ge 1 ] && [ "$cor" = 0 ] && grep -q 'PID  COMM' "$T/out"; then
    ok "trace 2 s: >= 1 event, 0 corrupt ($ev events)"
  else
    nok "trace 2 s: >= 1 event, 0 corrupt" "rc=$rc summary='$sum'" "$(head -3 "$T/err")"
  fi

  rc=$(run "$RP" trace --seconds 1 --json)
  lines=$(wc -l < "$T/out")
  bad=$(python3 -c '
import json, sys
bad = 0
for line in open(sys.argv[1]):
    try:
        o = json.loads(line)
        if not isinstance(o, dict) or o.get("kind") not in ("syscall", "exec", "exit") or not isinstance(o.get("pid"), int):
            bad += 1
    except ValueError:
        bad += 1
print(bad)' "$T/out")
  if [ "$rc" = 0 ] && [ "$lines" -ge 1 ] && [ "$bad" = 0 ] && grep -q '^ringproof trace:' "$T/err"; then
    ok "trace --json parses as JSON ($lines objects)"
  else
    nok "trace --json parses as JSON" "rc=$rc lines=$lines bad=$bad"
  fi

  "$RP" trace --seconds 60 > "$T/out" 2> "$T/err" &
  pid=$!
  sleep 1.5
  kill -INT $pid
  t0=$(date +%s)
  wait $pid; rc=$?
  took=$(( $(date +%s) - t0 ))
  check "SIGINT ends trace with the summary (rc=$rc, ${took}s)" \
    test "$rc" = 0 -a "$took" -le 3 -a -n "$(grep '^ringproof trace:' "$T/out")"

  t0=$(date +%s)
  "$RP" trace --seconds 20 --json 2> "$T/err" | head -1 > "$T/out"
  rc=${PIPESTATUS[0]}
  took=$(( $(date +%s) - t0 ))
  check "trace --json | head -1 ends cleanly on EPIPE (rc=$rc, ${took}s)" \
    test "$rc" = 0 -a "$took" -le 5 -a "$(wc -l < "$T/out")" = 1
fi

rc=$(run "$RP" trace --seconds 1 --ringbuf)
if [ "$rc" = 1 ] && refused; then
  skip "trace --ringbuf" "kernel refused: $(head -1 "$T/err")"
else
  check "trace --ringbuf: >= 1 event, 0 corrupt" test "$rc" = 0 -a -n "$(grep -E '^ringproof trace: [1-9][0-9]* events.* 0 corrupt' "$T/out")"
fi
kill "$load_pid" 2>/dev/null; wait "$load_pid" 2>/dev/null

# ---- pipe on pinned maps ---------------------------------------------------
bpffs=1
if ! mount | grep -q ' /sys/fs/bpf type bpf'; then
  mount -t bpf bpf /sys/fs/bpf 2>/dev/null || bpffs=0
fi
payload20=0102030405060708090a0b0c0d0e0f1011121314
if [ $bpffs = 0 ]; then
  skip "pipe PERF_EVENT_ARRAY --json" "no bpffs at /sys/fs/bpf and mounting it was refused"
  skip "pipe PERF_EVENT_ARRAY hex" "no bpffs"
  skip "pipe RINGBUF" "no bpffs"
else
  "$EMIT" pin-perf "$PIN-perf" 2> "$T/err"; erc=$?
  if [ $erc = 3 ]; then
    skip "pipe PERF_EVENT_ARRAY --json" "kernel refused bpf: $(cat "$T/err")"
    skip "pipe PERF_EVENT_ARRAY hex" "kernel refused bpf"
  elif [ $erc != 0 ]; then
    nok "pipe PERF_EVENT_ARRAY --json" "emit pin-perf failed: $(cat "$T/err")"
  else
    timeout 10 "$RP" pipe "$PIN-perf" --count 5 --json > "$T/pipe.out" 2> "$T/pipe.err" &
    pid=$!
    "$EMIT" perf "$PERF_OBJ" "$PIN-perf" 5 20 2> "$T/emit.err"; erc=$?
    wait $pid; rc=$?
    good=$(python3 - "$T/pipe.out" "$payload20" '{"cpu": 0, "size": 20}' <<'PY' 2>/dev/null
import json, sys, time
# every event: the expected fields and bytes, and a receipt time (ns since the epoch) within the last minute
want = dict(json.loads(sys.argv[3]), data=sys.argv[2]); now = time.time_ns()
def ok(o): return 0 <= now - o.pop("time_ns", -10**30) < 60 * 10**9 and o == want
print(sum(1 for l in open(sys.argv[1]) if ok(json.loads(l))))
PY
)
    check "pipe PERF_EVENT_ARRAY --json: 5 events from BPF_PROG_TEST_RUN, exact bytes and a receipt time (rc=$rc emit=$erc good=$good)" \
      test "$rc" = 0 -a "$erc" = 0 -a "$good" = 5 -a "$(wc -l < "$T/pipe.out")" = 5

    timeout 10 "$RP" pipe "$PIN-perf" --count 2 --cpu 0 > "$T/pipe.out" 2> "$T/pipe.err" &
    pid=$!
    "$EMIT" perf "$PERF_OBJ" "$PIN-perf" 2 20 2> "$T/emit.err"; erc=$?
    wait $pid; rc=$?
    check "pipe PERF_EVENT_ARRAY --cpu 0 hex dump (rc=$rc emit=$erc)" \
      test "$rc" = 0 -a "$erc" = 0 -a "$(grep -cE '^\[[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{9}\] CPU 0: 20 bytes$' "$T/pipe.out")" = 2 \
           -a "$(grep -c '^  01 02 03 04 05 06 07 08 09 0a 0b 0c 0d 0e 0f 10$' "$T/pipe.out")" = 2
    # after pipe exits, its buffers must be gone from the map again
    timeout 0.5 "$EMIT" perf "$PERF_OBJ" "$PIN-perf" 1 20 2> /dev/null; erc=$?
    check "pipe removes its buffers from the map on exit" test "$erc" != 0
  fi
  rm -f "$PIN-perf" 2>/dev/null

  "$EMIT" pin-ringbuf "$PIN-rb" 2> "$T/err" && "$EMIT" ringbuf "$RB_OBJ" "$PIN-rb" 3 20 2>> "$T/err"; erc=$?
  if [ $erc = 3 ]; then
    skip "pipe RINGBUF" "kernel refused bpf: $(cat "$T/err")"
  elif [ $erc != 0 ]; then
    nok "pipe RINGBUF" "emit failed: $(cat "$T/err")"
  else
    rc=$(timeout 10 "$RP" pipe "$PIN-rb" --count 3 --json > "$T/pipe.out" 2> "$T/pipe.err"; echo $?)
    good=$(python3 - "$T/pipe.out" "$payload20" '{"size": 20}' <<'PY' 2>/dev/null
import json, sys, time
want = dict(json.loads(sys.argv[3]), data=sys.argv[2]); now = time.time_ns()
def ok(o): return 0 <= now - o.pop("time_ns", -10**30) < 60 * 10**9 and o == want
print(sum(1 for l in open(sys.argv[1]) if ok(json.loads(l))))
PY
)
    check "pipe RINGBUF --json: 3 events produced before attaching, exact bytes and a receipt time (rc=$rc good=$good)" \
      test "$rc" = 0 -a "$good" = 3 -a "$(wc -l < "$T/pipe.out")" = 3
    rc=$(run "$RP" pipe "$PIN-rb" --cpu 0)
    check "pipe RINGBUF --cpu is a usage error" test "$rc" = 2
    if ! command -v bpftool > /dev/null; then
      skip "pipe id ID" "bpftool not installed"
    else
      mid=$(bpftool -j map show pinned "$PIN-rb" | python3 -c 'import json, sys; print(json.load(sys.stdin)["id"])')
      "$EMIT" ringbuf "$RB_OBJ" "$PIN-rb" 3 20 2> "$T/err"; erc=$?
      rc=$(timeout 10 "$RP" pipe id "$mid" --count 3 --json > "$T/pipe.out" 2> "$T/pipe.err"; echo $?)
      check "pipe id ID reads the map of that id (id=$mid rc=$rc emit=$erc)" \
        test "$rc" = 0 -a "$erc" = 0 -a "$(grep -c "\"data\":\"$payload20\"" "$T/pipe.out")" = 3
    fi
  fi
  rm -f "$PIN-rb" 2>/dev/null

  # Errors that used to read "needs root or CAP_BPF" whatever the cause.
  echo x > "$T/notamap"
  rc=$(run "$RP" pipe "$T/notamap")
  check "pipe on a file outside bpffs says so (rc=$rc)" test "$rc" = 1 -a -n "$(grep 'not on a bpffs mount' "$T/err")"
  if ! command -v bpftool > /dev/null; then
    skip "pipe names the type of a wrong map" "bpftool not installed"
    skip "pipe explains a file-permission error" "bpftool not installed"
  elif ! bpftool map create "$PIN-hash" type hash key 4 value 4 entries 1 name rp_test_hash 2> "$T/err"; then
    skip "pipe names the type of a wrong map" "bpftool map create refused: $(head -1 "$T/err")"
    skip "pipe explains a file-permission error" "bpftool map create refused"
  else
    rc=$(run "$RP" pipe "$PIN-hash")
    check "pipe names the type of a wrong map (rc=$rc)" \
      test "$rc" = 1 -a -n "$(grep 'is a hash map (type 1), not a perf_event_array or ringbuf map' "$T/err")"
    rc=$(run "$RP" pipe name rp_test_hash)
    check "pipe name NAME finds the map of that name (rc=$rc)" \
      test "$rc" = 1 -a -n "$(grep '^ringproof pipe: rp_test_hash is a hash map' "$T/err")"
    if [ "$(nproc)" -lt 2 ]; then
      skip "pipe on a map with fewer entries than CPUs" "one online CPU"
    elif ! bpftool map create "$PIN-small" type perf_event_array key 4 value 4 entries 1 name rp_test_small 2> "$T/err"; then
      nok "pipe on a map with fewer entries than CPUs" "bpftool map create: $(head -1 "$T/err")"
    else
      rc=$(run timeout 1 "$RP" pipe "$PIN-small")
      rc2=$(run "$RP" pipe "$PIN-small" --cpu 1)
      check "pipe on a map with fewer entries than CPUs names the CPUs left out (rc=$rc rc2=$rc2)" \
        test "$rc" = 124 -a "$rc2" = 1 -a -n "$(grep 'CPU 1 has no entry in the map' "$T/err")" \
             -a -n "$(grep 'warning: the map has no entry for 1 online CPU (1)' "$T/err")"
      rm -f "$PIN-small"
    fi
    chmod 000 "$PIN-hash"
    if ! command -v setpriv > /dev/null; then
      skip "pipe explains a file-permission error" "setpriv not installed"
    else
      # a copy nobody can execute (the build tree may sit under a private home)
      nb=$(mktemp -d /tmp/ringproof-nobody.XXXXXX) && chmod 755 "$nb" && cp "$RP" "$nb/ringproof"
      rc=$(run setpriv --reuid=65534 --regid=65534 --clear-groups "$nb/ringproof" pipe "$PIN-hash")
      check "pipe explains a file-permission error (rc=$rc: $(head -1 "$T/err"))" \
        test "$rc" = 1 -a -n "$(grep "permission denied by the pinned file's mode or owner" "$T/err")"
      rm -rf "$nb"
    fi
    rm -f "$PIN-hash"
  fi
fi

# ---- record ------------------------------------------------------------------
rc=$(run "$RP" record -F 999 -- sh -c 'i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done')
if [ "$rc" = 1 ] && refused; then
  skip "record samples a busy command" "kernel refused perf: $(head -1 "$T/err")"
else
  samples=$(sed -nE 's/^# Samples: ([0-9]+) of event.*/\1/p' "$T/out")
  check "record samples a busy command (rc=$rc samples=${samples:-none})" \
    test "$rc" = 0 -a "${samples:-0}" -ge 5 -a -n "$(grep -E '^ +[0-9.]+% +sh +[0-9]+ ' "$T/out")"
fi
rc=$(run "$RP" record -- /nonexistent/command)
check "record of a missing command exits 1" test "$rc" = 1 -a -n "$(grep -i 'No such file' "$T/err")"
rc=$(run "$RP" record -- sh -c 'exit 3')
check "record passes the command's exit status through (exit 3)" test "$rc" = 3 -a -n "$(grep 'status 3' "$T/err")"

. "$(dirname "${BASH_SOURCE[0]}")/trace_checks.sh"
. "$(dirname "${BASH_SOURCE[0]}")/record_checks.sh"
. "$(dirname "${BASH_SOURCE[0]}")/text_checks.sh"
. "$(dirname "${BASH_SOURCE[0]}")/record_file_checks.sh"
. "$(dirname "${BASH_SOURCE[0]}")/output_checks.sh"

echo "1..$n"
