#!/usr/bin/env bash
# make bench: run every benchmark once, keep the table, the CSV and a chart.
#   bench/run.sh BENCH_BIN BPF_DIR OUT_DIR
set -u
bin=$1 bpf=$2 out=$3
mkdir -p "$out"
{
  echo "machine: $(lscpu | sed -n 's/^Model name: *//p' | head -1), $(nproc) CPUs, Linux $(uname -r)"
  echo "load average: $(cut -d' ' -f1-3 /proc/loadavg) (other jobs share this machine)"
} | tee "$out/machine.txt"
"$bin" --csv "$out/results.csv" --bpf "$bpf" | tee "$out/table.txt"
rc=${PIPESTATUS[0]}
echo "CSV: $out/results.csv"
if command -v gnuplot > /dev/null && [ -s "$out/results.csv" ]; then
  for impl in ringproof libbpf; do
    awk -F, -v i="$impl" '$1 == "perf" && $3 == i { print $2, $4 }' "$out/results.csv" > "$out/perf-$impl.dat"
  done
  for impl in ringproof libbpf; do
    awk -F, -v i="$impl" '$1 == "ringbuf" && $3 == i { print $2, $4 }' "$out/results.csv" > "$out/ringbuf-$impl.dat"
  done
  plots="'$out/perf-ringproof.dat' using 1:2 with linespoints title 'perf ring: ringproof', '$out/perf-libbpf.dat' using 1:2 with linespoints title 'perf ring: libbpf perf_buffer'"
  if [ -s "$out/ringbuf-ringproof.dat" ]; then
    plots="$plots, '$out/ringbuf-ringproof.dat' using 1:2 with linespoints title 'BPF ringbuf: ringproof', '$out/ringbuf-libbpf.dat' using 1:2 with linespoints title 'BPF ringbuf: libbpf ring_buffer'"
  fi
  gnuplot <<GP && echo "chart: $out/ns_per_record.png"
set terminal pngcairo size 900,560 noenhanced
set output '$out/ns_per_record.png'
set title 'Consumer cost per record (median of rounds; lower is better)'
set xlabel 'payload bytes'
set ylabel 'ns per record'
set logscale xy
set key top left
set grid
plot $plots
GP
fi
exit $rc
