#!/usr/bin/env bash
# make proofs-mutants: each proofs/mutants/*.mut removes or weakens one check
# of the core.  Applied to a scratch copy, the proof of the function it
# touches must report an unproved goal: a mutant counts as caught only when
# WP ran, generated goals and proved fewer than it generated (a mutant that
# breaks the parse or the build is a failure of this test, not a catch).
#
# A .mut file: "# mutant:", "# file:", "# function:", optional "# wp:" (WP
# options that select the behavior the mutant breaks), then the exact old
# text, a line "=>", and the new text.  The old text must occur exactly once,
# so a mutant cannot silently stop applying when the code moves.
#
# The same result cache as make proofs: goals the mutant does not change
# replay from it; changed goals are proved afresh with RP_MUTANT_STEPS
# (default 100,000, the first tier's budget) or the mutant's own "# steps:"
# line, in one tier (the whole budget at once: a mutant's goals that fail
# would otherwise be tried twice and the function's goals generated twice).
# A "# wp:" line narrows the run to the properties the mutant breaks, so a
# mutant of a function with hundreds of goals does not wait on all of them;
# the selected goals are the same tasks as in the full proof, which proves
# them unmutated.  The budget is at least twice what every selected goal
# needs in the real proof (build/proofs/summary.json and the per-goal lines
# of its logs give the steps), so that an unmutated goal never fails for
# lack of steps: 100,000 covers the selections whose goals all need under
# 50,000; the others carry their own "# steps:".  make proofs-mutants-control
# (RP_MUTANT_CONTROL=1) checks it: every selection, with its budget, proves
# the unmutated code.
#
# The mutants' own results are stored too, in proofs/mutants-cache.json
# (make proofs-mutants-cache: every mutant proved afresh from
# proofs/cache.json alone, then the results of the tasks cache.json does
# not hold saved; only when every mutant is caught).  A mutant's goal is a
# task like any other, keyed by an MD5 of its exact prover input: a stored
# step-out replays only for that same task at a budget no larger than the
# one it ran out of (proofs/cache.sh), what the provers, which are bounded
# by steps and not by time, would answer again.  A change to the core or
# to a mutant that changes a goal makes a new task, proved afresh, and
# RP_MUTANT_CACHE=none ignores the stored results.
set -u
cd "$(dirname "$0")/.."
root=$PWD
# Ctrl-C or TERM stops every mutant's proof (proofs/stop.sh).
. proofs/stop.sh
stop_on_signal "proof mutants"
scratch=${RP_MUTANT_DIR:-build/proofs-mutants}
rm -rf "$scratch"; mkdir -p "$scratch"
conf=$root/build/proofs/why3.conf
if [ ! -s "$conf" ]; then
  mkdir -p build/proofs
  why3 config detect -C "$conf" >/dev/null 2>&1 || { echo "proof mutants: why3 config detect failed"; exit 1; }
  cat proofs/why3-cvc5.conf >> "$conf"
fi
# Without proofs/wp_poll.ml: the mutant processes fill each other's waits
# (the 65 mutants, 4 at a time, took 546 s without it, 558 s with a 2 ms poll).
export RP_WP_POLL=${RP_WP_POLL:-off}
# The stored results, proofs/cache.json's and the mutants' own (above),
# seeded once and linked into each mutant's cache (proofs/cache.sh:
# cache_share, cache_link; seeding each mutant's took 0.9 s).  A step-out
# below the smallest budget a mutant has would be proved again anyway.
extra=proofs/mutants-cache.json
[ "${RP_MUTANT_CACHE:-}" != none ] || extra=
. proofs/cache.sh
least=$( { echo "${RP_MUTANT_STEPS:-100000}"; sed -n 's/^# steps: //p' proofs/mutants/*.mut; } | sort -n | head -1)
shared=$(cd "$scratch" && pwd)/cache
cache_share "$shared" "$least" proofs/cache.json $extra
save=${RP_MUTANT_CACHE_SAVE:-0}
pass=0; fail=0
# RP_MUTANT_CONTROL=1: run every mutant's selection and budget on the
# unmutated code instead; each must prove all its goals (a catch then owes
# nothing to a budget or a selection that fails without the mutant).
control=${RP_MUTANT_CONTROL:-0}
# Mutants proved side by side, one Frama-C process each: WP sleeps between
# polls of its jobs, so a process leaves its core idle much of the time (the
# 65 mutants on 2 cores: 4 at a time 294 s, 6 at a time 248 s, 8 at a time 249 s).
jobs=${RP_MUTANT_JOBS:-6}
note() { [ -n "${RP_RESULTS:-}" ] && echo "$1" >> "$RP_RESULTS"; echo "$1"; }
# One mutant: writes its verdict line (and a detail line) to $dir/verdict.
one_mutant() {
  local m=$1 name file fct wpx budget dir t0 total valid secs
  name=$(basename "$m" .mut)
  file=$(sed -n 's/^# file: //p' "$m")
  fct=$(sed -n 's/^# function: //p' "$m")
  wpx=$(sed -n 's/^# wp: //p' "$m")
  budget=$(sed -n 's/^# steps: //p' "$m")
  dir=$scratch/$name
  mkdir -p "$dir"
  cp -r core proofs "$dir/"
  if [ "$control" = 1 ]; then :   # the unmutated code, with the mutant's selection and budget
  elif ! python3 - "$m" "$dir/$file" <<'PY'
import sys
spec, target = sys.argv[1], sys.argv[2]
body = [l for l in open(spec).read().split('\n') if not l.startswith('# ')]
text = '\n'.join(body)
old, new = text.split('\n=>\n', 1)
new = new.rstrip('\n')
src = open(target).read()
if src.count(old + '\n') != 1:
    sys.exit(f'{spec}: the old text occurs {src.count(old + chr(10))} times in {target}')
open(target, 'w').write(src.replace(old + '\n', new + '\n' if new else '', 1))
PY
  then
    echo "FAIL mutant-$name: does not apply" > "$dir/verdict"; return
  fi
  t0=$(date +%s)
  budget=${budget:-${RP_MUTANT_STEPS:-100000}}
  (cd "$dir" && env -u RP_RESULTS RP_WP_FCT=$fct RP_WP_EXTRA="$wpx" RP_NO_SMOKE=1 RP_PROOF_CACHE_SHARED=$shared \
     RP_STEPS=$budget RP_STEPS_FAST=$budget RP_PROOF_JOBS=1 \
     RP_PROOF_DIR=out RP_WHY3CONF=$conf bash proofs/run.sh > out.log 2>&1)
  total=$(jq '.total // 0' "$dir/out/summary.json" 2>/dev/null || echo 0)
  valid=$(jq '.proved // 0' "$dir/out/summary.json" 2>/dev/null || echo 0)
  secs=$(( $(date +%s) - t0 ))
  # the prover results no stored cache held (the provers ran for them)
  fresh=$(( $(jq '.cache_after // 0' "$dir/out/summary.json" 2>/dev/null || echo 0) - $(jq '.cache_seeded // 0' "$dir/out/summary.json" 2>/dev/null || echo 0) ))
  echo "$fresh" > "$dir/fresh"
  if [ "$control" = 1 ]; then
    if [ "$total" -gt 0 ] && [ "$valid" = "$total" ]; then
      printf '%s\n%s\n' "PASS control-$name" "     ($fct) unmutated: $valid of $total goals proved in $secs s" > "$dir/verdict"
    else
      echo "FAIL control-$name: the unmutated selection proves $valid of $total goals (see $dir/out.log)" > "$dir/verdict"
    fi
  elif [ "$total" -gt 0 ] && [ "$valid" -lt "$total" ]; then
    printf '%s\n%s\n' "PASS mutant-$name" "     ($fct) caught in $secs s: $valid of $total goals proved, $fresh new prover results" > "$dir/verdict"
  elif [ "$total" = 0 ]; then
    echo "FAIL mutant-$name: the proof did not run (see $dir/out.log)" > "$dir/verdict"
  else
    echo "FAIL mutant-$name: still proves ($valid of $total goals)" > "$dir/verdict"
  fi
}
for m in proofs/mutants/*.mut; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
  one_mutant "$m" &
done
wait
for m in proofs/mutants/*.mut; do
  v=$scratch/$(basename "$m" .mut)/verdict
  [ -s "$v" ] || { note "FAIL mutant-$(basename "$m" .mut): no verdict"; fail=$((fail + 1)); continue; }
  note "$(head -1 "$v")"; tail -n +2 "$v"
  case $(head -1 "$v") in PASS*) pass=$((pass + 1));; *) fail=$((fail + 1));; esac
done
if [ "$control" = 1 ]; then echo "proof mutant controls: $pass prove unmutated, $fail do not"
else echo "proof mutants: $pass caught, $fail not caught"; fi
fresh=$(cat "$scratch"/*/fresh 2>/dev/null | awk '{ s += $1 } END { print s + 0 }')
[ "$fresh" = 0 ] || [ "$save" = 1 ] ||
  echo "proof mutants: the provers ran for $fresh results the stored caches did not hold (make proofs-mutants-cache stores them)"
if [ "$save" = 1 ] && [ "$control" = 0 ]; then
  [ $fail = 0 ] || { echo "proof mutants: not saving the results of a run that missed a mutant"; exit 1; }
  # every mutant's results but those seeded from proofs/cache.json
  jq -r 'keys[]' proofs/cache.json | sed 's/$/.json/' | sort > "$scratch/base.keys"
  mkdir -p "$scratch/all-cache"
  for m in proofs/mutants/*.mut; do
    c=$scratch/$(basename "$m" .mut)/out/cache
    ls "$c" | sort | comm -23 - "$scratch/base.keys" | sed "s|^|$c/|" | xargs -r cp -t "$scratch/all-cache/"
  done
  cache_save "$scratch/all-cache" proofs/mutants-cache.json proofs/cache.json
  echo "proof mutants: wrote $(jq length proofs/mutants-cache.json) results to proofs/mutants-cache.json"
fi
[ $fail = 0 ]
