# The proof result cache, sourced by proofs/run.sh (tested by
# tests/proofs/cache_test.sh).  A cache directory holds one WP result file
# per proof task, KEY.json, KEY an MD5 of the exact prover input; the
# stored form (proofs/cache.json) is one JSON object of all of them.
#
# A stored failure without a step count would be replayed at any budget.
# cvc5 reports running out of its resource limit as "unknown" and WP stores
# that without the limit, so a first-tier "unknown" (100,000 steps) would
# stand in the second tier for a goal cvc5 proves with 4 M.  After each pass
# such an entry is restated as what it records, no proof within that pass's
# budget: "stepout" with the pass's steps, which WP replays at that budget or
# less and runs again with more (cache_mark).  Any other stored failure
# without a step count, and any found in a seeded cache (its budget
# unknown), is dropped: the prover simply runs again.
# WP writes '"verdict": "valid"', jq '"verdict":"valid"': the patterns
# below match both.

# cache_seed DIR JSON...: DIR emptied, then one file per entry of each JSON
# (a key in two: the later file's); the failures without a step count are
# dropped.  One awk writes the files (a shell loop took 1.3 s for 5,500
# entries, once per proof mutant; awk 0.3).  A key is an MD5 in hex and
# tojson escapes tabs, so each line splits in two.
cache_seed() {
  local d=$1 j; shift
  rm -rf "$d"; mkdir -p "$d"
  for j in "$@"; do
    [ -s "$j" ] || continue
    jq -r 'to_entries[] | "\(.key)\t\(.value | tojson)"' "$j" |
      awk -F'\t' -v d="$d" '{ f = d "/" $1 ".json"; print $2 > f; close(f) }'
  done
  cache_limitless "$d" | xargs -r rm -f
}

# cache_share SHARED MIN JSON...: seeds SHARED once for many runs of at
# least MIN steps each (the proof mutants), for cache_link: the proofs in
# SHARED/proved, the other entries in SHARED/other, but those with fewer
# than MIN steps: a run with more steps proves their task again anyway (the
# smoke tests' step-outs: 2,500 of proofs/cache.json's entries).
cache_share() {
  local d=$1 min=$2; shift 2
  cache_seed "$d/all" "$@"
  mkdir -p "$d/proved" "$d/other"
  (cd "$d/all" &&
   grep -l '"verdict": *"valid"' -- *.json 2>/dev/null | xargs -r mv -t ../proved/ &&
   awk -v m="$min" 'match($0, /"steps": *[0-9]+/) { s = substr($0, RSTART, RLENGTH); gsub(/[^0-9]/, "", s); if (s + 0 >= m) print FILENAME }' \
     *.json 2>/dev/null | xargs -r mv -t ../other/)
  rm -rf "$d/all"
}

# cache_link DIR SHARED: DIR emptied, then a hard link to each proof of
# SHARED (5,500 links: 0.1 s, where cache_seed takes 0.9 s) and a copy of
# each other entry.  WP rewrites an entry in place only after proving its
# task again, which it does for a step-out below the run's budget, never
# for a proof: so a run writes into no file of SHARED, and no run's result
# reaches another run's cache.
cache_link() {
  rm -rf "$1"; mkdir -p "$1"
  cp -al "$2/proved/." "$1/" && cp -a "$2/other/." "$1/"
}

# cache_limitless DIR: the files of the stored failures without a step count.
cache_limitless() {
  grep -L '"verdict": *"valid"' "$1"/*.json 2>/dev/null | xargs -r grep -L '"steps"'
}

# cache_mark DIR STEPS: after a pass with budget STEPS, its "unknown"s
# without a step count become step-outs at STEPS; other failures without a
# step count are dropped.
cache_mark() {
  local f
  for f in $(cache_limitless "$1"); do
    if grep -q '"verdict": *"unknown"' "$f"; then
      jq -c --argjson b "$2" '. + {verdict: "stepout", steps: $b}' "$f" > "$f.tmp" && mv "$f.tmp" "$f"
    else
      rm -f "$f"
    fi
  done
}

# cache_save DIR JSON [BASE]: every file of DIR into JSON, sorted by key;
# with BASE (a stored cache), only the entries whose key BASE does not hold.
cache_save() {
  local skip=/dev/null
  [ -z "${3:-}" ] || skip=$3
  (cd "$1" && for f in *.json; do printf '%s\t' "${f%.json}"; tr -d '\n' < "$f"; echo; done) |
    sort | jq -R -s --slurpfile base <(if [ -s "$skip" ]; then cat "$skip"; else echo '{}'; fi) \
      'split("\n") | map(select(length > 0) | split("\t") | select($base[0][.[0]] == null) | {key: .[0], value: (.[1] | fromjson)}) | from_entries' \
    > "$2"
}
