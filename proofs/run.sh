#!/usr/bin/env bash
# make proofs: Frama-C/WP with RTE guards over every function in core/.
#   proofs/run.sh [FILES...]          default: every core/*.c
# Environment: RP_WP_FCT=f1,f2 (only those functions), RP_PROOF_DIR (output),
# RP_WP_EXTRA (more WP options), RP_WP_TIMEOUT (seconds per goal), RP_NO_SMOKE=1 (skip smoke tests),
# RP_SMOKE_TIMEOUT (seconds per smoke test, default 2: a passing smoke test
# costs its whole timeout; the dead code found so far took cvc4 0.2 s).
# Fails unless every goal is proved, every smoke test passes, the trusted base
# equals proofs/trusted-base.txt, and core/ holds no admit or unproved axiom.
set -u
cd "$(dirname "$0")/.."
out=${RP_PROOF_DIR:-build/proofs}
mkdir -p "$out"
out=$(cd "$out" && pwd)
files=("$@")
[ ${#files[@]} = 0 ] && files=($(ls core/*.c | sort))
timeout=${RP_WP_TIMEOUT:-60}
fct=()
[ -n "${RP_WP_FCT:-}" ] && fct=(-wp-fct "$RP_WP_FCT")
[ -n "${RP_WP_EXTRA:-}" ] && fct+=($RP_WP_EXTRA)
# Functions listed in proofs/pending.txt are proved apart (full runs only).
pending=$(sed -n 's/^\([a-z_0-9]*\):.*/\1/p' proofs/pending.txt 2>/dev/null | paste -sd, -)
[ -z "${RP_WP_FCT:-}" ] && [ -n "$pending" ] && fct+=(-wp-skip-fct "$pending")
fail=0

if grep -rnwE 'admit|check_admit' core proofs/*.acsl 2>/dev/null; then
  echo "proofs: 'admit' found in core/"; fail=1
fi
if grep -rnw 'axiom' core 2>/dev/null; then
  echo "proofs: 'axiom' in core/ (axioms are not proofs: write a lemma)"; fail=1
fi

conf=${RP_WHY3CONF:-$out/why3.conf}
if [ ! -s "$conf" ]; then
  why3 config detect -C "$conf" >/dev/null 2>&1 || { echo "proofs: why3 config detect failed"; exit 1; }
  cat proofs/why3-cvc5.conf >> "$conf"
fi
export WHY3CONFIG=$conf

common=(-machdep x86_64 -cpp-extra-args="-Icore" -wp -wp-rte
  -warn-unsigned-overflow -warn-unsigned-downcast -warn-signed-overflow -warn-signed-downcast
  -wp-definitions-terminate -wp-split -wp-par 2 -wp-cache none)

t0=$(date +%s)
rm -f "$out/wp.json" "$out/report.json"
frama-c "${common[@]}" "${fct[@]}" -wp-prover cvc4,cvc5 -wp-timeout "$timeout" \
  -wp-report-json "$out/wp.json" "${files[@]}" \
  -then -report -report-classify -report-unclassified-unknown ERROR \
  -report-unclassified-invalid ERROR -report-output "$out/report.json" \
  > "$out/wp.log" 2>&1
rc=$?
t1=$(date +%s)
grep -E '^\[wp\] (\[[A-Za-z]+\]|Proved goals)|Unknown|Timeout|Failed|error|Error' "$out/wp.log" | grep -v 'Valid' | head -40
grep -E 'Proved goals' "$out/wp.log"
# -report also flags the properties of skipped (pending) functions, so its
# exit status counts only when nothing is skipped; wp.json is the verdict.
# (a run restricted by RP_WP_FCT: likewise, the other functions stay unproved).
if [ $rc != 0 ] && { [ ! -s "$out/wp.json" ] || { [ -z "$pending" ] && [ -z "${RP_WP_FCT:-}" ]; }; }; then
  echo "proofs: frama-c exited $rc (see $out/wp.log)"; fail=1
fi

total=$(jq '."wp:global"."wp:main".total // 0' "$out/wp.json" 2>/dev/null || echo 0)
valid=$(jq '."wp:global"."wp:main".valid // 0' "$out/wp.json" 2>/dev/null || echo 0)
[ "$total" -gt 0 ] && [ "$total" = "$valid" ] || { echo "proofs: $valid of $total goals proved"; fail=1; }

# Trusted base: the external clauses WP had to take on trust.
grep -E '^\s*\[\s*Extern\s*\]' "$out/wp.log" | sed -E 's/^\s*//' | sort -u > "$out/trusted-base.txt"
if ! diff -u proofs/trusted-base.txt "$out/trusted-base.txt"; then
  echo "proofs: the trusted base differs from proofs/trusted-base.txt"; fail=1
fi

smoke_ok=0; smoke_bad=0
if [ "${RP_NO_SMOKE:-0}" != 1 ]; then
  rm -f "$out/smoke.json"
  frama-c "${common[@]}" "${fct[@]}" -wp-smoke-tests -wp-smoke-timeout "${RP_SMOKE_TIMEOUT:-2}" \
    -wp-prop=-@assert,-@ensures,-@requires,-@assigns,-@invariant,-@variant,-@check,-@lemma,-@rte,-@complete_behaviors,-@disjoint_behaviors,-@exits,-@breaks,-@continues,-@returns,-@terminates,-@decreases,-@calls,-@from \
    -wp-prover cvc4 -wp-report-json "$out/smoke.json" "${files[@]}" > "$out/smoke.log" 2>&1
  src=$?
  # Frama-C 25 prints "[wp] [Passed] Smoke-test <goal>" for a smoke goal that
  # could not be proved (the good outcome) and another status otherwise.
  smoke_ok=$(grep -cE '\[Passed\] Smoke-test' "$out/smoke.log" || true)
  smoke_bad=$(grep -E 'Smoke-test|Doomed|[Dd]ead code' "$out/smoke.log" | grep -cv '\[Passed\] Smoke-test' || true)
  grep -E 'Smoke-test|Doomed|[Dd]ead code' "$out/smoke.log" | grep -v '\[Passed\] Smoke-test' | head -20
  [ $src = 0 ] || { echo "proofs: the smoke-test run exited $src (see $out/smoke.log)"; fail=1; }
  [ "$smoke_ok" -gt 0 ] || { echo "proofs: no smoke test ran"; fail=1; }
  [ "$smoke_bad" = 0 ] || { echo "proofs: $smoke_bad smoke tests failed (a contradictory precondition or dead code)"; fail=1; }
fi

# Pending functions: prove them alone and report, as skipped, what is left.
if [ -z "${RP_WP_FCT:-}" ] && [ -n "$pending" ]; then
  while IFS= read -r line; do
    case "$line" in ''|'#'*) continue ;; esac
    f=${line%%:*}; why=${line#*: }
    rm -f "$out/pending-$f.json"
    frama-c "${common[@]}" -wp-fct "$f" -wp-prover cvc4,cvc5 -wp-timeout 10 \
      -wp-report-json "$out/pending-$f.json" "${files[@]}" > "$out/pending-$f.log" 2>&1
    pt=$(jq '."wp:global"."wp:main".total // 0' "$out/pending-$f.json" 2>/dev/null || echo 0)
    pv=$(jq '."wp:global"."wp:main".valid // 0' "$out/pending-$f.json" 2>/dev/null || echo 0)
    echo "proofs: PENDING $f: $pv/$pt goals proved ($why)"
    [ -n "${RP_RESULTS:-}" ] && echo "SKIP proof-$f: $pv/$pt goals proved; $why" >> "$RP_RESULTS"
  done < proofs/pending.txt
fi
t2=$(date +%s)

per_fct=$(jq -c '[."wp:functions" // {} | to_entries[] | {function: .key, total: (.value | [.[]."wp:main".total // 0] | add // 0), proved: (.value | [.[]."wp:main".valid // 0] | add // 0)}]' "$out/wp.json" 2>/dev/null || echo '[]')
cat > "$out/summary.json" <<JSON
{"total": $total, "proved": $valid, "smoke_passed": $smoke_ok, "smoke_failed": $smoke_bad,
 "wp_seconds": $((t1 - t0)), "smoke_seconds": $((t2 - t1)), "functions": $per_fct}
JSON
[ -n "${RP_RESULTS:-}" ] && { [ $fail = 0 ] && echo "PASS proofs: $valid/$total goals, $smoke_ok smoke tests" || echo "FAIL proofs: $valid/$total goals proved, $smoke_bad smoke tests failed"; } >> "$RP_RESULTS"
echo "proofs: $valid/$total goals proved, smoke tests: $smoke_ok passed, $smoke_bad failed, $((t2 - t0)) s"
exit $fail
