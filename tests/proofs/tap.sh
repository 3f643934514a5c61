# TAP for the tests of the proof tooling (sourced): a scratch directory $t,
# removed on exit; check NAME COMMAND... (one TAP line: ok when COMMAND
# succeeds); tap_end (the plan, then exit non-zero if any check failed).
t=$(mktemp -d); trap 'rm -rf "$t"' EXIT
n=0; bad=0
check() {
  local name=$1; shift
  n=$((n + 1))
  if "$@"; then echo "ok $n - $name"; else echo "not ok $n - $name"; bad=1; fi
}
tap_end() { echo "1..$n"; exit $bad; }
