//! Validation: is each quoted snippet really in the source it cites?
//!
//! The invariant this module guards: **no snippet is marked validated unless,
//! after the normalization below, it is a contiguous substring of a chunk of
//! the source it cites.** A validated snippet's span, sliced from the
//! original chunk text and normalized, equals the normalized snippet: this is
//! checked for every match before it is accepted, not assumed.
//!
//! # Normalization
//!
//! Applied identically to snippets and to source text ([`normalize`]):
//!
//! 1. A word hyphenated across a line break is joined: a hyphen (`-`, U+2010,
//!    U+2011 or a soft hyphen U+00AD) right after a letter, followed by
//!    whitespace that contains a line break, followed by a letter, is removed
//!    together with that whitespace ("light-\nhouse", "light- \n  house" →
//!    "lighthouse"). A hyphenated compound broken at its hyphen ("well-\nknown")
//!    is joined too ("wellknown"): the text cannot tell the two apart.
//! 2. Soft hyphens (U+00AD) and chars of no width (`normalize::zero_width`:
//!    zero-width spaces and joiners, U+FEFF, tags…) are removed; bidi
//!    controls are not (they reorder what is shown).
//! 3. Quotes are unified: ‘ ’ ‚ ‛ ′ → `'`; “ ” „ ‟ ″ « » → `"`.
//! 4. Dashes: a sentence dash — an em dash or horizontal bar, a run of two
//!    or more dashes (`--`, `---`), or any dash followed by whitespace
//!    (" – ", " - ") — becomes " - " whatever its form, so "a—b", "a -- b"
//!    and "a – b" are the same; any other dash (‐ ‑ ‒ – − ⁃ between word
//!    chars, as in "well-known" or "1811–1820") becomes `-`.
//! 5. Unicode NFKC (compatibility composition: ligatures "ﬁ" → "fi",
//!    full-width forms, NBSP → space, the ellipsis "…" → "..."), applied per
//!    character cluster (a char with its combining marks, joiners, variation
//!    selectors and emoji modifiers) — except for the chars NFKC would turn
//!    into other digits or letters ([`normalize::keeps_identity`]):
//!    superscripts and subscripts, fractions, circled numbers, Roman numeral
//!    signs, modifier letters and squared units keep their identity, so
//!    "10⁶" never matches "106" and "½" never matches "1⁄2".
//! 6. Case fold: each char lowercased (`char::to_lowercase`, no context).
//! 7. Lightweight markup the reader does not see is dropped: emphasis,
//!    strong and code markers (`*`, `_`, `` ` `` runs that open or close a
//!    word; [`markup::markup_run`]), so "was *not* paid" reads "was not
//!    paid"; `snake_case` and `5 * 3` keep theirs, and so do names
//!    (`__init__`, `obj.__len__()`, `snake_case_`). In a source's text a
//!    run that no partner pairs in its paragraph is text, as a Markdown page
//!    shows it ("run_all(*jobs)"; [`markup::unpaired_runs`]); a quote is
//!    tried literally, paired within itself and run by run, and validates
//!    when one of them is the source's text there. A Markdown link reads as
//!    its text: "[Robert Stevenson](url)" is "Robert Stevenson"
//!    ([`markup::link_markup`]). reStructuredText reads as docutils
//!    renders it: a role as its text, `:pep:`/`:rfc:` as "PEP 8", "RFC
//!    2822" ([`markup::rst_role`]; a target marked `~` by its last
//!    component, one marked `!` without the mark), a link without its
//!    `<target>`_ or the space before it ([`markup::rst_link_target`]),
//!    a paragraph's closing "::" as ":" after a word and not at all after a
//!    space ([`markup::literal_block_mark`]).
//! 8. Every whitespace run (spaces, tabs, line breaks, NBSP and the other
//!    Unicode spaces) becomes one space; leading and trailing whitespace is
//!    removed.
//!
//! Every normalized char keeps the original char range it came from, so a
//! match in normalized text maps back to char offsets in the original text
//! (start = original index of the first matched char, end = one past the last
//! original char of the last matched char's cluster). A match that would
//! split a cluster (e.g. half of a ligature, a letter without its combining
//! accent) is not accepted as a normalized match.
//!
//! # Verdicts, in the order they are tried
//!
//! 1. fewer than `min_words` words (UAX #29 words) → `too_short` (dropped);
//! 2. exact substring of a cited chunk, beginning and ending on word
//!    boundaries of the chunk ([`words`]) → `verbatim` (validated);
//! 3. substring of a cited chunk after normalization, on word boundaries →
//!    `normalized` (validated);
//!    A passage across the boundary of two adjacent chunks of the cited
//!    source — split between its sentences, or inside one (a PDF page
//!    break) at a space — each piece at the end of the first chunk and the
//!    start of the next, on word boundaries, is `normalized` too;
//! 4. exact or normalized substring of a chunk of another source →
//!    `misattributed` (flagged), with the real source and span;
//! 5. two or more sentences (or parts separated by an elision mark "…",
//!    "[...]") each found after normalization, in one chunk (cited first)
//!    or in chunks of one source, but not adjacent and in order →
//!    `non_contiguous` (flagged), one span per part in snippet order;
//! 6. best approximate infix alignment (Myers' bit-parallel edit distance on
//!    normalized chars, free start and end in the chunk) with similarity
//!    `1 - distance / snippet length` ≥ `fuzzy_threshold`, cited chunks
//!    first → `fuzzy` (flagged), with the aligned region as span;
//! 7. otherwise `not_found` (dropped), with the best similarity to the
//!    cited source's chunks (to any chunk when the cited source has none).
//!
//! `copy_text` is always the source's own text at the span(s), never the
//! snippet's wording, as a reader sees it ([`reader_text`]: line breaks,
//! CRs and runs of spaces are one space, a line-end hyphenation is joined).

mod locate;
pub mod markup;
pub mod myers;
pub mod normalize;
mod parts;
mod reader;
pub mod words;

pub use normalize::{Normalized, is_line_break, is_line_hyphen, normalize, normalize_literal};

use crate::extract::Span;
use crate::text::{char_offset, slice_chars};
use locate::Hit;
pub use locate::adjacency;
use parts::{Parts, across_boundary, non_contiguous, parts};
pub use reader::reader_text;
use serde::{Deserialize, Serialize};
use std::cell::OnceCell;
use unicode_segmentation::UnicodeSegmentation;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Verdict {
    Verbatim,
    Normalized,
    Fuzzy,
    NonContiguous,
    Misattributed,
    NotFound,
    TooShort,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Status {
    Validated,
    Flagged,
    Dropped,
}

impl Verdict {
    pub fn status(self) -> Status {
        match self {
            Verdict::Verbatim | Verdict::Normalized => Status::Validated,
            Verdict::Fuzzy | Verdict::NonContiguous | Verdict::Misattributed => Status::Flagged,
            Verdict::NotFound | Verdict::TooShort => Status::Dropped,
        }
    }

    /// What the verdict means, in words for people.
    pub fn describe(self) -> &'static str {
        match self {
            Verdict::Verbatim => "Exact words of the cited source.",
            Verdict::Normalized => {
                "Same words as the cited source, differing only in letter case, quote or \
                 dash style, spacing or line-break hyphenation."
            }
            Verdict::Fuzzy => {
                "Close to a passage of the source but not identical: the source's own words \
                 may differ."
            }
            Verdict::NonContiguous => {
                "Each sentence is in the source, but not side by side or not in this order."
            }
            Verdict::Misattributed => "The words are in a different source from the one cited.",
            Verdict::NotFound => {
                "Not found in the retrieved sources: a paraphrase or an invention."
            }
            Verdict::TooShort => "Too short to check reliably.",
        }
    }
}

/// A chunk as validation sees it.
#[derive(Debug, Clone, Copy)]
pub struct ChunkRef<'a> {
    pub id: &'a str,
    pub source_id: &'a str,
    pub text: &'a str,
}

impl<'a> From<&'a crate::chunk::Chunk> for ChunkRef<'a> {
    fn from(c: &'a crate::chunk::Chunk) -> Self {
        ChunkRef {
            id: &c.id,
            source_id: &c.source_id,
            text: &c.text,
        }
    }
}

#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq)]
#[serde(default, deny_unknown_fields)]
pub struct ValidateConfig {
    /// Least similarity for a `fuzzy` verdict (below: `not_found`).
    pub fuzzy_threshold: f32,
    /// Snippets with fewer words are `too_short`.
    pub min_words: usize,
}

impl Default for ValidateConfig {
    fn default() -> Self {
        ValidateConfig {
            fuzzy_threshold: 0.85,
            min_words: crate::text::MIN_QUOTE_WORDS,
        }
    }
}

#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Validation {
    pub verdict: Verdict,
    pub status: Status,
    /// 1 − edit distance / snippet length, in normalized chars; 1.0 when
    /// exact. For `not_found`, the best similarity to the cited source's
    /// chunks (to any chunk when none is cited).
    pub similarity: f32,
    /// Char offsets into the original chunk text; one per part for
    /// `non_contiguous`, in snippet order.
    pub spans: Vec<Span>,
    /// The source where the passage really is.
    pub found_source_id: Option<String>,
    /// The source's own text at the span(s), parts joined with " … ".
    pub copy_text: Option<String>,
    /// Short explanation for people.
    pub note: String,
}

impl Validation {
    /// Order of preference between two validations of one snippet:
    /// validated over flagged over dropped, then the higher similarity.
    pub fn preference(&self) -> (u8, u32) {
        let s = match self.status {
            Status::Validated => 3,
            Status::Flagged => 2,
            Status::Dropped => 1,
        };
        (s, (self.similarity * 1e6) as u32)
    }

    fn new(verdict: Verdict, similarity: f32, note: String) -> Validation {
        Validation {
            verdict,
            status: verdict.status(),
            similarity,
            spans: Vec::new(),
            found_source_id: None,
            copy_text: None,
            note,
        }
    }

    fn located(mut self, chunks: &[ChunkRef<'_>], hits: &[Hit]) -> Validation {
        // Across the mark of text a reader is not shown (struck, hidden,
        // unreadable) a quote says what the page does not ("was ￼ guilty").
        let hides = hits.iter().any(|h| {
            crate::text::slice_chars(chunks[h.chunk].text, h.start, h.end)
                .contains(crate::text::HIDDEN_MARK)
        });
        if self.status == Status::Validated && hides {
            self.verdict = Verdict::NonContiguous;
            self.status = Status::Flagged;
            self.note = "runs across text the source does not show (struck through, hidden \
                         or unreadable): the words either side are not side by side"
                .into();
        }
        self.spans = hits
            .iter()
            .map(|h| Span {
                chunk_id: chunks[h.chunk].id.to_string(),
                start: h.start,
                end: h.end,
            })
            .collect();
        self.found_source_id = hits.first().map(|h| chunks[h.chunk].source_id.to_string());
        // A validated passage is contiguous (its pieces sit across a chunk
        // boundary); a flagged one's pieces are apart: marked " … ".
        let sep = if self.status == Status::Validated {
            " "
        } else {
            " … "
        };
        self.copy_text = Some(
            hits.iter()
                .map(|h| reader::reader_text_within(chunks[h.chunk].text, h.start, h.end))
                .collect::<Vec<_>>()
                .join(sep),
        );
        self
    }
}

/// Chunks to validate snippets against, normalized lazily, once.
pub struct Validator<'a, 'c> {
    chunks: &'c [ChunkRef<'a>],
    /// Each chunk's text normalized in context, and its emphasis runs
    /// read as text ([`markup::unpaired_runs`]).
    norm: Vec<OnceCell<(Normalized, Vec<usize>)>>,
    /// `next[i]`: the chunk that directly follows chunk `i` in its
    /// document (only whitespace between them), when known.
    next: Vec<Option<usize>>,
}

fn word_count(s: &str) -> usize {
    s.unicode_words().count()
}

/// Validate one snippet against the retrieved chunks (see the module docs).
/// To check several snippets of one answer against the same chunks, a
/// [`Validator`] normalizes each chunk once for all of them.
pub fn validate(
    content: &str,
    cited_source_id: &str,
    chunks: &[ChunkRef<'_>],
    cfg: &ValidateConfig,
) -> Validation {
    Validator::new(chunks).validate(content, cited_source_id, cfg)
}

impl<'a, 'c> Validator<'a, 'c> {
    /// A validator over `chunks`; each chunk is normalized on first use and
    /// kept for the next snippets.
    pub fn new(chunks: &'c [ChunkRef<'a>]) -> Self {
        Validator {
            chunks,
            norm: chunks.iter().map(|_| OnceCell::new()).collect(),
            next: vec![None; chunks.len()],
        }
    }

    /// Tell the validator which chunks follow which in their documents
    /// ([`adjacency`]), so that a quote running across the boundary of two
    /// adjacent chunks is recognised as the contiguous passage it is.
    pub fn with_adjacency(mut self, next: Vec<Option<usize>>) -> Self {
        if next.len() == self.chunks.len() {
            // A note shown apart (a footnote's definition) never runs on
            // into the chunk after it, nor that before it into the note.
            let note = |i: usize| crate::chunk::is_note(self.chunks[i].text);
            self.next = next
                .into_iter()
                .enumerate()
                .map(|(i, n)| n.filter(|&j| !note(i) && !note(j)))
                .collect();
        }
        self
    }

    /// Same as [`validate`], reusing this validator's normalized chunks.
    pub fn validate(
        &self,
        content: &str,
        cited_source_id: &str,
        cfg: &ValidateConfig,
    ) -> Validation {
        validate_in(self, content, cited_source_id, cfg)
    }
}

fn validate_in(
    corpus: &Validator<'_, '_>,
    content: &str,
    cited_source_id: &str,
    cfg: &ValidateConfig,
) -> Validation {
    let chunks = corpus.chunks;
    let words = word_count(content);
    if words < cfg.min_words {
        return Validation::new(
            Verdict::TooShort,
            0.0,
            format!(
                "{words} word{} (at least {} needed)",
                if words == 1 { "" } else { "s" },
                cfg.min_words
            ),
        );
    }
    let needle = normalize(content);
    // The quote read as literal text first, when that differs: "*args" or
    // "_private" copied from a code literal is what the page shows, and
    // read as emphasis it would name something else. Then as a source
    // reads it ("*not* run(*jobs)" keeps the star it does not pair), then
    // run by run (a quote that cuts an emphasis: "not* paid").
    let literal = normalize_literal(content);
    let paired =
        normalize::normalize_within(content, 0..content.len(), &markup::unpaired_runs(content));
    let mut needles: Vec<&Normalized> = vec![&literal];
    for n in [&paired, &needle] {
        if needles.iter().all(|m| m.text != n.text) {
            needles.push(n);
        }
    }
    let cited: Vec<usize> = (0..chunks.len())
        .filter(|&i| chunks[i].source_id == cited_source_id)
        .collect();
    let others: Vec<usize> = (0..chunks.len())
        .filter(|&i| chunks[i].source_id != cited_source_id)
        .collect();
    let cited_absent = cited.is_empty();
    let wrong_source = |found: &str| -> String {
        if cited_absent {
            format!(
                "the cited source \"{cited_source_id}\" is not among the retrieved sources; \
                 the passage is in \"{found}\""
            )
        } else {
            format!("the passage is in \"{found}\", not in the cited \"{cited_source_id}\"")
        }
    };

    // 2. Verbatim, 3. normalized, in the cited source.
    for (&i, n) in needles
        .iter()
        .flat_map(|n| cited.iter().map(move |i| (i, n)))
    {
        if let Some(h) = corpus.exact(i, content, n).or_else(|| {
            let t = content.trim();
            (t.len() != content.len())
                .then(|| corpus.exact(i, t, n))
                .flatten()
        }) {
            return Validation::new(
                Verdict::Verbatim,
                1.0,
                "exact words of the cited source".into(),
            )
            .located(chunks, &[h]);
        }
    }
    for (&i, n) in needles
        .iter()
        .flat_map(|n| cited.iter().map(move |i| (i, n)))
    {
        if let Some(h) = corpus.normalized(i, n, 0) {
            return Validation::new(
                Verdict::Normalized,
                1.0,
                "matches the cited source after normalization (case, quotes, dashes, spacing, hyphenation)"
                    .into(),
            )
            .located(chunks, &[h]);
        }
    }
    // 3b. Across the boundary of two adjacent chunks of the cited source.
    // The parts (sentences, normalized once) serve step 5 too.
    let pieces = parts(content);
    let pneedles = (pieces.len() >= 2).then(|| Parts::new(&pieces, chunks.len()));
    // The parts leave out pieces with no letters or digits (an emoji
    // "sentence"): validated only when the hits are the whole snippet.
    if let Some(hits) = pneedles
        .as_ref()
        .and_then(|p| across_boundary(corpus, p, &cited))
        .filter(|hits| {
            let joined: Vec<String> = hits
                .iter()
                .map(|h| corpus.reads(h.chunk, h.start, h.end).text)
                .collect();
            let joined = joined.join(" ");
            needles.iter().any(|n| joined == n.text)
        })
    {
        return Validation::new(
            Verdict::Normalized,
            1.0,
            "the passage runs across two adjacent passages of the cited source".into(),
        )
        .located(chunks, &hits);
    }
    // 3c. Cut inside a sentence by the boundary of two adjacent chunks
    // (a page break in a PDF: a chunk never crosses a page).
    if let Some(hits) = across_boundary_in_sentence(corpus, &needle, &cited) {
        return Validation::new(
            Verdict::Normalized,
            1.0,
            "the passage runs across two adjacent passages of the cited source (a page break)"
                .into(),
        )
        .located(chunks, &hits);
    }
    // 4. Somewhere else.
    for (&i, n) in needles
        .iter()
        .flat_map(|n| others.iter().map(move |i| (i, n)))
    {
        if let Some((h, exact)) = corpus.exact_or_normalized(i, content, n) {
            let how = if exact {
                "exact words"
            } else {
                "after normalization"
            };
            return Validation::new(
                Verdict::Misattributed,
                1.0,
                format!("{} ({how})", wrong_source(chunks[i].source_id)),
            )
            .located(chunks, &[h]);
        }
    }

    let pattern: Vec<char> = needle.text.chars().collect();
    let fwd = myers::Pattern::new(&pattern);
    let sim = |dist: usize| (1.0 - dist as f32 / pattern.len().max(1) as f32).max(0.0);

    // An author's bracketed insertion ("He [the keeper] wrote", "[sic]"):
    // never the source's words; without it, where the rest is.
    if let Some(v) =
        parts::with_insertions(content, |c| validate_in(corpus, c, cited_source_id, cfg))
    {
        return v;
    }
    // 5. Non-contiguous.
    if let Some(pneedles) = &pneedles
        && let Some((hits, note)) = non_contiguous(corpus, pneedles, &cited, &others)
    {
        let src = chunks[hits[0].chunk].source_id;
        let mut holders: Vec<usize> = hits.iter().map(|h| h.chunk).collect();
        holders.dedup();
        let best = holders
            .iter()
            .map(|&i| fwd.search(corpus.norm(i).text.chars()).0)
            .min()
            .unwrap_or(pattern.len());
        let note = if src == cited_source_id {
            note
        } else {
            format!("{note}; {}", wrong_source(src))
        };
        return Validation::new(Verdict::NonContiguous, sim(best), note).located(chunks, &hits);
    }

    // 6. Fuzzy: cited chunks first, then the others. Only alignments within
    // `k_thr` edits (similarity ≥ threshold) matter, so the search uses the
    // cut-off; the exact best is computed only for a not_found verdict.
    let mut k_thr = ((1.0 - cfg.fuzzy_threshold).max(0.0) * pattern.len() as f32) as usize;
    while k_thr > 0 && sim(k_thr) < cfg.fuzzy_threshold {
        k_thr -= 1;
    }
    while k_thr < pattern.len() && sim(k_thr + 1) >= cfg.fuzzy_threshold {
        k_thr += 1;
    }
    // Pass 1, with the cut-off: only alignments above the threshold.
    for group in [&cited, &others] {
        let mut best: Option<(usize, usize, usize)> = None; // (dist, end, chunk)
        for &i in group {
            if let Some((d, e)) = fwd.search_within(corpus.norm(i).text.chars(), k_thr)
                && best.is_none_or(|(bd, _, _)| d < bd)
            {
                best = Some((d, e, i));
            }
        }
        if let Some((d, end, i)) = best
            && end > 0
            && sim(d) >= cfg.fuzzy_threshold
        {
            let norm = corpus.norm(i);
            let text: Vec<char> = norm.text.chars().collect();
            let ns = myers::alignment_start(&pattern, &text, d, end);
            let (start0, oend0) = norm.original_range(ns, end);
            // The source's words, whole: never half of one.
            let (start, oend) = words::widen(chunks[i].text, start0, oend0);
            // Chars the quote leaves off the words it cuts (offsets are in
            // chars), and those words.
            let cut = (start0 - start) + (oend - oend0);
            let whole: String = chunks[i]
                .text
                .chars()
                .skip(start)
                .take(oend - start)
                .collect();
            let cut_words: Vec<&str> = [
                (start < start0).then(|| whole.split_whitespace().next()),
                (oend > oend0).then(|| whole.split_whitespace().last()),
            ]
            .into_iter()
            .flatten()
            .flatten()
            .collect();
            let hit = Hit {
                chunk: i,
                start,
                end: oend,
                nstart: ns,
                nend: end,
            };
            let src = chunks[i].source_id;
            let mut note = if d == 0 && !cut_words.is_empty() {
                // Every char is the source's, but a word is cut: "can" of
                // "cannot", "£12" of "£12,000".
                format!(
                    "begins or ends inside a word of the source: {}",
                    cut_words
                        .iter()
                        .map(|w| format!("“{}”", crate::text::sanitize_for_terminal(w, false)))
                        .collect::<Vec<_>>()
                        .join(" and ")
                )
            } else {
                format!(
                    "closest passage differs by {d} edit{} over {} chars",
                    if d == 1 { "" } else { "s" },
                    pattern.len()
                )
            };
            // Differences no one sees in print: name them.
            let shown = |what: &str, s: &str| {
                let hidden = normalize::invisible_chars(s);
                (!hidden.is_empty())
                    .then(|| format!("; {what} invisible characters: {}", hidden.join(", ")))
            };
            note.extend(shown("the quote has", content));
            note.extend(shown("the source has", &whole));
            if src != cited_source_id {
                note = format!("{note}; {}", wrong_source(src));
            }
            // The chars a cut word leaves off count as edits.
            let similarity = sim(if d == 0 { cut } else { d });
            return Validation::new(Verdict::Fuzzy, similarity, note).located(chunks, &[hit]);
        }
    }
    // Pass 2, exact: how close the snippet came to what it cites.
    let best = (if cited_absent { &others } else { &cited })
        .iter()
        .map(|&i| fwd.search(corpus.norm(i).text.chars()).0)
        .min()
        .map(|d| (d, 0, 0));
    let s = best.map_or(0.0, |(d, _, _)| sim(d));
    Validation::new(
        Verdict::NotFound,
        s,
        if chunks.is_empty() {
            "no retrieved chunk to check against".into()
        } else {
            format!(
                "not in the retrieved sources (similarity to the {} {:.2}, below {:.2})",
                if cited_absent {
                    "closest chunk"
                } else {
                    "cited source"
                },
                s,
                cfg.fuzzy_threshold
            )
        },
    )
}

/// The normalized snippet as the end of one chunk of `group` and the start
/// of the chunk that directly follows it, split at one of its spaces: a
/// sentence the chunking (a page break) cut in two. Each piece must begin
/// and end on word boundaries of its chunk and normalize back to itself.
fn across_boundary_in_sentence(
    corpus: &Validator<'_, '_>,
    needle: &Normalized,
    group: &[usize],
) -> Option<Vec<Hit>> {
    let q = needle.text.as_str();
    for &a in group {
        let Some(b) = corpus.next[a] else {
            continue;
        };
        let (na, nb) = (corpus.norm(a), corpus.norm(b));
        for (k, _) in q.match_indices(' ') {
            let (left, right) = (&q[..k], &q[k + 1..]);
            if left.is_empty()
                || right.is_empty()
                || !na.text.ends_with(left)
                || !nb.text.starts_with(right)
            {
                continue;
            }
            let la = left.chars().count();
            let hits = corpus
                .piece_at(a, na.len() - la, na.len(), left)
                .zip(corpus.piece_at(b, 0, right.chars().count(), right));
            if let Some((ha, hb)) = hits {
                return Some(vec![ha, hb]);
            }
        }
    }
    None
}

impl Validator<'_, '_> {
    /// The normalized chars `ns..ne` of chunk `i` as a hit, when they are
    /// `expect`, do not split a cluster, begin and end on word boundaries
    /// of the original text, and that text normalizes back to `expect`.
    fn piece_at(&self, i: usize, ns: usize, ne: usize, expect: &str) -> Option<Hit> {
        let norm = self.norm(i);
        if ns >= ne || ne > norm.len() || norm.slice(ns, ne) != expect {
            return None;
        }
        let (start, end) = norm.original_range(ns, ne);
        let clean = (ns == 0 || norm.map[ns - 1] != norm.map[ns] || norm.text_char(ns - 1) == ' ')
            && (ne == norm.len() || norm.map[ne] != norm.map[ne - 1] || norm.text_char(ne) == ' ');
        let text = self.chunks[i].text;
        (clean && !words::cuts_word(text, start, end) && self.reads(i, start, end).text == expect)
            .then_some(Hit {
                chunk: i,
                start,
                end,
                nstart: ns,
                nend: ne,
            })
    }
}
#[cfg(test)]
mod tests;
