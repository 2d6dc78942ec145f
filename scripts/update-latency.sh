#!/usr/bin/env bash
# Issue 13: how long an update takes after one file is changed, added or
# deleted, on a large real folder already indexed.
#
#   scripts/update-latency.sh SOURCES INDEX_DIR [ROUNDS] [BINARY]
#
# SOURCES must already be indexed into INDEX_DIR (`research-board index
# SOURCES --index-dir INDEX_DIR`). Each round appends a sentence to one
# existing text file, then adds a new Markdown file, then deletes it, and
# times `research-board index` after each (wall clock, the whole process).
# The changed file keeps its appended lines; the added file is removed.
# Prints one line per update and the median of each kind.
set -euo pipefail
src=${1:?SOURCES}
idx=${2:?INDEX_DIR}
rounds=${3:-5}
bin=${4:-target/release/research-board}
victim=$(find "$src" -type f \( -name '*.md' -o -name '*.txt' -o -name '*.rst' \) | sort | head -n 1 || true)
added="$src/zz-update-latency-probe.md"

timed() {
    local t0 t1
    t0=$(date +%s.%N)
    "$bin" index "$src" --index-dir "$idx" >/dev/null 2>&1
    t1=$(date +%s.%N)
    echo "$t1 - $t0" | bc
}

declare -a changed=() new=() deleted=()
for r in $(seq 1 "$rounds"); do
    printf '\nThe probe sentence of round %s, %s.\n' "$r" "$(date +%s%N)" >>"$victim"
    changed+=("$(timed)")
    printf '# Probe %s\n\nThe pelican Marguerite ferried lamp oil, round %s.\n' "$r" "$r" >"$added"
    new+=("$(timed)")
    rm -f "$added"
    deleted+=("$(timed)")
    echo "round $r: changed ${changed[-1]} s, new ${new[-1]} s, deleted ${deleted[-1]} s"
done

median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
echo "median of $rounds: changed $(median "${changed[@]}") s, new $(median "${new[@]}") s, deleted $(median "${deleted[@]}") s"
