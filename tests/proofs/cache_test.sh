#!/usr/bin/env bash
# The proof cache's rules (proofs/cache.sh), on hand-written entries in
# both spellings WP and jq write.  TAP on stdout.
set -u
cd "$(dirname "$0")/../.."
. proofs/cache.sh
. tests/proofs/tap.sh
same_json() { [ "$(jq -cS . "$1")" = "$(jq -cS . "$2")" ]; }

# A stored cache as proofs/cache.json holds it (jq's compact spelling).
cat > "$t/stored.json" <<'J'
{"a0":{"prover":"CVC5:1.0.3","verdict":"valid","time":0.33},
 "a1":{"prover":"CVC4:1.8","verdict":"stepout","steps":20000,"time":0.2},
 "a2":{"prover":"CVC5:1.0.3","verdict":"unknown","time":0.1},
 "a3":{"prover":"CVC4:1.8","verdict":"valid","steps":18405,"time":0.05},
 "a4":{"prover":"CVC5:1.0.3","verdict":"stepout","steps":100000,"time":2.5}}
J
c=$t/cache
cache_seed "$c" "$t/stored.json"
check "seed keeps a cvc5 proof stored without a step count" test -s "$c/a0.json"
check "seed keeps a step-out with its step count" test -s "$c/a1.json"
check "seed keeps a proof with a step count" test -s "$c/a3.json"
check "seed keeps an entry cache_mark wrote" test -s "$c/a4.json"
check "seed drops an unknown without a step count (its budget is not known)" test ! -e "$c/a2.json"
check "seed writes nothing else" test "$(ls "$c" | wc -l)" = 4

# Files as WP writes them after a pass (its spaced spelling).
printf '%s\n' '{ "prover": "CVC5:1.0.3", "verdict": "unknown", "time": 0.5 }' > "$c/b0.json"
printf '%s\n' '{ "prover": "CVC5:1.0.3", "verdict": "failed", "time": 0.1 }' > "$c/b1.json"
printf '%s\n' '{ "prover": "CVC5:1.0.3", "verdict": "valid", "time": 0.26 }' > "$c/b2.json"
printf '%s\n' '{ "prover": "CVC4:1.8", "verdict": "stepout", "time": 1.2, "steps": 100000 }' > "$c/b3.json"
cp "$c/b2.json" "$t/b2.before"; cp "$c/b3.json" "$t/b3.before"; cp "$c/a0.json" "$t/a0.before"
cache_mark "$c" 20000
check "mark: an unknown becomes a step-out at the pass's budget" \
  test "$(jq -c '[.prover, .verdict, .steps, .time]' "$c/b0.json")" = '["CVC5:1.0.3","stepout",20000,0.5]'
check "mark: another failure without a step count is dropped" test ! -e "$c/b1.json"
check "mark: a proof WP wrote is untouched" cmp -s "$c/b2.json" "$t/b2.before"
check "mark: a proof jq wrote is untouched" cmp -s "$c/a0.json" "$t/a0.before"
check "mark: a step-out with its step count is untouched" cmp -s "$c/b3.json" "$t/b3.before"
check "mark: nothing is left without a step count but proofs" test -z "$(cache_limitless "$c")"

# Saved and seeded again: the same entries.
cache_save "$c" "$t/saved.json"
check "save: one entry per file" test "$(jq length "$t/saved.json")" = "$(ls "$c" | wc -l)"
cache_seed "$t/again" "$t/saved.json"
ok=true
for f in "$c"/*.json; do same_json "$f" "$t/again/$(basename "$f")" || ok=false; done
check "save then seed: every entry comes back unchanged" $ok
check "save then seed: nothing more" test "$(ls "$t/again" | wc -l)" = "$(ls "$c" | wc -l)"

# Two stored caches seeded together (the proof mutants: proofs/cache.json,
# then proofs/mutants-cache.json): the entries of both, the later file's
# where a key is in both.
cat > "$t/extra.json" <<'J'
{"a1":{"prover":"CVC4:1.8","verdict":"stepout","steps":450000,"time":9.1},
 "m0":{"prover":"CVC4:1.8","verdict":"stepout","steps":100000,"time":3.2},
 "m1":{"prover":"CVC5:1.0.3","verdict":"unknown","time":0.4}}
J
cache_seed "$t/two" "$t/stored.json" "$t/extra.json"
check "seed of two: the second file's entries too" test -s "$t/two/m0.json"
check "seed of two: the later file's entry where both hold a key" \
  test "$(jq -c .steps "$t/two/a1.json")" = 450000
check "seed of two: the first file's others kept" test -s "$t/two/a0.json" -a -s "$t/two/a3.json"
check "seed of two: a failure without a step count dropped from either" test ! -e "$t/two/m1.json" -a ! -e "$t/two/a2.json"
check "seed of two: nothing else" test "$(ls "$t/two" | wc -l)" = 5
# Saved against a base: only the keys the base does not hold.
cache_save "$t/two" "$t/new.json" "$t/stored.json"
check "save against a base: only the keys the base lacks" test "$(jq -c 'keys' "$t/new.json")" = '["m0"]'
same_json <(jq .m0 "$t/new.json") "$t/two/m0.json"
check "save against a base: the entry unchanged" test $? = 0
cache_save "$t/two" "$t/all.json" ""
check "save with an empty base argument: every entry" test "$(jq length "$t/all.json")" = 5

# Seeded once for many runs (the proof mutants), then linked into each.
s=$t/shared
cache_share "$s" 100000 "$t/stored.json" "$t/extra.json"
check "share: the proofs apart" test "$(ls "$s/proved")" = "$(printf '%s\n' a0.json a3.json)"
check "share: the failures with at least the least budget apart, the others dropped" \
  test "$(ls "$s/other")" = "$(printf '%s\n' a1.json a4.json m0.json)"
check "share: nothing else" test "$(ls "$s")" = "$(printf '%s\n' other proved)"
cache_share "$t/shared1" 100000 "$t/stored.json"
check "share: a step-out below the least budget dropped" test ! -e "$t/shared1/other/a1.json" -a -s "$t/shared1/other/a4.json"
same_json "$s/other/a1.json" "$t/two/a1.json"
check "share: the later file's entry where both hold a key" test $? = 0
l=$t/linked
mkdir -p "$l"; echo stale > "$l/old.json"
cache_link "$l" "$s"
check "link: every shared entry, nothing else" test "$(ls "$l")" = "$(printf '%s\n' a0.json a1.json a3.json a4.json m0.json)"
check "link: a proof is the shared file itself" test "$l/a0.json" -ef "$s/proved/a0.json" -a "$l/a3.json" -ef "$s/proved/a3.json"
check "link: a failure is a copy" test ! "$l/a1.json" -ef "$s/other/a1.json" -a ! "$l/m0.json" -ef "$s/other/m0.json"
same_json "$l/m0.json" "$s/other/m0.json"
check "link: a copy has the shared entry's content" test $? = 0
cp "$s/other/m0.json" "$t/m0.before"
# what WP does after proving a step-out's task again: rewrites the file in place
printf '%s\n' '{ "prover": "CVC4:1.8", "verdict": "valid", "time": 4.0, "steps": 180000 }' > "$l/m0.json"
printf '%s\n' '{ "prover": "CVC5:1.0.3", "verdict": "unknown", "time": 0.5 }' > "$l/n0.json"
cache_mark "$l" 100000
unchanged() { cmp -s "$s/other/m0.json" "$t/m0.before" && [ "$(ls "$s/proved" "$s/other" | grep -c json)" = 5 ]; }
check "link: a rewritten copy and a mark leave the shared cache as it was" unchanged

tap_end
