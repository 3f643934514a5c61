#!/usr/bin/env bash
# make fuzz-fold: add to fuzz/corpus/<harness>/ the campaign and smoke finds
# that reach an edge the committed inputs (corpus and regressions) do not,
# keeping every committed file.  libFuzzer -merge=1 with -use_counters=0 and
# -use_value_profile=0 counts edges only: a plain -merge=1 (make
# fuzz-minimize) also keeps an input for a new hit-count bucket of an edge,
# which after a 90 s campaign added 469 files to perf_ring for 42 new edges.
set -u
build=${BUILD:-build}
for h in "$@"; do
  work=$build/fuzz/fold/$h
  rm -rf "$work"; mkdir -p "$work/inputs"
  # the committed inputs first: libFuzzer adds to the first directory only
  # what reaches past them
  cp fuzz/corpus/$h/* "$work/inputs/" 2>/dev/null
  cp fuzz/regressions/$h/* "$work/inputs/" 2>/dev/null
  ls "$work/inputs" | sort > "$work/committed"
  srcs=()
  for d in "$build/fuzz/campaign/$h" "$build"/fuzz/smoke/$h-*/corpus; do
    [ -d "$d" ] && srcs+=("$d")
  done
  if [ ${#srcs[@]} = 0 ]; then
    echo "$h: no campaign or smoke finds under $build/fuzz"; continue
  fi
  "$build/fuzz/libfuzzer/$h" -merge=1 -use_counters=0 -use_value_profile=0 -rss_limit_mb=2048 \
    "$work/inputs" "${srcs[@]}" > "$work/merge.log" 2>&1 \
    || { echo "merge failed for $h: see $work/merge.log"; exit 1; }
  added=0
  for f in $(ls "$work/inputs" | sort | comm -23 - "$work/committed"); do
    cp "$work/inputs/$f" "fuzz/corpus/$h/"; added=$((added + 1))
  done
  edges=$(sed -nE 's/.* ([0-9]+) new coverage edges.*/\1/p' "$work/merge.log" | tail -1)
  echo "$h: $added files added (${edges:-0} new edges), $(ls fuzz/corpus/$h | wc -l) files, $(du -sk fuzz/corpus/$h | cut -f1) KiB"
done
