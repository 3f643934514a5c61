#!/usr/bin/env bash
# make fuzz-regress: replay fuzz/regressions/<h>/ and fuzz/corpus/<h>/ through
# the gcc replay build of each harness (ASan+UBSan); make fuzz-msan: the same
# through the clang MemorySanitizer build (FUZZ_REPLAY=msan).  One result
# line per harness, named after the target.
#   BUILD=build [FUZZ_REPLAY=replay|msan] bash fuzz/regress.sh HARNESS...
set -u
build=${BUILD:-build}
kind=${FUZZ_REPLAY:-replay}
case $kind in replay) suite=fuzz-regress;; msan) suite=fuzz-msan;; *) echo "FUZZ_REPLAY must be replay or msan"; exit 2;; esac
res=${RP_RESULTS:-/dev/null}
fail=0
for h in "$@"; do
  dirs=()
  for d in fuzz/regressions/$h fuzz/corpus/$h; do
    [ -d "$d" ] && [ -n "$(ls -A "$d")" ] && dirs+=("$d")
  done
  if [ ${#dirs[@]} = 0 ]; then
    echo "SKIP $suite/$h: no regression or corpus inputs committed" | tee -a "$res"
    continue
  fi
  out=$("$build/fuzz/$kind/$h" "${dirs[@]}" 2>&1); rc=$?
  # MSan of LLVM 14 cannot lay out its shadow under a kernel that randomises
  # mmap with more than 28 bits (vm.mmap_rnd_bits): run without ASLR then,
  # and skip (the machine refuses it) if that is refused too.
  if [ $kind = msan ] && [ $rc != 0 ] && grep -q 'unexpected memory mapping' <<< "$out"; then
    out=$(setarch "$(uname -m)" -R "$build/fuzz/$kind/$h" "${dirs[@]}" 2>&1); rc=$?
    if [ $rc != 0 ] && grep -qE 'unexpected memory mapping|failed to set personality' <<< "$out"; then
      echo "SKIP $suite/$h: MemorySanitizer cannot map its shadow here ($(grep -m1 -E 'unexpected memory mapping|failed to set personality' <<< "$out"))" | tee -a "$res"
      continue
    fi
  fi
  if [ $rc = 0 ]; then
    echo "PASS $suite/$h ($(echo "$out" | tail -1))" | tee -a "$res"
  else
    echo "$out" | tail -60
    echo "FAIL $suite/$h: replay of ${dirs[*]} failed" | tee -a "$res"
    fail=1
  fi
done
exit $fail
