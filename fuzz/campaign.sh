#!/usr/bin/env bash
# make fuzz ENGINE=libfuzzer|afl HARNESS=name FUZZ_SECONDS=N
# A long campaign; new inputs accumulate in $BUILD/fuzz/campaign/<harness>/
# (fold the ones that reach a new edge into fuzz/corpus/<harness>/ with
# `make fuzz-fold`, or merge them all by coverage with `make fuzz-minimize`).
set -u
build=${BUILD:-build}
e=$1 h=$2 secs=$3
case $e in libfuzzer|afl) ;; *) echo "ENGINE must be libfuzzer or afl"; exit 2;; esac
source "$(dirname "$0")/engines.sh"
work=$build/fuzz/work/$h-$e
rm -rf "$work"; mkdir -p "$work"
if fz_run "$e" "$h" "$secs" "$work" "$build/fuzz/campaign/$h"; then
  echo "fuzz $h/$e: nothing found ($FZ_STATS)"
else
  echo "fuzz $h/$e: FAILED: $FZ_WHY ($FZ_STATS)"
  echo "crashing inputs: $build/fuzz/crashes/$h/ -> copy them to fuzz/regressions/$h/"
  exit 1
fi
