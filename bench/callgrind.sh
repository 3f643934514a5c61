#!/usr/bin/env bash
# Instructions per record of the floor walks, counted by callgrind (exact and
# repeatable, so it holds on a loaded machine).
#   bench/callgrind.sh BENCH_BIN OUT_DIR CSV
# For each payload size, `BENCH_BIN walks SIZE` runs the seven floor walks once
# (bench/floor.c); callgrind collects only inside the named walk
# (--toggle-collect), and the count is divided by the records walked.
# Appends `ipr,...` rows to CSV and writes OUT_DIR/callgrind-breakdown-IMPL.txt:
# where the core's instructions go, per function and per source line, for
# the 8-byte decode-only walk of the iterator.
set -u
bin=$1 out=$2 csv=$3
mkdir -p "$out/callgrind"
if ! command -v valgrind > /dev/null; then
  echo "callgrind: valgrind not installed; instructions per record skipped" >&2
  exit 0
fi
rc=0
# valgrind 3.19 cannot read clang 14's DWARF 5 ("possibly corrupted debuginfo
# file"): count a copy without debug info then (the counts are the same; the
# per-line breakdown needs the debug info and is then per function only).
note=""
if ! valgrind --tool=none "$bin" walks 8 > /dev/null 2>&1; then
  objcopy --strip-debug "$bin" "$out/callgrind/bench-nodebug" || exit 1
  bin=$out/callgrind/bench-nodebug
  note="(debug info unreadable by this valgrind: counted on a copy without it, per function only)"
  echo "callgrind: $note"
fi
# walk function -> impl name in the CSV
walks="rpb_walk_iter_decode:rp-iter rpb_walk_iter_view_decode:rp-iter-view rpb_walk_core_dv_decode:rp-core-dv rpb_walk_plain_decode:plain-floor rpb_walk_iter:rp-iter+checksum rpb_walk_core_dv:rp-core-dv+checksum rpb_walk_plain:plain-floor+checksum"
for size in 8 64 256 512 4000; do
  for w in $walks; do
    fn=${w%%:*} impl=${w#*:}
    f="$out/callgrind/$fn-$size.out"
    log=$(valgrind --tool=callgrind --callgrind-out-file="$f" --toggle-collect="$fn" \
            --dump-instr=yes "$bin" walks "$size" 2>&1)
    if [ $? -ne 0 ]; then
      echo "callgrind: $fn $size failed:" >&2
      echo "$log" | tail -5 >&2
      rc=1
      continue
    fi
    ir=$(echo "$log" | sed -n 's/.*Collected : *\([0-9]*\).*/\1/p')
    recs=$(echo "$log" | sed -n 's/^walks: \([0-9]*\) records.*/\1/p')
    ipr=$(awk -v i="$ir" -v n="$recs" 'BEGIN { printf "%.1f", i / n }')
    printf '  %-8s %5u B  %-22s %12s instr/record\n' ipr "$size" "$impl" "$ipr"
    echo "ipr,$size,$impl,$ipr,instr/record,$recs,1,Ir=$ir" >> "$csv"
  done
done

# The breakdown of the 8-byte decode-only walk of the core's iterator.
for w in rpb_walk_iter_decode:rp-iter:"rp_ring_iter_next_bpf"; do
fn=${w%%:*}; rest=${w#*:}; impl=${rest%%:*}; api=${rest#*:}
f="$out/callgrind/$fn-8.out"
if [ -s "$f" ]; then
  recs=$(awk -F, -v i="$impl" '$1 == "ipr" && $2 == 8 && $3 == i { print $6 }' "$csv")
  {
    echo "Instructions per record of the core's decode-only walk at 8-byte payloads"
    echo "($api + reading the first payload byte), by"
    echo "callgrind: $bin walks 8, --toggle-collect=$fn, $recs records."
    echo "Exclusive counts: code inlined into a function is counted in it. $note"
    echo
    echo "instr/record  function (file)"
    callgrind_annotate --inclusive=no --threshold=100 --auto=no "$f" 2>/dev/null |
      awk -v n="$recs" '/^ *[0-9][0-9,]* +\(/ && !/PROGRAM TOTALS/ {
          v = $1; gsub(",", "", v); line = $0
          sub(/^ *[0-9,]+ +\([ 0-9.%]+\) +/, "", line); sub(/ \[.*/, "", line); sub(/^.*\/\.\//, "", line)
          if (v / n >= 0.05) printf "%12.1f  %s\n", v / n, line }'
    [ -z "$note" ] && echo && echo "Per source line (>= 0.5 instr/record), sorted:" &&
    callgrind_annotate --inclusive=no --threshold=100 --auto=yes "$f" 2>/dev/null |
      awk -v n="$recs" '/Auto-annotated source:/ { file = $NF; sub(".*/", "", file) }
          /^ *[0-9][0-9,]* +\(/ && !/=>/ && !/events annotated/ && file != "" {
            v = $1; gsub(",", "", v); line = $0; sub(/^ *[0-9,]+ +\([ 0-9.%]+\) */, "", line)
            if (v / n >= 0.5) printf "%8.1f  %-12s %s\n", v / n, file, line }' | sort -rn
  } > "$out/callgrind-breakdown-$impl.txt"
  echo "callgrind breakdown: $out/callgrind-breakdown-$impl.txt"
fi
done
exit $rc
