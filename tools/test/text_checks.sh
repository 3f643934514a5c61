# Text that must come out whole and unforged: deep stacks in full, folded
# frames without spaces, trace --events escapes, pipe on a pinned program.
# Sourced by tools.sh (uses RP, DIR, BPF_DIR, PIN, T, run, ok, nok, skip,
# check, refused, cleanup).
DEEP=$DIR/tools-test-deep

# ---- folded and -g stacks: never cut, never merged ---------------------------
rc=$(run "$RP" record --folded -- "$DEEP" 300)
if [ "$rc" = 1 ] && refused; then
  skip "record --folded: a deep stack keeps its leaf" "kernel refused perf: $(head -1 "$T/err")"
else
  # some 60 frames of a 70-byte name: a line of over 4 KiB
  line=$(grep -E '^tools-test-deep;.*;deep_leaf_spin [0-9]+$' "$T/out" | head -1)
  depth=$(grep -o 'descend_through_a_function_with_a_rather_long_name_to_make_long_stacks' <<<"$line" | wc -l)
  bad=$(awk 'NF != 2' "$T/out" | wc -l)
  check "record --folded: a deep stack keeps its leaf, 2 fields a line (rc=$rc, ${#line} chars, $depth levels)" \
    test "$rc" = 0 -a -n "$line" -a "$depth" -ge 50 -a "$bad" = 0
fi

# record files made by hand (no kernel needed)
hdr='ringproof-record 1\nevent cpu-clock hz 99 lost 0 corrupt 0 secs 1.000000 callchains 1\n'
# a command and a mapping whose names hold spaces and ';'
printf "${hdr}c 1 100 100 1 my prog;x\nm 1 100 400000 100000 0 /memfd:rp b;c (deleted)\ns 2 100 100 0 1 2 1 400010\n" \
  > "$T/spaces.rec"
rc=$(run "$RP" report --folded "$T/spaces.rec")
check "report --folded: spaces and ';' in names become '_' ($(head -1 "$T/out"))" \
  test "$rc" = 0 -a "$(cat "$T/out")" = "my_prog_x;[memfd:rp_b_c_(deleted)+0x10] 1"

# Two samples of 600 frames that differ only in the outermost one: two
# stacks of 599 callers each, not one stack cut short.
frames=$(awk 'BEGIN { for (i = 0; i < 599; i++) printf " %x", 0x400010 + 16 * i }')
printf "${hdr}c 1 100 100 1 deep\nm 1 100 400000 100000 0 /rp-deep\n" > "$T/deep.rec"
printf 's 2 100 100 0 1 2 600%s 410000\ns 3 100 100 0 1 2 600%s 420000\n' "$frames" "$frames" >> "$T/deep.rec"
rc=$(run "$RP" report --json -g "$T/deep.rec")
chains=$(python3 -c '
import json, sys
e = json.load(open(sys.argv[1]))["entries"]
print(" ".join(str(len(c["callers"])) for c in e[0]["callchains"]))' "$T/out" 2>&1 | tail -1)
check "report -g: stacks of 600 frames kept whole and apart (callers per stack: $chains)" \
  test "$rc" = 0 -a "$chains" = "599 599"

# The -g tree has no depth or width limit.  A comb: stack k (k = 0..69) is
# the leaf, callers c1..ck and a caller of its own xk, so that every level
# branches and the indent grows by some 10 columns a level (over 700 at the
# bottom).  Each xk is "[unknown] rp-comb+0x2NNN".
awk -v hdr="$hdr" 'BEGIN {
  printf "%sc 1 100 100 1 comb\nm 1 100 400000 100000 0 /rp-comb\n", hdr
  for (k = 0; k < 70; k++) {
    printf "s %d 100 100 0 1 2 %d 400010", k + 2, k + 2
    for (i = 1; i <= k; i++) printf " %x", 4198400 + 16 * i
    printf " %x\n", 4202496 + 16 * k
  }
}' > "$T/comb.rec"
rc=$(run "$RP" report -g "$T/comb.rec")
tips=$(grep -cE -- '\[unknown\] rp-comb\+0x2[0-9a-f]{3}$' "$T/out")
col=$(awk 'index($0, "[unknown] rp-comb+0x2450") { print index($0, "[unknown] rp-comb+0x2450") }' "$T/out")
check "report -g: a tree branching 70 levels deep is printed whole (rc=$rc, $tips of 70 tips, the last at column ${col:-none})" \
  test "$rc" = 0 -a "$tips" = 70 -a "${col:-0}" -gt 600
# A node with 300 callers: every branch shown.
awk -v hdr="$hdr" 'BEGIN {
  printf "%sc 1 100 100 1 wide\nm 1 100 400000 100000 0 /rp-wide\n", hdr
  for (k = 0; k < 300; k++) printf "s %d 100 100 0 1 2 2 400010 %x\n", k + 2, 4259840 + 16 * k
}' > "$T/wide.rec"
rc=$(run "$RP" report -g "$T/wide.rec")
branches=$(grep -cE -- '--0\.33%--\[unknown\] rp-wide\+0x1[0-9a-f]{4}$' "$T/out")
last=$(grep -c -- '--0\.33%--\[unknown\] rp-wide+0x112b0$' "$T/out")
check "report -g: a node with 300 callers shows 300 branches (rc=$rc, $branches shown)" \
  test "$rc" = 0 -a "$branches" = 300 -a "$last" = 1

# ---- trace --events: names escaped ------------------------------------------
# A file name that holds a forged event line and a terminal escape.
evil=$(printf 'rp-x\n1.000000000 0 1 1 systemd exit ppid=0 status=0 signal=0 \033[31mred')
: > "$T/$evil"
(for i in $(seq 60); do cat "$T/$evil"; sleep 0.05; done) & el=$!
rc=$(run "$RP" trace --seconds 2 --events --comm cat --syscall openat)
kill $el 2>/dev/null; wait $el 2>/dev/null
if [ "$rc" = 1 ] && refused; then
  skip "trace --events escapes file names" "kernel refused bpf/perf: $(head -1 "$T/err")"
else
  forged=$(grep -c '^1\.000000000 ' "$T/out")
  esc=$(grep -c $'\033' "$T/out")
  shown=$(grep -cF 'openat '"$T"'/rp-x\n1.000000000 0 1 1 systemd exit ppid=0 status=0 signal=0 \x1b[31mred' "$T/out")
  check "trace --events escapes file names: no forged line, no raw escape (rc=$rc; $forged forged, $esc raw, $shown escaped)" \
    test "$rc" = 0 -a "$forged" = 0 -a "$esc" = 0 -a "$shown" -ge 1
fi

# ---- trace --events: argv items told apart ------------------------------------
# "rpq a b" is one item, rpq a b three; an item holding a quote, and an empty one
ends_with() { S=$1 awk 'BEGIN { s = ENVIRON["S"] } length($0) >= length(s) && substr($0, length($0) - length(s) + 1) == s' "$T/out" | wc -l; }
(for i in $(seq 60); do
   /bin/echo "rpq a b" > /dev/null; /bin/echo rpq a b > /dev/null; /bin/echo 'rp"q' '' '...' > /dev/null; sleep 0.05
 done) & el=$!
rc=$(run "$RP" trace --seconds 2 --events --comm echo)
kill $el 2>/dev/null; wait $el 2>/dev/null
if [ "$rc" = 1 ] && refused; then
  skip "trace --events quotes argv items" "kernel refused bpf/perf: $(head -1 "$T/err")"
else
  one=$(ends_with ' argv: /bin/echo "rpq a b"')
  three=$(ends_with ' argv: /bin/echo rpq a b')
  quoted=$(ends_with ' argv: /bin/echo "rp\"q" "" "..."')
  check "trace --events: argv items with a space, a quote, empty or '...' are quoted (rc=$rc; one item: $one, three items: $three, quote/empty/...: $quoted)" \
    test "$rc" = 0 -a "$one" -ge 1 -a "$three" -ge 1 -a "$quoted" -ge 1
fi

# ---- pipe on a pinned program -----------------------------------------------
if ! command -v bpftool > /dev/null; then
  skip "pipe on a pinned program says it is no map" "bpftool is not installed"
else
  trap 'rm -f "$PIN-prog" 2>/dev/null; cleanup' EXIT
  if ! bpftool prog load "$BPF_DIR/bench_perf.bpf.o" "$PIN-prog" 2> "$T/err"; then
    skip "pipe on a pinned program says it is no map" "bpftool prog load failed: $(head -1 "$T/err")"
  else
    rc=$(run "$RP" pipe "$PIN-prog")
    check "pipe on a pinned program: refused as a program, not a map (rc=$rc: $(head -1 "$T/err"))" \
      test "$rc" = 1 -a -n "$(grep -F "$PIN-prog is a pinned BPF program, not a map" "$T/err")" \
           -a -z "$(grep 'map (type' "$T/err")"
  fi
  rm -f "$PIN-prog"
  trap cleanup EXIT
fi
