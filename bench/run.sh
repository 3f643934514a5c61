#!/usr/bin/env bash
# make bench: every benchmark in one run, then one table, the CSV and a chart.
#   bench/run.sh BENCH_BIN BPF_DIR OUT_DIR
# Writes OUT_DIR/results.csv (bench,payload,impl,value,unit,records,rounds,extra),
# OUT_DIR/table.txt, OUT_DIR/machine.txt, OUT_DIR/ns_per_record.png and
# OUT_DIR/callgrind-breakdown-rp-iter.txt.  Timings are reported, never asserted; the
# run fails only if a consumer misses a record or a checksum differs.
set -u
bin=$1 bpf=$2 out=$3
here=$(dirname "$0")
mkdir -p "$out"
csv=$out/results.csv
{
  echo "machine: $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) CPUs, Linux $(uname -r)"
  echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
} > "$out/machine.txt"
cat "$out/machine.txt"

start=$(date +%s)
"$bin" --csv "$csv" --bpf "$bpf"
rc=$?
if [ $rc -ne 0 ]; then
  echo "bench: a consumer delivered wrong records (see above); no table" >&2
  exit $rc
fi
echo "instructions per record (callgrind):"
bash "$here/callgrind.sh" "$bin" "$out" "$csv" || rc=1
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg); took $(( $(date +%s) - start )) s" | tee -a "$out/machine.txt"

# The one table: each ringproof figure against its reference, the ratio
# (ringproof / reference; for events/s, reference / ringproof, so that
# below 1 always means ringproof is cheaper) and the issue's target.
awk -F, '
  NR == 1 { next }
  { v[$1 "," $2 "," $3] = $4; unit[$1] = $5
    if ($1 == "e2e-wakeup1") { w1[$3] += $4; w1n[$3]++ }
    if ($1 == "e2e-watermark" && $0 ~ /producer_bound=1/) bound[$3] = 1 }
  # noratio: print both figures and no ratio (they measure something else
  # than the two consumers, so their ratio would say nothing about them)
  function row(name, bench, size, rp, ref, target, noratio,   a, b, ratio, met, p) {
    a = v[bench "," size "," rp]; b = v[bench "," size "," ref]
    if (a == "" || b == "" || a == 0 || b == 0) return
    if (noratio) {
      printf "%-40s %5s %11.1f %11.1f %-13s %6s %7s %4s\n", name, size, a, b, unit[bench], "-", "-", "-"
      return
    }
    ratio = (unit[bench] == "events/s") ? b / a : a / b
    # timed rows: the median of the per-round ratios (bench.h, rpb_paired_ratio)
    p = v[bench "-paired," size "," rp "/" ref]
    if (p != "" && p > 0) ratio = p
    met = "-"
    if (target != "") met = (ratio <= target + 0) ? "yes" : "NO"
    printf "%-40s %5s %11.1f %11.1f %-13s %6.2f %7s %4s\n", name, size, a, b, unit[bench], ratio,
           target == "" ? "-" : "<=" target, met
  }
  END {
    printf "%-40s %5s %11s %11s %-13s %6s %7s %4s\n", "comparison (ringproof vs reference)", "bytes",
           "ringproof", "reference", "unit", "ratio", "target", "met"
    split("8 64 256 512 4000", sz, " ")
    for (i = 1; i <= 5; i++) row("perf record drain + view vs perf_buffer", "perf", sz[i], "rp-adapter", "libbpf", "1.00")
    for (i = 1; i <= 5; i++) row("perf payload drain vs libbpf perf_buffer", "perf", sz[i], "rp-payload", "libbpf", "1.00")
    for (i = 1; i <= 5; i++) row("perf batch API vs libbpf perf_buffer", "perf", sz[i], "rp-batch", "libbpf", sz[i] <= 64 ? "0.77" : "")
    for (i = 1; i <= 5; i++) row("perf core direct vs libbpf perf_buffer", "perf", sz[i], "rp-core", "libbpf", "")
    for (i = 1; i <= 5; i++) row("perf payload drain, RP_PERF_PREFETCH", "perf", sz[i], "rp-payload-pf", "libbpf", "")
    for (i = 1; i <= 5; i++) row("perf record drain + view, light", "perf-light", sz[i], "rp-adapter", "libbpf", "")
    for (i = 1; i <= 5; i++) row("perf payload drain, light consumer", "perf-light", sz[i], "rp-payload", "libbpf", "")
    for (i = 1; i <= 5; i++) row("perf payload, light, RP_PERF_PREFETCH", "perf-light", sz[i], "rp-payload-pf", "libbpf", "")
    for (i = 1; i <= 5; i++) row("perf batch API, light consumer", "perf-light", sz[i], "rp-batch", "libbpf", "")
    for (i = 1; i <= 5; i++) row("ringbuf adapter vs libbpf ring_buffer", "ringbuf", sz[i], "rp-adapter", "libbpf", "1.00")
    for (i = 1; i <= 5; i++) row("ringbuf batch API vs libbpf ring_buffer", "ringbuf", sz[i], "rp-batch", "libbpf", sz[i] <= 64 ? "0.77" : "")
    for (i = 1; i <= 5; i++) row("ringbuf adapter, light consumer", "ringbuf-light", sz[i], "rp-adapter", "libbpf", "")
    for (i = 1; i <= 5; i++) row("ringbuf batch API, light consumer", "ringbuf-light", sz[i], "rp-batch", "libbpf", "")
    for (i = 1; i <= 5; i++) row("core iterator vs plain floor loop", "floor", sz[i], "rp-iter", "plain-floor", sz[i] <= 64 ? "1.50" : (sz[i] >= 512 ? "1.10" : ""))
    for (i = 1; i <= 5; i++) row("core (drain+view) vs plain floor loop", "floor", sz[i], "rp-core-dv", "plain-floor", "")
    for (i = 1; i <= 5; i++) row("core iterator vs floor, instr/record", "ipr", sz[i], "rp-iter", "plain-floor", sz[i] == 8 ? "3.00" : "")
    for (i = 1; i <= 5; i++) row("core record iter+view vs floor, instr", "ipr", sz[i], "rp-iter-view", "plain-floor", "")
    for (i = 1; i <= 5; i++) row("core (drain+view) vs floor, instr/rec", "ipr", sz[i], "rp-core-dv", "plain-floor", "")
    for (i = 1; i <= 5; i++) row("core iterator vs floor, instr (+chk)", "ipr", sz[i], "rp-iter+checksum", "plain-floor+checksum", "")
    for (i = 1; i <= 5; i++) row("core (d+v) vs floor, instr/rec (+chk)", "ipr", sz[i], "rp-core-dv+checksum", "plain-floor+checksum", "")
    if (w1n["rp-perf-buffer"] && w1n["libbpf"]) {
      v["w1,64,rp"] = w1["rp-perf-buffer"] / w1n["rp-perf-buffer"]; v["w1,64,lb"] = w1["libbpf"] / w1n["libbpf"]
      unit["w1"] = "events/s"
      row("e2e, wakeup per record (mean of 2)", "w1", 64, "rp", "lb", "")
    }
    # Both producer-bound: neither reader lost a record at any rate the
    # producer reached, and the two figures are the fastest trials of the producer
    # (which vary by 20 % from trial to trial), not the readers.
    both = bound["rp-perf-buffer"] && bound["libbpf"]
    row("e2e, watermark 1/4: max lossless", "e2e-watermark", 64, "rp-perf-buffer", "libbpf", "", both)
    if (both)
      printf "  (e2e watermark: no ratio: both readers kept up with the fastest the producer CPU emits, the figures measure the producer, not the readers)\n"
    else if (bound["rp-perf-buffer"] || bound["libbpf"])
      printf "  (e2e watermark: producer-bound for%s%s: that reader kept up with the fastest the producer CPU emits)\n",
             bound["rp-perf-buffer"] ? " ringproof" : "", bound["libbpf"] ? " libbpf" : ""
  }' "$csv" | tee "$out/table.txt"
echo "ratio: ringproof / reference (cost), or reference / ringproof for events/s: below 1 = ringproof cheaper;"
echo "  for the ns/record rows, the median over rounds of each round's ratio (the consumers of a round run"
echo "  back to back, so a slow phase of the host cancels out), which can differ from the two medians' ratio"
echo "CSV: $csv"

if command -v gnuplot > /dev/null; then
  series() { # bench impl -> data file
    awk -F, -v b="$1" -v i="$2" '$1 == b && $3 == i { print $2, $4 }' "$csv" > "$out/$1-$2.dat"
    [ -s "$out/$1-$2.dat" ]
  }
  plot_of() { # bench impl... -> gnuplot plot arguments
    local b=$1 p="" i
    shift
    for i in "$@"; do
      series "$b" "$i" && p="$p${p:+, }'$out/$b-$i.dat' using 1:2 with linespoints title '$i'"
    done
    echo "$p"
  }
  gnuplot <<GP && echo "chart: $out/ns_per_record.png"
set terminal pngcairo size 2500,520 noenhanced
set output '$out/ns_per_record.png'
set multiplot layout 1,5 title 'Consumer cost per record, median of rounds (lower is better)'
set xlabel 'payload bytes'
set ylabel 'ns per record'
set logscale xy
set key top left
set grid
set title 'perf ring'
plot $(plot_of perf rp-adapter rp-payload rp-payload-pf rp-batch rp-core libbpf)
set title 'perf ring, light consumer'
plot $(plot_of perf-light rp-adapter rp-payload rp-payload-pf rp-batch rp-core libbpf)
set title 'BPF ring buffer'
plot $(plot_of ringbuf rp-adapter rp-batch libbpf)
set title 'BPF ring buffer, light consumer'
plot $(plot_of ringbuf-light rp-adapter rp-batch libbpf)
set title 'floor (in memory)'
plot $(plot_of floor rp-iter rp-core-dv plain-floor)
unset multiplot
GP
fi
exit $rc
