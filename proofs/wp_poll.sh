# Builds proofs/wp_poll.ml (sourced by proofs/run.sh).
# wp_poll_build DIR: compiles it in DIR with the OCaml compiler Frama-C's
# Debian package brings (ocamlopt), checks that Frama-C loads it, and
# prints the module's path; prints a reason on stderr and fails otherwise
# (the proofs then run without it: slower, the same verdict).
wp_poll_build() {
  local dir=$1 lib
  mkdir -p "$dir" && cp proofs/wp_poll.ml "$dir/" || return 1
  lib=$(frama-c -print-lib-path 2>/dev/null) || { echo "wp_poll: frama-c -print-lib-path failed" >&2; return 1; }
  command -v ocamlopt >/dev/null || { echo "wp_poll: no ocamlopt" >&2; return 1; }
  (cd "$dir" && ocamlopt -shared -I "$lib" -I +unix -o wp_poll.cmxs wp_poll.ml) > "$dir/build.log" 2>&1 ||
    { echo "wp_poll: proofs/wp_poll.ml does not build against this Frama-C (see $dir/build.log)" >&2; return 1; }
  frama-c -load-module "$dir/wp_poll.cmxs" > "$dir/load.log" 2>&1 ||
    { echo "wp_poll: Frama-C does not load wp_poll.cmxs (see $dir/load.log)" >&2; return 1; }
  echo "$dir/wp_poll.cmxs"
}
