#!/usr/bin/env bash
# Run the unit test binaries, printing cmocka's TAP for ci/suite.sh.
#   tests/unit/run.sh [--valgrind] BINARY...
# With --valgrind each binary runs under memcheck and adds one TAP line of its
# own, "memcheck <binary>", which fails on any memcheck error or leak (a test
# failure alone shows up in cmocka's lines).  Exit status: non-zero if any
# binary failed.
set -u
vg=0
if [ "${1:-}" = "--valgrind" ]; then vg=1; shift; fi
export CMOCKA_MESSAGE_OUTPUT=TAP
rc=0
for bin in "$@"; do
  name=$(basename "$bin")
  if [ $vg = 0 ]; then
    "$bin" || rc=1
    continue
  fi
  vglog="$bin.memcheck.log"
  valgrind --error-exitcode=1 --leak-check=full --errors-for-leak-kinds=definite,indirect \
    --log-file="$vglog" "$bin"
  brc=$?
  sed 's/^/# /' "$vglog"
  if grep -q 'ERROR SUMMARY: 0 errors' "$vglog"; then
    echo "ok 1 - memcheck $name"
  else
    echo "not ok 1 - memcheck $name: $(grep -o 'ERROR SUMMARY: [0-9]* errors' "$vglog")"
  fi
  [ $brc = 0 ] || rc=1
done
exit $rc
