# Shared by smoke.sh, campaign.sh and mutants.sh (sourced, not run).
# fz_run ENGINE HARNESS SECONDS WORKDIR [OUTCORPUS]
#   Runs one engine on one harness, seeds from fuzz/corpus/<h> and
#   fuzz/regressions/<h>; new inputs go to OUTCORPUS (default WORKDIR/corpus).
#   Returns 0 when nothing was found.  Sets FZ_STATS (execs, exec/s, corpus)
#   and FZ_WHY (first line of the failure), FZ_EXECS, FZ_SECS (time to failure).
# Env: FZ_BIN_DIR overrides $BUILD/fuzz (mutant builds).

fz_since() { # seconds from $1 to $2 (default: now)
  awk -v a="${2:-$(date +%s.%N)}" -v b="$1" 'BEGIN { printf "%.1f", a - b }'
}

fz_dict() {
  if [ -f "fuzz/$1.dict" ]; then echo "fuzz/$1.dict"; else echo fuzz/ring.dict; fi
}

fz_seed_dirs() {
  local d
  for d in fuzz/corpus/$1 fuzz/regressions/$1; do
    [ -d "$d" ] && [ -n "$(ls -A "$d")" ] && echo "$d"
  done
}

fz_run() {
  local e=$1 h=$2 secs=$3 work=$4 out=${5:-$4/corpus}
  local bins=${FZ_BIN_DIR:-${BUILD:-build}/fuzz}
  local bin=$bins/$e/$h dict seeds t0
  dict=$(fz_dict "$h")
  mapfile -t seeds < <(fz_seed_dirs "$h")
  mkdir -p "$out" "$work"
  FZ_STATS=""; FZ_WHY=""; FZ_EXECS=0; FZ_SECS=0
  t0=$(date +%s.%N)
  if [ "$e" = libfuzzer ]; then
    local log=$work/libfuzzer.log rc
    timeout -k 5 $((secs + 60)) "$bin" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 \
      -print_final_stats=1 -dict="$dict" -artifact_prefix="$work/" "$out" "${seeds[@]}" > "$log" 2>&1
    rc=$?
    FZ_SECS=$(fz_since "$t0")
    FZ_EXECS=$(sed -nE 's/^stat::number_of_executed_units: *([0-9]+)/\1/p' "$log" | tail -1)
    [ -z "$FZ_EXECS" ] && FZ_EXECS=$(sed -nE 's/^#([0-9]+).*/\1/p' "$log" | tail -1)
    local eps
    eps=$(sed -nE 's/^stat::average_exec_per_sec: *([0-9]+)/\1/p' "$log" | tail -1)
    FZ_STATS="${FZ_EXECS:-0} execs, ${eps:-?} exec/s, corpus $(ls "$out" | wc -l) new files"
    if [ $rc != 0 ]; then
      FZ_WHY=$(grep -m1 -E 'FUZZ ORACLE FAILURE|ERROR: (AddressSanitizer|LeakSanitizer|UndefinedBehaviorSanitizer|libFuzzer)|runtime error|SUMMARY' "$log")
      [ -z "$FZ_WHY" ] && FZ_WHY="exit $rc, see $log"
      FZ_WHY="$FZ_WHY [log $log]"
      mkdir -p "${BUILD:-build}/fuzz/crashes/$h"
      cp "$work"/crash-* "$work"/leak-* "$work"/timeout-* "$work"/oom-* "${BUILD:-build}/fuzz/crashes/$h/" 2>/dev/null
      return 1
    fi
    return 0
  fi
  # AFL++: persistent mode, shared-memory test cases (fuzz/afl_driver.c)
  # The seed directories copied whole, one cp each (AFL++ reads -i
  # recursively; a cp per file took 2.3 s for perf_buffer's 374 seeds, one
  # per directory 0.04 s).
  local in=$work/afl-in o=$work/afl-out d n=0
  rm -rf "$in" "$o"; mkdir -p "$in"
  for d in "${seeds[@]}" "$out"; do
    [ -n "$(ls -A "$d" 2>/dev/null)" ] && cp -r "$d" "$in/$((n += 1))"
  done
  [ -n "$(find "$in" -type f -print -quit)" ] || printf 'seed' > "$in/s0"
  AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_UI=1 AFL_NO_AFFINITY=1 \
  AFL_QUIET=1 \
    timeout -k 5 $((secs + 120)) afl-fuzz -i "$in" -o "$o" -V "$secs" -m none -t 2000 -x "$dict" \
    -- "$bin" > "$work/afl.log" 2>&1
  local rc=$?
  FZ_SECS=$(fz_since "$t0")
  local stats=$o/default/fuzzer_stats crashes hangs
  if [ ! -f "$stats" ]; then
    FZ_WHY="afl-fuzz did not start (exit $rc): $(grep -m1 -E 'PROGRAM ABORT|ERROR' "$work/afl.log") [log $work/afl.log]"
    return 1
  fi
  FZ_EXECS=$(sed -nE 's/^execs_done *: *([0-9]+)/\1/p' "$stats")
  local eps
  eps=$(sed -nE 's/^execs_per_sec *: *([0-9.]+)/\1/p' "$stats")
  crashes=$(ls "$o"/default/crashes/id:* 2>/dev/null | wc -l)
  hangs=$(ls "$o"/default/hangs/id:* 2>/dev/null | wc -l)
  FZ_STATS="$FZ_EXECS execs, $eps exec/s, queue $(ls "$o"/default/queue | wc -l) files"
  cp "$o"/default/queue/id:* "$out/" 2>/dev/null
  if [ "$crashes" != 0 ] || [ "$hangs" != 0 ]; then
    mkdir -p "${BUILD:-build}/fuzz/crashes/$h"
    cp "$o"/default/crashes/id:* "$o"/default/hangs/id:* "${BUILD:-build}/fuzz/crashes/$h/" 2>/dev/null
    local first
    first=$(ls "$o"/default/crashes/id:* "$o"/default/hangs/id:* 2>/dev/null | head -1)
    FZ_WHY="$crashes crashes, $hangs hangs: $( { "$bins/$e/$h" < "$first"; } 2>&1 | grep -m1 -E 'FUZZ ORACLE|ERROR|runtime error|  ' ) [input $first]"
    # time to first crash, from the crash file's mtime
    FZ_SECS=$(fz_since "$t0" "$(stat -c %.3Y "$first")")
    return 1
  fi
  if [ $rc != 0 ]; then
    FZ_WHY="afl-fuzz exit $rc [log $work/afl.log]"
    return 1
  fi
  return 0
}
