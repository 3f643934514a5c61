#!/usr/bin/env bash
# The functions defined in the given C files and in their modules' headers
# (X.h beside X.c holds the module's inline definitions, RP_INLINE in
# core/rp_prim.h), comma-separated (for WP's -wp-fct): a definition starts at
# column 0 and its body's "{" stands alone at column 0, the layout every core
# file follows (a prototype ends with ";").
srcs=()
for f in "$@"; do
  srcs+=("$f")
  h=${f%.c}.h
  [ "$h" != "$f" ] && [ -f "$h" ] && srcs+=("$h")
done
awk '
  /^[A-Za-z_][^;]*\(/ && !/^(#|\/|static_assert)/ {
    line = $0; sub(/\(.*/, "", line); n = split(line, w, /[ *]+/); cand = w[n]; next_ok = 1; next }
  /^\{/ && next_ok && cand != "" { print cand; cand = ""; next_ok = 0; next }
  /;[ \t]*$/ { cand = ""; next_ok = 0 }
' "${srcs[@]}" | sort -u | paste -sd, -
