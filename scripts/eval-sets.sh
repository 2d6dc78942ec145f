#!/usr/bin/env bash
# Run the question sets the defaults are calibrated and reported on, one
# summary line each (README, "Evaluation").
#
#   scripts/eval-sets.sh [dev|test] [CONFIG.toml] [INDEX_ROOT]
#
# dev: the lighthouse set (eval/questions.json, all of it) and the dev halves
# of the music and papers sets (calibrate on these); test: the test halves
# (report these, never tune on them). CONFIG (optional) overrides the
# defaults, e.g. the baseline of a comparison. Indexes are kept in INDEX_ROOT
# (default: $TMPDIR/research-board-eval) and updated, not rebuilt, per run.
# Needs a release build (cargo build --release) and ../shared/corpora.
set -euo pipefail
split=${1:-dev}
cfg=${2:-}
root=${3:-${TMPDIR:-/tmp}/research-board-eval}
here=$(cd "$(dirname "$0")/.." && pwd)
bin=${RESEARCH_BOARD_BIN:-$here/target/release/research-board}
corpora=$here/../shared/corpora
mkdir -p "$root"
args=()
[ -n "$cfg" ] && args+=(--config "$(realpath "$cfg")")
run() { # name index folder questions [--split S]
  local name=$1 ix=$2 dir=$3 qs=$4; shift 4
  "$bin" eval "$dir" --questions "$qs" --index-dir "$root/$ix" "$@" ${args[@]+"${args[@]}"} \
    --report "$root/$name-$split.json" >/dev/null 2>"$root/$name-$split.err" || {
      echo "$name: eval failed, see $root/$name-$split.err" >&2; return 1; }
  python3 - "$name ($split)" "$root/$name-$split.json" <<'PY'
import json, sys
name, path = sys.argv[1], sys.argv[2]
d = json.load(open(path))
f = lambda x: '-' if x is None else '%.3f' % x
high = d['confidence'].get('high', {})
if d['answerable'] == 0:  # the off-topic probes: only refusal means anything
    print('%-15s off-topic %s of %d refused  %.1f ms' % (name, f(d['refusal_accuracy_off_topic']),
          d['unanswerable'], d['mean_query_ms']))
    sys.exit(0)
print('%-15s recall@5 %s  MRR %s  quote recall %s (%.0f words)  off-topic %s  near-miss %s  false refusals %s  high right %s/%s  %.1f ms'
      % (name, f(d['recall_at_k']), f(d['mrr']), f(d['quote_recall']), d.get('mean_quote_words', 0),
         f(d['refusal_accuracy_off_topic']), f(d['refusal_accuracy_near_miss']),
         f(d['false_refusal_rate']), high.get('right', 0), high.get('answered', 0),
         d['mean_query_ms']))
PY
}
if [ "$split" = dev ]; then
  run lighthouse lighthouse "$here/sample-sources" "$here/eval/questions.json"
fi
run music music "$corpora/music-library" "$here/eval/music-questions.json" --split "$split"
run papers papers "$corpora/papers" "$here/eval/papers-questions.json" --split "$split"
# The second sets over the same folders (written blind later) share their
# indexes.
run music-b music "$corpora/music-library" "$here/eval/music-questions-b.json" --split "$split"
run papers-b papers "$corpora/papers" "$here/eval/papers-questions-b.json" --split "$split"
# The third sets (written blind on 2026-11-24, fifth round), likewise.
run music-c music "$corpora/music-library" "$here/eval/music-questions-c.json" --split "$split"
run papers-c papers "$corpora/papers" "$here/eval/papers-questions-c.json" --split "$split"
# The fourth sets (written blind on 2026-11-24, sixth round), likewise.
run music-d music "$corpora/music-library" "$here/eval/music-questions-d.json" --split "$split"
run papers-d papers "$corpora/papers" "$here/eval/papers-questions-d.json" --split "$split"
# The fifth sets (written blind on 2026-11-24, seventh round), likewise.
run music-e music "$corpora/music-library" "$here/eval/music-questions-e.json" --split "$split"
run papers-e papers "$corpora/papers" "$here/eval/papers-questions-e.json" --split "$split"
# The sixth sets (written blind on 2026-11-24, eighth round; half the
# questions, of every kind, in the author's own voice), likewise.
run music-f music "$corpora/music-library" "$here/eval/music-questions-f.json" --split "$split"
run papers-f papers "$corpora/papers" "$here/eval/papers-questions-f.json" --split "$split"
# The seventh sets (written blind on 2026-11-24, ninth round; weighted to
# refusals: 8 near misses and 12 off-topic questions of 40), likewise.
run music-g music "$corpora/music-library" "$here/eval/music-questions-g.json" --split "$split"
run papers-g papers "$corpora/papers" "$here/eval/papers-questions-g.json" --split "$split"
# The eighth sets (written blind on 2026-12-06, eighteenth round; not yet
# calibrated on), likewise.
run music-h music "$corpora/music-library" "$here/eval/music-questions-h.json" --split "$split"
run papers-h papers "$corpora/papers" "$here/eval/papers-questions-h.json" --split "$split"
# The ninth sets (written blind on 2026-12-07, nineteenth round; not yet
# calibrated on), likewise.
run music-i music "$corpora/music-library" "$here/eval/music-questions-i.json" --split "$split"
run papers-i papers "$corpora/papers" "$here/eval/papers-questions-i.json" --split "$split"
# The tenth sets (written blind on 2026-12-07, twenty-first round; no rule
# calibrated on them yet), likewise.
run music-j music "$corpora/music-library" "$here/eval/music-questions-j.json" --split "$split"
run papers-j papers "$corpora/papers" "$here/eval/papers-questions-j.json" --split "$split"
# The eleventh sets (written blind on 2026-12-07, twenty-second round; no
# rule calibrated on them yet), likewise.
run music-k music "$corpora/music-library" "$here/eval/music-questions-k.json" --split "$split"
run papers-k papers "$corpora/papers" "$here/eval/papers-questions-k.json" --split "$split"
# Off-topic probes (written blind on 2026-11-24, tenth round: 60 per folder,
# everyday questions, the sources' words in another sense, other subjects;
# all dev: the tenth round calibrated on them).
if [ "$split" = dev ]; then
  run music-probes music "$corpora/music-library" "$here/eval/music-offtopic-probes.json"
  run papers-probes papers "$corpora/papers" "$here/eval/papers-offtopic-probes.json"
fi
# A third kind of source (eleventh round): technical documentation with
# code, the nineteen Python 3.11 HOWTOs (Debian `python3.11-doc`, copied
# from the package; skipped when it is not installed). Written blind.
howto=/usr/share/doc/python3.11/html/_sources/howto
if [ -d "$howto" ]; then
  mkdir -p "$root/pydocs-src"
  find "$howto" -maxdepth 1 -name '*.rst.txt' ! -name index.rst.txt -exec cp -u {} "$root/pydocs-src/" \;
  run pydocs pydocs "$root/pydocs-src" "$here/eval/pydocs-questions.json" --split "$split"
fi
