#!/usr/bin/env bash
# make fuzz-smoke: every harness with both engines for FUZZ_SMOKE_SECONDS each.
# One PASS/FAIL line per harness x engine (also appended to $RP_RESULTS).
# FAIL on any crash, hang, leak, sanitizer report or oracle failure; crashing
# inputs are kept under $BUILD/fuzz/crashes/<harness>/ (add them to
# fuzz/regressions/<harness>/ once understood).
#   BUILD=build FUZZ_SMOKE_SECONDS=30 [FUZZ_ENGINES="libfuzzer afl"] bash fuzz/smoke.sh HARNESS...
set -u
build=${BUILD:-build}
secs=${FUZZ_SMOKE_SECONDS:-30}
engines=${FUZZ_ENGINES:-libfuzzer afl}
res=${RP_RESULTS:-/dev/null}
fail=0
source "$(dirname "$0")/engines.sh"

for h in "$@"; do
  for e in $engines; do
    work=$build/fuzz/smoke/$h-$e
    rm -rf "$work"; mkdir -p "$work"
    if fz_run "$e" "$h" "$secs" "$work"; then
      echo "PASS fuzz-smoke/$h/$e ($FZ_STATS)" | tee -a "$res"
    else
      echo "FAIL fuzz-smoke/$h/$e: $FZ_WHY ($FZ_STATS)" | tee -a "$res"
      fail=1
    fi
  done
done
exit $fail
