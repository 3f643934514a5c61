#!/usr/bin/env bash
# make proofs / make proofs-full / make proof FCT=f: Frama-C/WP with RTE
# guards over every function in core/, then the smoke tests.
#   proofs/run.sh [FILES...]          default: every core/*.c
#
# Deterministic: provers are bounded by step counts (cvc4/cvc5 --rlimit),
# never by the clock, so a busy machine gives the same verdict as a quiet
# one.  A wall-clock limit exists only as a safety net far above what the
# step limit can take; a goal that reaches it fails the run and says so.
#
# Fast, three ways:
#  - two tiers: every goal first gets RP_STEPS_FAST steps; only the
#    functions with goals left unproved are proved again with RP_STEPS (the
#    cache below replays their proved goals, so provers run on the rest);
#  - the byte compositions (rp_bytes_u*) need WP's bitshift tactic, which
#    only starts after the provers fail: they are proved in a run of their
#    own with the small budget, so no goal ever burns the large one first;
#  - a per-goal result cache keyed by the exact proof task (WP's own cache:
#    an MD5 of the prover input), seeded from proofs/cache.json.  A changed
#    goal is a different task, so it misses the cache and is proved afresh;
#    a cached failure is re-run whenever the step limit is larger (cvc5's,
#    which WP stores without a step count, get their pass's budget:
#    proofs/cache.sh).
#    RP_PROOF_CACHE=none (make proofs-full) starts from an empty cache and
#    trusts no stored result; RP_PROOF_CACHE_SAVE=1 (make proofs-cache)
#    writes this run's results back to proofs/cache.json;
#  - RP_PROOF_JOBS (default 8) Frama-C processes side by side, each on every
#    RP_PROOF_JOBS-th function of the sorted list: WP's own work (goal
#    generation, simplification, task printing: most of the time) runs in
#    one thread per process, and a process leaves its core idle much of the
#    time (measured on 2 cores, 8,862 goals, warm cache: 2 processes 904 s
#    at a load average of 1.2-1.5, 4 processes 582 s, 8 processes 436 s;
#    about 1.2 GB of memory each).
#
# Environment: RP_WP_FCT=f1,f2 (only those functions), RP_PROOF_DIR
# (output), RP_WP_EXTRA (more WP options), RP_NO_SMOKE=1, RP_STEPS,
# RP_STEPS_FAST, RP_SMOKE_STEPS, RP_WP_PAR (provers per process),
# RP_PROOF_JOBS, RP_WP_POLL (below).
# Fails unless every goal is proved, every smoke test passes, the trusted
# base equals proofs/trusted-base.txt, and core/ holds no admit or axiom.
set -u
cd "$(dirname "$0")/.."
root=$PWD
# Ctrl-C or TERM stops the whole run, provers included (proofs/stop.sh).
. proofs/stop.sh
stop_on_signal proofs
out=${RP_PROOF_DIR:-build/proofs}
mkdir -p "$out"
out=$(cd "$out" && pwd)
files=("$@")
[ ${#files[@]} = 0 ] && files=($(ls core/*.c | sort))
steps=${RP_STEPS:-4000000}
steps_fast=${RP_STEPS_FAST:-100000}
smoke_steps=${RP_SMOKE_STEPS:-20000}
# One prover at a time per process: cvc4 first, cvc5 only where cvc4 did not
# prove the goal.  With two slots both provers race on a goal and the first
# to answer cancels the other, so which prover's result the cache holds
# changed from run to run and a replay missed it.  The processes
# (RP_PROOF_JOBS) keep the cores busy.
par=${RP_WP_PAR:-1}
jobs=${RP_PROOF_JOBS:-8}
safety=900   # seconds: never reached within the step limits on this machine kind
extra=()
[ -n "${RP_WP_EXTRA:-}" ] && extra=($RP_WP_EXTRA)
# The functions proved with the bitshift tactic (see above).
shift_fcts=$(grep -oE '^RP_INLINE [a-z0-9_]+ rp_bytes_u[0-9]+\(' core/rp_prim.h | grep -oE 'rp_bytes_u[0-9]+' | sort -u | paste -sd, -)
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

# The cache: a directory of WP result files, seeded from proofs/cache.json
# (its rules: proofs/cache.sh).
. proofs/cache.sh
cache=$out/cache
# RP_PROOF_CACHE_SHARED: a directory cache_share seeded instead, linked
# (the proof mutants: proofs/cache.json and proofs/mutants-cache.json,
# seeded once for all of them).
if [ -n "${RP_PROOF_CACHE_SHARED:-}" ]; then cache_link "$cache" "$RP_PROOF_CACHE_SHARED"
elif [ "${RP_PROOF_CACHE:-}" != none ]; then cache_seed "$cache" proofs/cache.json; else cache_seed "$cache"; fi
mark_failures() { cache_mark "$cache" "$1"; }
seeded=$(ls "$cache" | wc -l)

# WP's job scheduler polled every 10 ms instead of 50 (proofs/wp_poll.ml),
# in a run of some functions (make proof FCT=...), whose few processes wait
# on the polls; a full run's 8 processes fill each other's waits, and there
# the polls cost CPU.  RP_WP_POLL=on|off forces it either way.
. proofs/wp_poll.sh
poll=()
case ${RP_WP_POLL:-auto} in
  off) ;;
  on|auto)
    if [ "${RP_WP_POLL:-auto}" = on ] || [ -n "${RP_WP_FCT:-}" ]; then
      m=$(wp_poll_build "$out/wp_poll") && poll=(-load-module "$m") ||
        echo "proofs: running without proofs/wp_poll.ml (slower, the same verdict)"
    fi ;;
  *) echo "proofs: RP_WP_POLL=$RP_WP_POLL (on, off or auto)"; exit 2 ;;
esac

common=("${poll[@]}" -machdep x86_64 -cpp-extra-args="-Icore" -wp -wp-rte
  -warn-unsigned-overflow -warn-unsigned-downcast -warn-signed-overflow -warn-signed-downcast
  -wp-definitions-terminate -wp-split -wp-par "$par" -wp-status-all
  -wp-prover cvc4,cvc5 -wp-timeout "$safety" -wp-cache update -wp-cache-dir "$cache")

# One WP pass: wp NAME STEPS [OPTIONS...]; writes $out/NAME.{json,log}.
wp() {
  local name=$1 n=$2; shift 2
  rm -f "$out/$name.json"
  # in the background, so that a signal reaches the trap at once
  frama-c "${files[@]}" "${common[@]}" -wp-steps "$n" "${extra[@]}" \
    -wp-report-json "$out/$name.json" "$@" > "$out/$name.log" 2>&1 &
  wait $!
}
count() { jq ".\"wp:global\".\"wp:main\".$2 // 0" "$out/$1.json" 2>/dev/null || echo 0; }

# The functions of a pass, dealt round-robin into $jobs shards (sorted by
# name, so the large functions spread evenly); shard i is "fct_i".
shards() { # comma-separated functions [shard count] -> one line per non-empty shard
  printf '%s\n' ${1//,/ } | sort -u | awk -v j="${2:-$jobs}" '{ s[(NR - 1) % j] = s[(NR - 1) % j] (s[(NR - 1) % j] == "" ? "" : ",") $0 } END { for (i = 0; i < j; i++) if (s[i] != "") print s[i] }'
}
# A pass in shards, side by side: wp_sharded NAME STEPS FUNCTIONS [OPTIONS...]
# writes $out/NAME-<i>.{json,log}; returns the first non-zero exit status.
# With $large set (functions), those get their own shards with the whole
# budget $steps, and the others share the rest of the $jobs processes.
wp_sharded() {
  local name=$1 n=$2 list=$3 i=0 pids=() rc=0 p j=$jobs; shift 3
  rm -f "$out/$name"-*.json "$out/$name"-*.log
  if [ -n "$large" ]; then
    j=$(( jobs > 1 ? jobs / 2 : 1 ))
    while read -r f; do
      wp "$name-$i" "$steps" -wp-fct "$f" "$@" & pids+=($!); i=$((i + 1))
    done < <(shards "$large" "$(( jobs - j > 0 ? jobs - j : 1 ))")
  fi
  [ -z "$list" ] || while read -r f; do
    wp "$name-$i" "$n" -wp-fct "$f" "$@" & pids+=($!); i=$((i + 1))
  done < <(shards "$list" "$j")
  for p in "${pids[@]}"; do wait "$p" || { [ $rc != 0 ] || rc=$?; }; done
  return $rc
}
# Sum of a count over a pass's shards.
count_all() { local t=0 f; for f in "$out/$1"-*.json; do [ -s "$f" ] && t=$((t + $(count "$(basename "$f" .json)" "$2"))); done; echo $t; }
# Per function: "name total valid" from a pass's JSON reports.
per_fct() { cat "$out/$1"-*.json 2>/dev/null | jq -r '."wp:functions" // {} | to_entries[] | "\(.key) \(.value."wp:section"."wp:main".total // 0) \(.value."wp:section"."wp:main".valid // 0)"'; }

t0=$(date +%s)
shift_total=0; shift_valid=0
if [ -z "${RP_WP_FCT:-}" ] || [[ ",$RP_WP_FCT," =~ ,rp_bytes_u ]]; then
  wp shift "$steps_fast" -wp-fct "$shift_fcts" -wp-auto wp:bitshift
  mark_failures "$steps_fast"
  shift_total=$(count shift total); shift_valid=$(count shift valid)
fi
# Lemmas are global properties: a run restricted to functions (-wp-fct, as
# every pass below is) never proves them, so a full run proves every lemma
# of core/ in a pass of its own, and checks that none was missed.
lemma_total=0; lemma_valid=0; rm -f "$out/lemmas.json" "$out/lemmas.log"
if [ -z "${RP_WP_FCT:-}" ]; then
  wp lemmas "$steps" -wp-prop=@lemma
  mark_failures "$steps"
  lemma_total=$(count lemmas total); lemma_valid=$(count lemmas valid)
  nlemmas=$(cat core/*.[ch] | grep -cE '^\s*lemma [A-Za-z_0-9]+:' || true)
  [ "$lemma_total" = "$nlemmas" ] || { echo "proofs: $lemma_total lemma goals for the $nlemmas lemmas in core/"; fail=1; }
fi
if [ -n "${RP_WP_FCT:-}" ]; then
  main_fcts=$(printf '%s\n' ${RP_WP_FCT//,/ } | grep -v '^rp_bytes_u' | paste -sd, -)
else
  main_fcts=$(bash proofs/functions.sh "${files[@]}" | tr , '\n' | grep -v '^rp_bytes_u' | paste -sd, -)
fi
# The report of properties left unclassified as invalid fails the run; the
# other shards' functions are "unknown" to each process, so the JSON counts
# (every goal of every function) are the verdict, not an unknown status.
report=(-then -report -report-classify -report-unclassified-invalid ERROR)
# The functions the last stored run had to prove in the second tier
# (proofs/large-budget.txt, written with the cache) go straight to the whole
# budget, in the first tier's pass: proving them twice, each time generating
# all their goals, was a quarter of a cached run.  The list changes only the
# time, never the verdict (a function missing from it still reaches the
# second tier; one listed needlessly is proved with more steps than it
# needs).  make proofs-full and make proofs-cache ignore it.
large=; small_fcts=$main_fcts
if [ "$steps_fast" -lt "$steps" ] && [ "${RP_PROOF_CACHE:-}" != none ] && [ -s proofs/large-budget.txt ]; then
  large=$(grep -v '^#' proofs/large-budget.txt | grep -xF -f <(printf '%s\n' ${main_fcts//,/ }) | paste -sd, - || true)
  small_fcts=$(printf '%s\n' ${main_fcts//,/ } | grep -vxF -f <(printf '%s\n' ${large//,/ } x) | paste -sd, - || true)
fi
rc=0; rm -f "$out"/tier1-*.json "$out"/main-*.json "$out"/main-*.log "$out"/report-*.json
[ -z "$main_fcts" ] || { wp_sharded tier1 "$steps_fast" "$small_fcts" "${report[@]}"; rc=$?; }
# The large-budget shards ran beside the first tier's: a failure of theirs
# is marked with the small budget too, which can only cost a re-run.
mark_failures "$steps_fast"
total=$(count_all tier1 total); valid=$(count_all tier1 valid)
again=$(per_fct tier1 | awk '$3 < $2 { print $1 }' | grep -vxF -f <(printf '%s\n' ${large//,/ } x) | paste -sd, -)
# With RP_STEPS_FAST >= RP_STEPS the first tier already had the whole budget:
# a second one could prove nothing more (the proof mutants run this way).
[ "$steps_fast" -lt "$steps" ] || again=
large_fcts=$large; large=   # the second tier's own shards take every process
if [ -n "$again" ]; then
  # Tier 2: only the functions with unproved goals, with the large budget.
  # Every goal tier 1 left unproved belongs to one of them, and tier 2
  # proves all their goals again: the run proves everything exactly when
  # tier 2 leaves nothing unproved.
  wp_sharded main "$steps" "$again"
  rc2=$?; [ $rc2 = 0 ] || rc=$rc2
  mark_failures "$steps"
  main_total=$(count_all main total)
  [ "$main_total" -gt 0 ] || { echo "proofs: the second tier generated no goal (see $out/main-*.log)"; fail=1; }
  valid=$((total - (main_total - $(count_all main valid))))
fi
t1=$(date +%s)
logs=("$out"/tier1-*.log); [ -n "$again" ] && logs=("$out"/main-*.log)
grep -hE '^\[wp\] \[(Failed|Timeout|Unknown|Step)' -A3 "${logs[@]}" 2>/dev/null | head -40
grep -E '^\[wp\] \[(Failed|Unknown)' -A3 "$out/shift.log" "$out/lemmas.log" 2>/dev/null | head -20
if grep -qE 'Timeout' "$out"/tier1-*.log "$out"/main-*.log "$out/shift.log" "$out/lemmas.log" 2>/dev/null; then
  echo "proofs: a prover hit the ${safety} s wall-clock safety limit before its step limit (machine overloaded?)"; fail=1
fi
[ $rc = 0 ] || { echo "proofs: frama-c exited $rc (see $out/tier1-*.log, $out/main-*.log)"; fail=1; }
total=$((total + shift_total + lemma_total)); valid=$((valid + shift_valid + lemma_valid))
[ "$total" -gt 0 ] && [ "$total" = "$valid" ] || { echo "proofs: $valid of $total goals proved"; fail=1; }

# Trusted base: the external clauses WP had to take on trust.
grep -hE '^\s*\[\s*Extern\s*\]' "$out"/tier1-*.log | sed -E 's/^\s*//' | sort -u > "$out/trusted-base.txt"
if [ -z "${RP_WP_FCT:-}" ] && ! diff -u proofs/trusted-base.txt "$out/trusted-base.txt"; then
  echo "proofs: the trusted base differs from proofs/trusted-base.txt"; fail=1
fi

# Smoke tests: a smoke goal passes when the provers cannot prove false from
# a function's preconditions or at a branch (a failure means a contradictory
# precondition or dead code).  cvc4 and cvc5, bounded by steps, as every
# other goal.
smoke_ok=0; smoke_bad=0
if [ "${RP_NO_SMOKE:-0}" != 1 ]; then
  wp_sharded smoke "$smoke_steps" "${RP_WP_FCT:-$main_fcts,$shift_fcts}" -wp-smoke-tests \
    -wp-prop=-@assert,-@ensures,-@requires,-@assigns,-@invariant,-@variant,-@check,-@lemma,-@rte,-@complete_behaviors,-@disjoint_behaviors,-@exits,-@breaks,-@continues,-@returns,-@terminates,-@decreases,-@calls,-@from
  src=$?
  mark_failures "$smoke_steps"
  # Frama-C 25 prints "[wp] [Passed] Smoke-test <goal>" for a smoke goal that
  # could not be proved (the good outcome) and another status otherwise.
  smoke_ok=$(cat "$out"/smoke-*.log | grep -cE '\[Passed\] Smoke-test' || true)
  smoke_bad=$(cat "$out"/smoke-*.log | grep -E 'Smoke-test|Doomed|[Dd]ead code' | grep -cv '\[Passed\] Smoke-test' || true)
  cat "$out"/smoke-*.log | grep -E 'Smoke-test|Doomed|[Dd]ead code' | grep -v '\[Passed\] Smoke-test' | head -20
  [ $src = 0 ] || { echo "proofs: the smoke-test run exited $src (see $out/smoke.log)"; fail=1; }
  [ "$smoke_ok" -gt 0 ] || { echo "proofs: no smoke test ran"; fail=1; }
  [ "$smoke_bad" = 0 ] || { echo "proofs: $smoke_bad smoke tests failed (a contradictory precondition or dead code)"; fail=1; }
fi
t2=$(date +%s)

if [ "${RP_PROOF_CACHE_SAVE:-0}" = 1 ]; then
  [ $fail = 0 ] || { echo "proofs: not saving the cache of a failed run"; exit 1; }
  cache_save "$cache" proofs/cache.json
  echo "proofs: wrote $(jq length proofs/cache.json) results to proofs/cache.json"
  # The functions that needed the whole budget: this run's second tier, the
  # ones proved with it directly, and (for a run of some functions only) the
  # stored ones this run did not prove.
  all_fcts=$(bash proofs/functions.sh $(ls core/*.c | sort) | tr , '\n')
  # Read before the file is rewritten (the redirection below truncates it).
  kept=
  [ -z "${RP_WP_FCT:-}" ] || kept=$(grep -sv '^#' proofs/large-budget.txt | grep -vxF -f <(printf '%s\n' ${main_fcts//,/ } x) || true)
  { echo "# written by proofs/run.sh with the cache (make proofs-cache): the functions whose goals need more than the first tier's steps"
    printf '%s\n' ${again//,/ } ${large_fcts//,/ } $kept | grep -xF -f <(printf '%s\n' $all_fcts) | sort -u
  } > proofs/large-budget.txt
fi

# The slowest prover runs, from the per-goal status lines (a time over a
# minute reads 2'6s; a replayed result repeats its stored time and steps):
#   [wp] [CVC4 1.8] Goal NAME : Valid (Qed:12ms) (1.2s) (34567) [(cached)]
proved_lines() { cat "$out/shift.log" "$out/lemmas.log" "$out"/tier1-*.log "$out"/main-*.log 2>/dev/null; }
slowest=$(proved_lines |
  sed -nE "s/^\[wp\] \[([A-Za-z0-9 .]+)\] Goal ([A-Za-z0-9_]+) : Valid \(Qed:[^)]*\) \(([0-9]+'[0-9.]+s|[0-9.]+ms|[0-9.]+s)\)( \(([0-9]+)\))?.*/\2\t\1\t\3\t\5/p" |
  awk -F'\t' '{t=$3; if (t ~ /ms$/) {sub(/ms$/,"",t); t=t/1000} else if (t ~ /'"'"'/) {split(t, m, "'"'"'"); sub(/s$/,"",m[2]); t=m[1]*60+m[2]} else sub(/s$/,"",t); print t "\t" $0}' |
  sort -t$'\t' -k1,1 -gr | head -20 |
  jq -R -s 'split("\n") | map(select(length > 0) | split("\t") |
    {goal: .[1], prover: .[2], seconds: (.[0] | tonumber), steps: (if .[4] == "" then null else (.[4] | tonumber) end)})')
[ -n "$slowest" ] || slowest='[]'
# The most steps any proved goal took, of the budget: how close the
# hardest goal is to failing.
max_steps=$(proved_lines | sed -nE 's/^\[wp\] \[CVC[^]]*\] Goal .* : Valid .*\(([0-9]+)\)( \(cached\))?$/\1/p' | sort -n | tail -1)
max_steps=${max_steps:-0}
fcts=$(cat "$out"/tier1-*.json 2>/dev/null | jq -s -c '[.[] | ."wp:functions" // {} | to_entries[] | {function: .key, total: (.value."wp:section"."wp:main".total // 0), proved: (.value."wp:section"."wp:main".valid // 0)}] | sort_by(.function)' 2>/dev/null || echo '[]')
cat > "$out/summary.json" <<JSON
{"total": $total, "proved": $valid, "smoke_passed": $smoke_ok, "smoke_failed": $smoke_bad,
 "steps_limit": $steps, "steps_fast": $steps_fast, "smoke_steps": $smoke_steps,
 "cache_seeded": $seeded, "cache_after": $(ls "$cache" | wc -l),
 "wp_seconds": $((t1 - t0)), "smoke_seconds": $((t2 - t1)),
 "second_tier": "$again", "max_steps": $max_steps, "slowest": $slowest, "functions": $fcts}
JSON
[ -n "${RP_RESULTS:-}" ] && { [ $fail = 0 ] && echo "PASS proofs: $valid/$total goals, $smoke_ok smoke tests" || echo "FAIL proofs: $valid/$total goals proved, $smoke_bad smoke tests failed"; } >> "$RP_RESULTS"
echo "proofs: $valid/$total goals proved, smoke tests: $smoke_ok passed, $smoke_bad failed, $((t2 - t0)) s (the hardest goal took $max_steps steps of $steps)"
exit $fail
