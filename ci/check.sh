#!/usr/bin/env bash
# make check / make test: run suites, keep going past failures, sum results.
#   ci/check.sh [--no-deps] SUITE...
set -u
cd "$(dirname "$0")/.."
deps=1
if [ "${1:-}" = "--no-deps" ]; then deps=0; shift; fi
dir=${RP_RESULTS_DIR:-build/results}
export RP_RESULTS_DIR=$dir
mkdir -p "$dir"
start=$(date +%s)
if [ $deps = 1 ]; then
  bash ci/deps.sh || { echo "0 passed, 1 failed"; exit 1; }
fi
for s in "$@"; do rm -f "$dir/$s.txt"; done
for s in "$@"; do
  t0=$(date +%s)
  make --no-print-directory "suite-$s"
  echo "== $s: $(( $(date +%s) - t0 )) s"
done
pass=0; fail=0; skip=0
for s in "$@"; do
  f="$dir/$s.txt"
  if [ ! -s "$f" ]; then echo "FAIL $s: suite wrote no result"; fail=$((fail + 1)); continue; fi
  p=$(grep -c '^PASS' "$f"); x=$(grep -c '^FAIL' "$f"); k=$(grep -c '^SKIP' "$f")
  pass=$((pass + p)); fail=$((fail + x)); skip=$((skip + k))
  grep -E '^(FAIL|SKIP)' "$f" | sed "s/^/[$s] /"
done
echo "check took $(( $(date +%s) - start )) s"
echo "$pass passed, $fail failed, $skip skipped"
[ $fail = 0 ]
