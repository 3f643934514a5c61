#!/usr/bin/env bash
# make fuzz-minimize: fold campaign/smoke finds into fuzz/corpus/<harness>/
# with libFuzzer -merge=1.  Named seeds (seed-*, capture-*) are always kept;
# other inputs are kept only if they add coverage.
set -u
build=${BUILD:-build}
for h in "$@"; do
  new=$build/fuzz/merge/$h
  rm -rf "$new"; mkdir -p "$new"
  cp fuzz/corpus/$h/seed-* fuzz/corpus/$h/capture-* "$new/" 2>/dev/null
  srcs=()
  for d in fuzz/corpus/$h "$build/fuzz/campaign/$h" "$build"/fuzz/smoke/$h-*/corpus; do
    [ -d "$d" ] && srcs+=("$d")
  done
  "$build/fuzz/libfuzzer/$h" -merge=1 -rss_limit_mb=2048 "$new" "${srcs[@]}" > "$build/fuzz/merge/$h.log" 2>&1 \
    || { echo "merge failed for $h: see $build/fuzz/merge/$h.log"; exit 1; }
  rm -rf "fuzz/corpus/$h"; mkdir -p "fuzz/corpus/$h"; cp "$new"/* "fuzz/corpus/$h/"
  echo "$h: $(ls fuzz/corpus/$h | wc -l) files, $(du -sk fuzz/corpus/$h | cut -f1) KiB"
done
echo "fuzz/corpus total: $(du -sk fuzz/corpus | cut -f1) KiB"
