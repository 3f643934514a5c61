#!/usr/bin/env bash
# Run the conservation-under-overload tests N times (default 20) and report
# how many runs held exactly: delivered == successes, sum(LOST) == -ENOSPC.
# Each run does both variants: a synchronous consumer (deterministic) and a
# consumer thread polling while the producer runs (racy on purpose).
#   tests/integration/conservation_loop.sh [N]
# Needs `make itest` first (BUILD=build by default).
set -u
cd "$(dirname "$0")/../.."
n=${1:-20}
build=${BUILD:-build}
bin=$build/itest/rp_itest
export RP_ITEST_BPF=${RP_ITEST_BPF:-$build/bpf/itest_emit.bpf.o}
[ -x "$bin" ] || { echo "missing $bin: run make itest" >&2; exit 2; }
pass=0; fail=0; skip=0
for i in $(seq 1 "$n"); do
  out=$("$bin" --only buffer_conservation --only buffer_conservation_concurrent 2>&1)
  if grep -q '# SKIP' <<<"$out"; then skip=$((skip + 1))
  elif [ "$(grep -c '^ok ' <<<"$out")" = 2 ] && ! grep -q '^not ok' <<<"$out"; then
    pass=$((pass + 1))
  else fail=$((fail + 1)); echo "run $i failed:"; echo "$out"; fi
  grep '^# buffer_conservation' <<<"$out" | sed "s/^/run $i: /"
done
echo "conservation: $pass/$n runs exact (both variants), $fail failed, $skip skipped"
[ $fail = 0 ]
