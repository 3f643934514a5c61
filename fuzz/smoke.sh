#!/usr/bin/env bash
# make fuzz-smoke: every harness with both engines for FUZZ_SMOKE_SECONDS each,
# FUZZ_SMOKE_JOBS runs at a time (default: one per CPU).
# One PASS/FAIL line per harness x engine (also appended to $RP_RESULTS).
# FAIL on any crash, hang, leak, sanitizer report or oracle failure; crashing
# inputs are kept under $BUILD/fuzz/crashes/<harness>/ (add them to
# fuzz/regressions/<harness>/ once understood).
#   BUILD=build FUZZ_SMOKE_SECONDS=12 [FUZZ_ENGINES="libfuzzer afl"] bash fuzz/smoke.sh HARNESS...
set -u
build=${BUILD:-build}
secs=${FUZZ_SMOKE_SECONDS:-12}
engines=${FUZZ_ENGINES:-libfuzzer afl}
jobs=${FUZZ_SMOKE_JOBS:-$(nproc 2>/dev/null || echo 1)}
res=${RP_RESULTS:-/dev/null}
source "$(dirname "$0")/engines.sh"

# one run; its verdict line goes to $work/verdict
smoke_one() {
  local h=$1 e=$2 work=$build/fuzz/smoke/$1-$2
  rm -rf "$work"; mkdir -p "$work"
  if fz_run "$e" "$h" "$secs" "$work"; then
    echo "PASS fuzz-smoke/$h/$e ($FZ_STATS)" > "$work/verdict"
  else
    echo "FAIL fuzz-smoke/$h/$e: $FZ_WHY ($FZ_STATS)" > "$work/verdict"
  fi
}

runs=()
for h in "$@"; do for e in $engines; do runs+=("$h $e"); done; done
running=0
for r in "${runs[@]}"; do
  set -- $r
  smoke_one "$1" "$2" &
  running=$((running + 1))
  if [ $running -ge "$jobs" ]; then wait -n; running=$((running - 1)); fi
done
wait

fail=0
for r in "${runs[@]}"; do
  set -- $r
  v=$build/fuzz/smoke/$1-$2/verdict
  if [ -s "$v" ]; then cat "$v"; else echo "FAIL fuzz-smoke/$1/$2: no verdict"; fi | tee -a "$res"
  grep -q '^PASS' "$v" 2>/dev/null || fail=1
done
exit $fail
