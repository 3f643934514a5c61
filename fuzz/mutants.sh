#!/usr/bin/env bash
# make fuzz-mutants: break the decoder on purpose in a scratch copy of core/
# ($BUILD/fuzz-mutant/<mutant>/core) and measure which harness catches each
# break: by replaying the committed corpus (gcc replay build), and by fuzzing
# from an empty corpus (libFuzzer + dictionary, at most MUTANT_SECONDS each):
# seconds and execs to the first failure.  Not part of make check.
#   BUILD=build [MUTANT_SECONDS=15] [MUTANTS="a b"] [HARNESSES="x y"] bash fuzz/mutants.sh
set -u
build=${BUILD:-build}
secs=${MUTANT_SECONDS:-15}
harnesses=${HARNESSES:-ring_raw ring_roundtrip ring_hostile ring_diff}
all_mutants="size_short wrap_n0_plus wrap_n0_minus no_raw_check double_fetch trunc_off_by_8 no_overrun"
mutants=${MUTANTS:-$all_mutants}
source "$(dirname "$0")/engines.sh"

# mutate FILE OLD NEW: replace one exact text, or fail loudly
mutate() {
  python3 - "$1" "$2" "$3" <<'PY' || exit 1
import sys
p, old, new = sys.argv[1:]
s = open(p).read()
if s.count(old) != 1:
    sys.exit("mutant does not apply to %s: %r found %d times" % (p, old, s.count(old)))
open(p, "w").write(s.replace(old, new))
PY
}

apply() {
  local c=$1/core
  case $2 in
    size_short)    mutate $c/rp_ring.c $'\tif (size < 8u)\n\t\treturn RP_E_HDR_SHORT;\n' '' ;;
    wrap_n0_plus)  mutate $c/rp_ring.c 'body_len : (uint32_t)room;' 'body_len : (uint32_t)room + 1u;' ;;
    wrap_n0_minus) mutate $c/rp_ring.c 'body_len : (uint32_t)room;' 'body_len : (uint32_t)room - 1u;' ;;
    no_raw_check)  mutate $c/rp_views.c $'if (!rp_span_sub(rec->body, 4, raw, &data))\n\t\treturn RP_E_BODY_SHORT;' \
                     $'if (!rp_span_sub(rec->body, 4, raw, &data)) {\n\t\tdata.p0 = rec->body.p0 + 4; data.n0 = raw; data.p1 = rec->body.p1; data.n1 = 0;\n\t}' ;;
    double_fetch)  mutate $c/rp_ring.c 'rec->size = size;' 'rec->size = rp_load16(hdr + 6);' ;;
    trunc_off_by_8) mutate $c/rp_ring.c 'if (size > avail)' 'if (size > avail + 8u)' ;;
    no_overrun)    mutate $c/rp_ring.c $'\tif (avail > ring->size)\n\t\treturn RP_E_OVERRUN;\n' '' ;;
    *) echo "unknown mutant $2"; exit 1 ;;
  esac
}

table=$build/fuzz-mutant/table.txt
mkdir -p "$build/fuzz-mutant"
printf '%-15s %-15s %-12s %s\n' mutant harness corpus "fuzz from empty corpus (libFuzzer, <= ${secs}s)" | tee "$table"
for m in $mutants; do
  dir=$build/fuzz-mutant/$m
  rm -rf "$dir"; mkdir -p "$dir"
  cp -r core "$dir/core"
  apply "$dir" "$m"
  for h in $harnesses; do
    if ! make --no-print-directory -s BUILD="$dir" FUZZ_CORE_DIR="$dir/core" \
         "$dir/fuzz/libfuzzer/$h" "$dir/fuzz/replay/$h" > "$dir/build-$h.log" 2>&1; then
      printf '%-15s %-15s %s\n' "$m" "$h" "build failed (see $dir/build-$h.log)" | tee -a "$table"
      continue
    fi
    mapfile -t seeds < <(fz_seed_dirs "$h")
    if [ ${#seeds[@]} = 0 ]; then corpus="-"
    elif bash -c '"$@"; exit $?' replay "$dir/fuzz/replay/$h" "${seeds[@]}" > "$dir/replay-$h.log" 2>&1; then corpus="missed"
    else corpus="CAUGHT"; fi
    work=$dir/work-$h
    rm -rf "$work"; mkdir -p "$work/corpus"
    log=$work/libfuzzer.log
    t0=$(date +%s.%N)
    timeout -k 5 $((secs + 30)) "$dir/fuzz/libfuzzer/$h" -max_total_time="$secs" -timeout=10 \
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
    printf '%-15s %-15s %-12s %s\n' "$m" "$h" "$corpus" "$fuzz" | tee -a "$table"
  done
done
echo "table: $table"
