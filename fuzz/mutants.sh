#!/usr/bin/env bash
# make fuzz-mutants: break the core and the adapters on purpose, one
# fuzz/mutants/*.mut at a time, each in a scratch copy of the tree
# ($BUILD/fuzz-mutant/<mutant>/tree), and measure which harness catches each
# break: by replaying the committed fuzz/corpus/<h> and fuzz/regressions/<h>
# (gcc replay build), and by fuzzing from an empty corpus (libFuzzer +
# dictionary, at most MUTANT_SECONDS each; 0 skips it): seconds and execs to
# the first failure.  Not part of make check (about 15 s of builds per
# mutant and harness).
#   BUILD=build [MUTANT_SECONDS=15] [MUTANTS="name ..."] [HARNESSES="h ..."] bash fuzz/mutants.sh
# A .mut file: "# mutant:" (what it breaks), "# file:", "# harnesses:" (the
# harnesses that compile that file), then the exact old text, a line "=>",
# and the new text, as proofs/mutants/*.mut.  The old text must occur
# exactly once, so a mutant cannot silently stop applying when the code
# moves: one that does not apply is reported and fails the run.  So does a
# mutant that no harness catches (a failing replay or fuzz run, or a replay
# that hangs), unless its file says "# expect: missed" (an equivalent one),
# and such a mutant that some harness does catch: the list stays true.
# HARNESSES limits the run to those harnesses (then no mutant is judged).
set -u
cd "$(dirname "$0")/.."
build=${BUILD:-build}
secs=${MUTANT_SECONDS:-15}
source fuzz/engines.sh
if ! git ls-files --error-unmatch fuzz/mutants.sh > /dev/null 2>&1; then
  echo "fuzz-mutants: needs a git checkout (the scratch trees are copies of the tracked files)"
  exit 2
fi
if [ -n "${MUTANTS:-}" ]; then
  muts=(); for m in $MUTANTS; do muts+=("fuzz/mutants/$m.mut"); done
else
  muts=(fuzz/mutants/*.mut)
fi

# apply MUT TREE: the mutant's change to its file in TREE, or fail
apply() {
  python3 - "$1" "$2" <<'PY'
import sys
spec, tree = sys.argv[1], sys.argv[2]
lines = open(spec).read().split('\n')
target = next(l[len('# file: '):] for l in lines if l.startswith('# file: '))
text = '\n'.join(l for l in lines if not l.startswith('# '))
old, new = text.split('\n=>\n', 1)
new = new.rstrip('\n')
path = tree + '/' + target
src = open(path).read()
if src.count(old + '\n') != 1:
    sys.exit(f'{spec}: the old text occurs {src.count(old + chr(10))} times in {target}')
open(path, 'w').write(src.replace(old + '\n', new + '\n' if new else '', 1))
PY
}

table=$build/fuzz-mutant/table.txt
mkdir -p "$build/fuzz-mutant"
fuzzing="fuzz from empty corpus (libFuzzer, <= ${secs}s)"
[ "$secs" != 0 ] || fuzzing="fuzz from empty corpus: not run (MUTANT_SECONDS=0)"
printf '%-36s %-15s %-7s %s\n' mutant harness corpus "$fuzzing" | tee "$table"
fail=0 killed=0 expect_missed=0
for spec in "${muts[@]}"; do
  m=$(basename "$spec" .mut)
  if [ ! -f "$spec" ]; then
    printf '%-36s %s\n' "$m" "no such mutant ($spec)" | tee -a "$table"; fail=1; continue
  fi
  dir=$build/fuzz-mutant/$m tree=$build/fuzz-mutant/$m/tree
  rm -rf "$dir"; mkdir -p "$tree"
  # the tracked files but the committed inputs (replayed from here)
  git ls-files -z | grep -zvE '^fuzz/(corpus|regressions)/' | tar --null -cf - -T - | tar -xf - -C "$tree"
  if ! apply "$spec" "$tree" > "$dir/apply.log" 2>&1; then
    printf '%-36s %s\n' "$m" "does not apply: $(tail -1 "$dir/apply.log")" | tee -a "$table"; fail=1; continue
  fi
  caught=0 hs=() bins=()
  for h in $(sed -n 's/^# harnesses: //p' "$spec"); do
    [ -z "${HARNESSES:-}" ] || [[ " $HARNESSES " == *" $h "* ]] || continue
    hs+=("$h") bins+=("build/fuzz/replay/$h")
    [ "$secs" = 0 ] || bins+=("build/fuzz/libfuzzer/$h")
  done
  # one make for all the mutant's binaries, so that they build side by side
  if [ ${#bins[@]} != 0 ] &&
     ! make -C "$tree" --no-print-directory -s -j"$(nproc)" BUILD=build "${bins[@]}" > "$dir/build.log" 2>&1; then
    printf '%-36s %s\n' "$m" "build failed (see $dir/build.log)" | tee -a "$table"; fail=1
    continue
  fi
  for h in "${hs[@]}"; do
    # the replay of every committed input takes a tenth of a second (29 Nov
    # 2026, the EPYC: 0.02 to 0.10 s per harness); a mutant that makes it
    # loop is caught by a timeout a hundred times that (the column says so)
    mapfile -t seeds < <(fz_seed_dirs "$h")
    if [ ${#seeds[@]} = 0 ]; then corpus="-"
    else
      bash -c '"$@"; exit $?' replay timeout -k 5 10 "$tree/build/fuzz/replay/$h" "${seeds[@]}" \
        > "$dir/replay-$h.log" 2>&1
      case $? in 0) corpus="missed";; 124|137) corpus="HANG";; *) corpus="CAUGHT";; esac
    fi
    fuzz="-"
    if [ "$secs" != 0 ]; then
      work=$dir/work-$h
      rm -rf "$work"; mkdir -p "$work/corpus"
      log=$work/libfuzzer.log
      t0=$(date +%s.%N)
      timeout -k 5 $((secs + 30)) "$tree/build/fuzz/libfuzzer/$h" -max_total_time="$secs" -timeout=10 \
        -rss_limit_mb=2048 -print_final_stats=1 -dict="$(fz_dict "$h")" -artifact_prefix="$work/" \
        "$work/corpus" > "$log" 2>&1 < /dev/null
      rc=$?
      t=$(fz_since "$t0")
      execs=$(sed -nE 's/^stat::number_of_executed_units: *([0-9]+)/\1/p' "$log" | tail -1)
      if [ $rc != 0 ]; then
        why=$(grep -m1 -oE 'ERROR: [A-Za-z]+Sanitizer: [a-z-]+|runtime error: [a-z ]+|libFuzzer: [a-z-]+' "$log")
        grep -q 'FUZZ ORACLE FAILURE' "$log" && \
          why="oracle $(grep -m1 -oE 'FUZZ ORACLE FAILURE at [^ ]+' "$log" | sed 's/.*fuzz\///; s/:$//'): $(grep -m1 -A1 'FUZZ ORACLE FAILURE' "$log" | tail -1 | cut -c3-70)"
        fuzz="CAUGHT in ${t}s, ${execs:-?} execs: ${why:-exit $rc}"
      else
        fuzz="missed (${execs:-?} execs)"
      fi
    fi
    printf '%-36s %-15s %-7s %s\n' "$m" "$h" "$corpus" "$fuzz" | tee -a "$table"
    [[ $corpus == CAUGHT || $corpus == HANG || $fuzz == CAUGHT* ]] && caught=1
  done
  [ -z "${HARNESSES:-}" ] || continue
  if grep -q '^# expect: missed' "$spec"; then
    expect_missed=$((expect_missed + 1))
    [ $caught = 0 ] || { printf '%-36s %s\n' "$m" "CAUGHT, but its file says '# expect: missed'" | tee -a "$table"; fail=1; }
  elif [ $caught = 1 ]; then
    killed=$((killed + 1))
  else
    printf '%-36s %s\n' "$m" "SURVIVED: no harness caught it" | tee -a "$table"; fail=1
  fi
done
[ -n "${HARNESSES:-}" ] || echo "fuzz-mutants: ${#muts[@]} mutants, $killed caught, $expect_missed expected missed (# expect: missed)" | tee -a "$table"
echo "table: $table"
exit $fail
