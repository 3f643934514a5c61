#!/bin/bash -eu
# Build every fuzz/harness_<name>.c the OSS-Fuzz / ClusterFuzzLite way.
# Inputs (the conventions of those services' build.sh):
#   $CC, $CFLAGS             compiler and flags (sanitizers, -fsanitize=fuzzer-no-link, coverage)
#   $CXX, $CXXFLAGS          linker driver (libFuzzer is C++); default: $CC, $CFLAGS
#   $LIB_FUZZING_ENGINE      the engine to link (-fsanitize=fuzzer, or an AFL/honggfuzz driver)
#   $OUT                     where the fuzzers go; $WORK scratch (default $OUT/work)
# Outputs, per harness <name>:
#   $OUT/<name>                     the fuzzer
#   $OUT/<name>_seed_corpus.zip     fuzz/corpus/<name>/ + fuzz/regressions/<name>/ (flat)
#   $OUT/<name>.dict                the dictionary (fuzz/<name>.dict or fuzz/ring.dict)
#   $OUT/<name>.options             [libfuzzer] dict, timeout, rss limit
# From a ClusterFuzzLite .clusterfuzzlite/build.sh (or an OSS-Fuzz
# projects/<p>/build.sh): `bash "$SRC/ringproof/fuzz/oss-fuzz-build.sh"`.
# Locally (what make check's fuzz-oss suite runs):
#   CC=clang CFLAGS="-fsanitize=address,fuzzer-no-link" LIB_FUZZING_ENGINE=-fsanitize=fuzzer \
#     OUT=build/oss-fuzz bash fuzz/oss-fuzz-build.sh
cd "$(dirname "$0")/.."
: "${CC:?set CC}" "${LIB_FUZZING_ENGINE:?set LIB_FUZZING_ENGINE}" "${OUT:?set OUT}"
CFLAGS=${CFLAGS:-}
CXX=${CXX:-$CC}
CXXFLAGS=${CXXFLAGS:-$CFLAGS}
WORK=${WORK:-$OUT/work}
mkdir -p "$OUT" "$WORK"
common="fuzz/fz_util.c fuzz/fz_oracle.c fuzz/ref_decoder.c"
core=$(ls core/*.c)
# The shared sources (common, core, an adapter) are compiled once per set of
# extra flags, in $WORK/objs-<hash of the flags>, and linked into every
# fuzzer with those flags: 3 sets for 12 fuzzers, not 12 compiles of each.
rm -rf "$WORK"/objs-*
built=0
for src in fuzz/harness_*.c; do
  name=$(basename "$src" .c); name=${name#harness_}
  extra=()
  [ -f "fuzz/harness_$name.flags" ] && read -r -a extra < "fuzz/harness_$name.flags"
  srcs=()  # fuzz/harness_<name>.srcs: extra sources (an adapter's .c), one word each
  [ -f "fuzz/harness_$name.srcs" ] && read -r -a srcs < "fuzz/harness_$name.srcs"
  objdir=$WORK/$name; rm -rf "$objdir"; mkdir -p "$objdir"
  shared=$WORK/objs-$(printf '%s\n' "${extra[@]}" | md5sum | cut -c1-12); mkdir -p "$shared"
  objs=()
  for c in "$src" $common $core "${srcs[@]}"; do
    if [ "$c" = "$src" ]; then o=$objdir/$(echo "$c" | tr / _).o; else o=$shared/$(echo "$c" | tr / _).o; fi
    if [ "$c" = "$src" ] || [ ! -f "$o" ]; then
      # shellcheck disable=SC2086  # CFLAGS is a list of words by convention
      $CC $CFLAGS -std=c11 -D_GNU_SOURCE -Icore -Ifuzz "${extra[@]}" -c "$c" -o "$o.tmp"
      mv "$o.tmp" "$o"
    fi
    objs+=("$o")
  done
  # shellcheck disable=SC2086
  $CXX $CXXFLAGS "${objs[@]}" $LIB_FUZZING_ENGINE -o "$OUT/$name"
  # seed corpus: every committed input, flat (names are content hashes or seed-/capture- names)
  python3 - "$OUT/${name}_seed_corpus.zip" "fuzz/corpus/$name" "fuzz/regressions/$name" <<'PY'
import os, sys, zipfile
out, dirs = sys.argv[1], sys.argv[2:]
with zipfile.ZipFile(out + ".tmp", "w", zipfile.ZIP_DEFLATED) as z:
    for d in dirs:
        if os.path.isdir(d):
            for f in sorted(os.listdir(d)):
                p = os.path.join(d, f)
                if os.path.isfile(p):
                    z.write(p, os.path.basename(d) + "-" + f if d.startswith("fuzz/regressions") else f)
os.replace(out + ".tmp", out)
PY
  dict=fuzz/$name.dict; [ -f "$dict" ] || dict=fuzz/ring.dict
  cp "$dict" "$OUT/$name.dict"
  cat > "$OUT/$name.options" <<OPT
[libfuzzer]
dict = $name.dict
timeout = 10
rss_limit_mb = 2048
OPT
  built=$((built + 1))
done
echo "oss-fuzz-build: $built fuzzers in $OUT"
