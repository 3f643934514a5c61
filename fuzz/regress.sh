#!/usr/bin/env bash
# make fuzz-regress: replay fuzz/regressions/<h>/ and fuzz/corpus/<h>/ through
# the gcc replay build of each harness.  One result line per harness.
#   BUILD=build bash fuzz/regress.sh HARNESS...
set -u
build=${BUILD:-build}
res=${RP_RESULTS:-/dev/null}
fail=0
for h in "$@"; do
  dirs=()
  for d in fuzz/regressions/$h fuzz/corpus/$h; do
    [ -d "$d" ] && [ -n "$(ls -A "$d")" ] && dirs+=("$d")
  done
  if [ ${#dirs[@]} = 0 ]; then
    echo "SKIP fuzz-regress/$h: no regression or corpus inputs committed" | tee -a "$res"
    continue
  fi
  if out=$("$build/fuzz/replay/$h" "${dirs[@]}" 2>&1); then
    echo "PASS fuzz-regress/$h ($(echo "$out" | tail -1))" | tee -a "$res"
  else
    echo "$out" | tail -30
    echo "FAIL fuzz-regress/$h: replay of ${dirs[*]} failed" | tee -a "$res"
    fail=1
  fi
done
exit $fail
