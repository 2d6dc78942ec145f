//! A snippet as parts (its sentences, split again at elision marks): a
//! passage split across two adjacent chunks (verdict 3) and the
//! `non_contiguous` verdict (5) of the module docs of `validate`.

use super::locate::Hit;
use super::{Normalized, Status, Validation, Validator, Verdict, normalize, word_count};
use crate::text::sentences;
use std::cell::OnceCell;

/// The snippet's parts: its sentences, further split at elision marks.
pub(super) fn parts(content: &str) -> Vec<&str> {
    let mut out = Vec::new();
    for r in sentences(content) {
        let mut rest = &content[r];
        loop {
            let next = ["[…]", "[...]", "(...)", "…", "..."]
                .iter()
                .filter_map(|m| rest.find(m).map(|at| (at, m.len())))
                .min();
            let (piece, tail) = match next {
                Some((at, len)) => (&rest[..at], Some(&rest[at + len..])),
                None => (rest, None),
            };
            if piece.chars().any(char::is_alphanumeric) {
                out.push(piece.trim());
            }
            match tail {
                Some(t) => rest = t,
                None => break,
            }
        }
    }
    out
}

/// The snippet's parts, normalized, with their first occurrence in each
/// chunk found once.
pub(super) struct Parts {
    needles: Vec<Normalized>,
    first: Vec<Vec<OnceCell<Option<Hit>>>>,
}

impl Parts {
    pub(super) fn new(pieces: &[&str], chunks: usize) -> Parts {
        Parts {
            needles: pieces.iter().map(|p| normalize(p)).collect(),
            first: pieces
                .iter()
                .map(|_| (0..chunks).map(|_| OnceCell::new()).collect())
                .collect(),
        }
    }

    fn len(&self) -> usize {
        self.needles.len()
    }

    /// First occurrence of part `p` in chunk `i`.
    fn first(&self, corpus: &Validator<'_, '_>, p: usize, i: usize) -> Option<Hit> {
        *self.first[p][i].get_or_init(|| corpus.normalized(i, &self.needles[p], 0))
    }

    /// First occurrence of part `p` in chunk `i` at or after normalized char
    /// `from`, else its first occurrence.
    fn find(&self, corpus: &Validator<'_, '_>, p: usize, i: usize, from: usize) -> Option<Hit> {
        let first = self.first(corpus, p, i)?;
        if first.nstart >= from {
            return Some(first);
        }
        corpus.normalized(i, &self.needles[p], from).or(Some(first))
    }
}

/// Step 5: every part located (normalized) in one chunk of the cited
/// source, else in chunks of the cited source, else in one chunk of another
/// source, else in chunks of one other source; but not adjacent and in order.
pub(super) fn non_contiguous(
    corpus: &Validator<'_, '_>,
    pneedles: &Parts,
    cited: &[usize],
    others: &[usize],
) -> Option<(Vec<Hit>, String)> {
    let chunks = corpus.chunks;
    if let Some(r) = in_one_chunk(corpus, pneedles, cited) {
        return r;
    }
    if let Some(r) = across_chunks(corpus, pneedles, cited) {
        return Some(r);
    }
    if let Some(r) = in_one_chunk(corpus, pneedles, others) {
        return r;
    }
    let mut sources: Vec<&str> = Vec::new();
    for &i in others {
        if !sources.contains(&chunks[i].source_id) {
            sources.push(chunks[i].source_id);
        }
    }
    sources.into_iter().find_map(|src| {
        let members: Vec<usize> = others
            .iter()
            .copied()
            .filter(|&i| chunks[i].source_id == src)
            .collect();
        across_chunks(corpus, pneedles, &members)
    })
}

/// The first chunk of `group` holding every part (an in-order placement
/// preferred): Some(Some(..)) when they are not adjacent and in order there,
/// Some(None) when they are (not a splice: the difference is elsewhere).
#[allow(clippy::option_option)]
fn in_one_chunk(
    corpus: &Validator<'_, '_>,
    pneedles: &Parts,
    group: &[usize],
) -> Option<Option<(Vec<Hit>, String)>> {
    for &i in group {
        let mut hits: Vec<Hit> = Vec::with_capacity(pneedles.len());
        for p in 0..pneedles.len() {
            let after = hits.last().map_or(0, |h| h.nend);
            let Some(h) = pneedles.find(corpus, p, i, after) else {
                break;
            };
            hits.push(h);
        }
        if hits.len() < pneedles.len() {
            continue;
        }
        let norm = corpus.norm(i);
        for (k, w) in hits.windows(2).enumerate() {
            let (a, b) = (w[0], w[1]);
            if side_by_side(norm, a, b) {
                continue;
            }
            let note = if b.nstart < a.nstart {
                format!(
                    "sentence {} precedes sentence {} in the source",
                    k + 2,
                    k + 1
                )
            } else if b.nstart < a.nend {
                format!("sentences {} and {} overlap in the source", k + 1, k + 2)
            } else {
                let gap = word_count(norm.slice(a.nend, b.nstart));
                format!(
                    "the source has {gap} more word{} between sentence {} and sentence {}",
                    if gap == 1 { "" } else { "s" },
                    k + 1,
                    k + 2
                )
            };
            return Some(Some((hits, note)));
        }
        return Some(None);
    }
    None
}

/// Does hit `b` follow hit `a` directly (at most one space between) in the
/// chunk's normalized text?
fn side_by_side(norm: &Normalized, a: Hit, b: Hit) -> bool {
    b.nstart == a.nend || (b.nstart == a.nend + 1 && norm.text_char(a.nend) == ' ')
}

/// Every part found, in order, at the end of one chunk of `group` and the
/// start of the chunk that directly follows it (and side by side within
/// each): one contiguous passage of the document split by chunking.
pub(super) fn across_boundary(
    corpus: &Validator<'_, '_>,
    pneedles: &Parts,
    group: &[usize],
) -> Option<Vec<Hit>> {
    for &first in group {
        let Some(second) = corpus.next[first] else {
            continue;
        };
        let mut hits: Vec<Hit> = Vec::new();
        let mut chunk = first;
        for p in 0..pneedles.len() {
            let after = hits
                .last()
                .filter(|h| h.chunk == chunk)
                .map_or(0, |h| h.nend);
            let h = match pneedles.find(corpus, p, chunk, after) {
                Some(h) if h.nstart >= after => h,
                _ if chunk == first => {
                    chunk = second;
                    pneedles.find(corpus, p, chunk, 0)?
                }
                _ => break,
            };
            hits.push(h);
        }
        if hits.len() != pneedles.len()
            || hits.first()?.chunk != first
            || hits.last()?.chunk != second
        {
            continue;
        }
        let ok = hits.windows(2).all(|w| {
            let (a, b) = (w[0], w[1]);
            if a.chunk == b.chunk {
                side_by_side(corpus.norm(a.chunk), a, b)
            } else {
                a.nend == corpus.norm(a.chunk).len() && b.nstart == 0
            }
        });
        if ok {
            return Some(hits);
        }
    }
    None
}

/// Every part in some chunk of `group` (at least two chunks used).
fn across_chunks(
    corpus: &Validator<'_, '_>,
    pneedles: &Parts,
    group: &[usize],
) -> Option<(Vec<Hit>, String)> {
    if group.len() < 2 {
        return None;
    }
    let hits: Vec<Hit> = (0..pneedles.len())
        .map(|p| group.iter().find_map(|&i| pneedles.first(corpus, p, i)))
        .collect::<Option<_>>()?;
    let mut ids: Vec<usize> = hits.iter().map(|h| h.chunk).collect();
    ids.sort_unstable();
    ids.dedup();
    (ids.len() >= 2).then(|| {
        let n = ids.len();
        (
            hits,
            format!("the sentences come from {n} separate passages of the source"),
        )
    })
}

/// A quote holding bracketed insertions of the author's (`[the keeper]`,
/// `[sic]`; not an elision `[…]`): judged without them, and never
/// validated, since those words are not the source's. None when it holds
/// none, or when without them it is not found either.
pub(super) fn with_insertions(
    content: &str,
    judge: impl Fn(&str) -> Validation,
) -> Option<Validation> {
    let mut rest = content;
    let (mut kept, mut inserted) = (String::new(), Vec::new());
    while let Some(open) = rest.find('[') {
        let close = open + rest[open..].find(']')?;
        let inner = &rest[open + 1..close];
        if inner.len() > 80 || inner.contains('[') {
            return None;
        }
        if inner.chars().any(char::is_alphanumeric) {
            kept.push_str(&rest[..open]);
            inserted.push(&rest[open..=close]);
        } else {
            // An elision, `[…]`: the parts either side stay apart.
            kept.push_str(&rest[..=close]);
        }
        rest = &rest[close + 1..];
    }
    kept.push_str(rest);
    let kept = kept.split_whitespace().collect::<Vec<_>>().join(" ");
    if inserted.is_empty() || !kept.chars().any(char::is_alphanumeric) {
        return None;
    }
    let mut v = judge(&kept);
    if v.status == Status::Dropped {
        return None;
    }
    let added: usize = inserted.iter().map(|i| i.chars().count()).sum();
    v.similarity = (v.similarity - added as f32 / content.chars().count().max(1) as f32).max(0.0);
    v.verdict = Verdict::Fuzzy;
    v.status = Verdict::Fuzzy.status();
    v.note = format!(
        "holds the bracketed {}, the author's words, not the source's; judged without it: {}",
        inserted
            .iter()
            .map(|i| format!("“{i}”"))
            .collect::<Vec<_>>()
            .join(", "),
        v.note
    );
    Some(v)
}
