#!/usr/bin/env bash
# Run one test suite and record its results for ci/check.sh.
#   ci/suite.sh NAME [--tap] -- COMMAND [ARGS...]
# The command may append its own lines to "$RP_RESULTS":
#   PASS <name> | FAIL <name>: <why> | SKIP <name>: <reason>
# With --tap, TAP lines on its stdout ("ok", "not ok", "# SKIP") are counted.
# A command that writes no result counts as one PASS or FAIL by exit code; a
# non-zero exit always adds a FAIL, so a crash after good results still fails.
# Exits non-zero if any FAIL was recorded.
set -u
name=$1; shift
tap=0
if [ "${1:-}" = "--tap" ]; then tap=1; shift; fi
[ "${1:-}" = "--" ] && shift
dir=${RP_RESULTS_DIR:-build/results}
mkdir -p "$dir"
export RP_RESULTS="$dir/$name.txt"
log="$dir/$name.log"
: > "$RP_RESULTS"
echo "== $name: $*"
set -o pipefail
"$@" 2>&1 | tee "$log"
rc=$?
if [ $tap = 1 ]; then
  sed -nE \
    -e 's/^ok [0-9]+ (- )?(.*) # (SKIP|skip)\s*(.*)$/SKIP \2: \4/p' \
    -e '/# (SKIP|skip)/!s/^ok [0-9]+ (- )?(.*)$/PASS \2/p' \
    -e 's/^not ok [0-9]+ # (SKIP|skip)\s*(.*)$/SKIP \2: skipped (cmocka 1.1 prints skips as "not ok N # SKIP name")/p' \
    -e 's/^not ok [0-9]+ (- )?(.*)$/FAIL \2/p' "$log" >> "$RP_RESULTS"
fi
if [ ! -s "$RP_RESULTS" ]; then
  if [ $rc = 0 ]; then echo "PASS $name" >> "$RP_RESULTS"; else echo "FAIL $name: exit $rc" >> "$RP_RESULTS"; fi
elif [ $rc != 0 ] && ! grep -q '^FAIL' "$RP_RESULTS"; then
  echo "FAIL $name: exit $rc" >> "$RP_RESULTS"
fi
# make suite-NAME on its own fails when a check failed, even if the runner
# (a TAP script) exited 0
if [ $rc = 0 ] && grep -q '^FAIL' "$RP_RESULTS"; then rc=1; fi
exit $rc
