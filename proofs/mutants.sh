#!/usr/bin/env bash
# make proofs-mutants: each patch in proofs/mutants/ removes or weakens one
# check of the core.  Applied to a scratch copy, the proof of the function it
# touches must FAIL; a mutant that still proves means the contracts do not
# pin that check down.  A patch that no longer applies is a failure too.
set -u
cd "$(dirname "$0")/.."
root=$PWD
scratch=${RP_MUTANT_DIR:-build/proofs-mutants}
rm -rf "$scratch"; mkdir -p "$scratch"
conf=$root/build/proofs/why3.conf
pass=0; fail=0
for p in proofs/mutants/*.patch; do
  name=$(basename "$p" .patch)
  fct=$(sed -n 's/^# function: //p' "$p")
  # optional "# wp:" line: the behavior or property the mutant must break,
  # so that only those goals are re-proved
  wpx=$(sed -n 's/^# wp: //p' "$p")
  dir=$scratch/$name
  mkdir -p "$dir"
  cp -r core proofs "$dir/"
  if ! (cd "$dir" && patch -s -p1 < "$root/$p"); then
    echo "FAIL mutant $name: patch no longer applies"; fail=$((fail + 1))
    [ -n "${RP_RESULTS:-}" ] && echo "FAIL mutant-$name: patch no longer applies" >> "$RP_RESULTS"
    continue
  fi
  t0=$(date +%s)
  (cd "$dir" && env -u RP_RESULTS RP_WP_FCT=$fct RP_WP_EXTRA="$wpx" RP_NO_SMOKE=1 RP_WP_TIMEOUT=${RP_MUTANT_TIMEOUT:-5} \
     RP_PROOF_DIR=out RP_WHY3CONF=$conf bash proofs/run.sh > out.log 2>&1)
  rc=$?
  summary=$(grep '^proofs:' "$dir/out.log" | tail -1)
  if [ $rc != 0 ]; then
    echo "ok   mutant $name ($fct) caught in $(( $(date +%s) - t0 )) s: $summary"; pass=$((pass + 1))
    [ -n "${RP_RESULTS:-}" ] && echo "PASS mutant-$name" >> "$RP_RESULTS"
  else
    echo "FAIL mutant $name ($fct) still proves: $summary"; fail=$((fail + 1))
    [ -n "${RP_RESULTS:-}" ] && echo "FAIL mutant-$name: still proves" >> "$RP_RESULTS"
  fi
done
echo "proof mutants: $pass caught, $fail not caught"
[ $fail = 0 ]
