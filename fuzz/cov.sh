#!/usr/bin/env bash
# make fuzz-cov: replay the committed corpora and regressions through the
# coverage builds and print line/branch coverage of core/ (llvm-cov 14) and of
# the extra sources the harnesses compile in (fuzz/harness_<h>.srcs),
# then every branch direction of the ring decoder never taken.
#   BUILD=build [FUZZ_COV_EXTRA="dir..."] bash fuzz/cov.sh HARNESS...
set -u
build=${BUILD:-build}
out=$build/fuzz/cov-data
rm -rf "$out"; mkdir -p "$out"
source "$(dirname "$0")/engines.sh"
objs=()
for h in "$@"; do
  mapfile -t dirs < <(fz_seed_dirs "$h")
  for d in ${FUZZ_COV_EXTRA:-}; do [ -d "$d/$h" ] && dirs+=("$d/$h"); done
  [ ${#dirs[@]} = 0 ] && { echo "cov: $h has no inputs, skipped"; continue; }
  LLVM_PROFILE_FILE="$out/$h-%p.profraw" "$build/fuzz/cov/$h" "${dirs[@]}" > /dev/null || exit 1
  objs+=("$build/fuzz/cov/$h")
done
[ ${#objs[@]} = 0 ] && { echo "cov: nothing replayed"; exit 1; }
llvm-profdata merge -sparse "$out"/*.profraw -o "$out/all.profdata" || exit 1
args=(-instr-profile="$out/all.profdata" "${objs[0]}")
for o in "${objs[@]:1}"; do args+=(-object "$o"); done
core=$(ls core/*.c)
for h in "$@"; do [ -f "fuzz/harness_$h.srcs" ] && core="$core $(cat "fuzz/harness_$h.srcs")"; done
core=$(echo $core | tr ' ' '\n' | sort -u)
echo "== coverage of core/ (and harness .srcs) by the fuzz corpora (${objs[*]##*/})"
llvm-cov report "${args[@]}" $core 2>&1 | grep -v '^warning'
llvm-cov export -format=text "${args[@]}" $core > "$out/export.json" 2>/dev/null
python3 - "$out/export.json" <<'PY'
import json, sys
data = json.load(open(sys.argv[1]))["data"][0]
focus = ("rp_ring.c", "rp_span.c", "rp_views.c")
print("== never-taken branch directions in", ", ".join(focus))
n = 0
for f in data["files"]:
    if not f["filename"].endswith(focus):
        continue
    src = open(f["filename"]).read().split("\n")
    for b in f.get("branches", []):
        line, col, taken, not_taken = b[0], b[1], b[4], b[5]
        for what, cnt in (("true", taken), ("false", not_taken)):
            if cnt == 0:
                n += 1
                print("  %s:%d:%d %s never %s" % (f["filename"], line, col, src[line - 1].strip(), what))
print("  (none)" if n == 0 else "  %d direction(s)" % n)
PY
