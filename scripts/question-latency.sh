#!/usr/bin/env bash
# Per-question latency on real questions over real sources: every question
# of the music and papers sets (both halves), twice, through `eval`, and
# the p50 / p95 of each pipeline stage from the reports' per-question
# timings (the first question of each run is reported apart: it waits for
# whatever of the model is not loaded yet).
#
#   scripts/question-latency.sh [BIN] [INDEX_ROOT]
#
# Run two builds one after the other to compare them (README,
# "Performance"). Needs ../shared/corpora and a release build.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
bin=${1:-$here/target/release/research-board}
root=${2:-${TMPDIR:-/tmp}/research-board-eval}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
corpora=$here/../shared/corpora
for round in 1 2; do
  for set in "" -b -c -d -e -f -g; do
    for c in music papers; do
      dir=$corpora/papers
      [ "$c" = music ] && dir=$corpora/music-library
      "$bin" eval "$dir" --questions "$here/eval/$c-questions$set.json" \
        --index-dir "$root/$c" --report "$out/$c$set-$round.json" >/dev/null 2>"$out/err" || {
        echo "eval of $c$set failed:" >&2; cat "$out/err" >&2; exit 1; }
    done
  done
done
python3 - "$out" <<'PY'
import glob, json, statistics, sys
rows, firsts = [], []
for f in sorted(glob.glob(sys.argv[1] + '/*-[12].json')):
    r = json.load(open(f))['results']
    firsts.append(r[0]['timings_ms']['total'])
    rows += [x['timings_ms'] for x in r[1:]]
pct = lambda v, p: sorted(v)[min(len(v) - 1, int(round(p * (len(v) - 1))))]
print('%d timings; the first question of each run %.1f ms on average' % (len(rows), statistics.mean(firsts)))
for k in ['retrieve', 'budget', 'extract', 'validate', 'total']:
    v = [x[k] for x in rows]
    print('%-9s p50 %6.2f ms  p95 %6.2f ms' % (k, pct(v, .5), pct(v, .95)))
PY
