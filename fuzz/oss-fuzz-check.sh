#!/usr/bin/env bash
# make check's fuzz-oss suite: build with fuzz/oss-fuzz-build.sh under the
# libFuzzer conventions, then check what OSS-Fuzz would pick up for each
# harness: the fuzzer, its seed zip (every committed input), its options and
# dictionary; and run the fuzzer the way ClusterFuzz does, on the unpacked
# seeds with the options file's flags, for OSS_FUZZ_SECONDS (default 2).
# One PASS/FAIL line per harness (also appended to $RP_RESULTS).
#   BUILD=build bash fuzz/oss-fuzz-check.sh
set -u
build=${BUILD:-build}
out=$build/oss-fuzz
secs=${OSS_FUZZ_SECONDS:-2}
res=${RP_RESULTS:-/dev/null}
rm -rf "$out"
if ! env -u CXXFLAGS CC=clang CXX=clang++ CFLAGS="-fsanitize=address,fuzzer-no-link" \
     LIB_FUZZING_ENGINE=-fsanitize=fuzzer OUT="$out" bash fuzz/oss-fuzz-build.sh; then
  echo "FAIL fuzz-oss/build: fuzz/oss-fuzz-build.sh failed" | tee -a "$res"
  exit 1
fi
# One harness's check; its verdict line goes to $build/oss-fuzz-run/<h>/verdict.
# The harnesses run nproc at a time (one after the other they took 30 s).
check_one() {
  local h=$1 why="" want got seeds work opts log rc execs
  [ -x "$out/$h" ] || why="no fuzzer $out/$h"
  [ -z "$why" ] && [ -f "$out/$h.options" ] && grep -q '^\[libfuzzer\]' "$out/$h.options" || why=${why:-"no options file"}
  want=$(cat <(ls fuzz/corpus/$h 2>/dev/null) <(ls fuzz/regressions/$h 2>/dev/null) | wc -l)
  seeds=$build/oss-fuzz-run/$h/seeds; work=$build/oss-fuzz-run/$h/new
  if [ -z "$why" ]; then
    got=$(python3 -c 'import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); z.extractall(sys.argv[2]); print(len(z.namelist()))' \
          "$out/${h}_seed_corpus.zip" "$seeds") || why="bad seed zip"
    [ -z "$why" ] && [ "$got" != "$want" ] && why="seed zip has $got inputs, the repository $want"
    [ -z "$why" ] && [ "$want" = 0 ] && why="no seed inputs committed"
  fi
  if [ -z "$why" ]; then
    # the options file's [libfuzzer] keys as -key=value flags, as ClusterFuzz passes them
    mapfile -t opts < <(sed -nE '/^\[libfuzzer\]/,/^\[/{s/^([a-z_]+) *= *(.*)$/-\1=\2/p}' "$out/$h.options" |
                        sed "s|^-dict=|-dict=$out/|")
    log=$build/oss-fuzz-run/$h/libfuzzer.log
    (cd . && timeout -k 5 $((secs + 120)) "$out/$h" "${opts[@]}" -max_total_time="$secs" -print_final_stats=1 \
       -artifact_prefix="$build/oss-fuzz-run/$h/" "$work" "$seeds" > "$log" 2>&1)
    rc=$?
    execs=$(sed -nE 's/^stat::number_of_executed_units: *([0-9]+)/\1/p' "$log" | tail -1)
    if [ $rc != 0 ]; then
      why="fuzzer exit $rc: $(grep -m1 -E 'ERROR|FUZZ ORACLE|runtime error' "$log") [log $log]"
    elif ! grep -q "INITED" "$log"; then
      why="fuzzer did not load its seeds [log $log]"
    fi
  fi
  if [ -z "$why" ]; then
    echo "PASS fuzz-oss/$h ($want seeds, options, ${execs:-?} execs in ${secs}s)"
  else
    echo "FAIL fuzz-oss/$h: $why"
  fi > "$build/oss-fuzz-run/$h/verdict"
}
jobs=$(nproc 2>/dev/null || echo 1)
hs=()
for src in fuzz/harness_*.c; do
  h=$(basename "$src" .c); h=${h#harness_}; hs+=("$h")
  rm -rf "$build/oss-fuzz-run/$h"; mkdir -p "$build/oss-fuzz-run/$h/seeds" "$build/oss-fuzz-run/$h/new"
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
  check_one "$h" &
done
wait
fail=0
for h in "${hs[@]}"; do
  v=$build/oss-fuzz-run/$h/verdict
  if [ -s "$v" ]; then cat "$v"; else echo "FAIL fuzz-oss/$h: no verdict"; fi | tee -a "$res"
  grep -q '^PASS' "$v" 2>/dev/null || fail=1
done
exit $fail
