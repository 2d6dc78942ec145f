//! What the panes draw: a [`QueryOutcome`] with every string from the
//! sources or the LLM made terminal-safe once, spans resolved to chunks, and
//! fuzzy diffs computed, so drawing is cheap and never sees raw text.

use super::diff::{CharDiff, char_diff};
use crate::answer::citation_markers;
use crate::pipeline::QueryOutcome;
use crate::text::sanitize_for_terminal;
use crate::validate::{Status, Verdict};

/// Safe for a cell: no control characters, no bidi overrides.
pub fn clean(s: &str) -> String {
    sanitize_for_terminal(s, false)
}

/// Safe, keeping line breaks; tabs become spaces. One char out per char
/// in, so char offsets into the original stay valid.
pub fn clean_lines(s: &str) -> String {
    sanitize_for_terminal(s, true)
        .chars()
        .map(|c| if c == '\t' { ' ' } else { c })
        .collect()
}

/// A chunk the preview can show: a retrieved candidate, or a chunk a
/// validated span points at outside the retrieved set.
#[derive(Debug, Clone)]
pub struct ChunkView {
    pub id: String,
    pub source_id: String,
    pub title: String,
    pub location: String,
    /// Terminal-safe text, char-aligned with the original.
    pub text: String,
    /// Index into `outcome.candidates`, for retrieved chunks.
    pub candidate: Option<usize>,
}

/// A snippet's char span inside a [`ChunkView`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SpanView {
    pub chunk: usize,
    pub start: usize,
    pub end: usize,
}

#[derive(Debug, Clone)]
pub struct SnippetView {
    pub n: usize,
    pub verdict: Verdict,
    pub status: Status,
    pub title: String,
    pub location: String,
    pub source_id: String,
    pub found_source_id: Option<String>,
    pub content: String,
    pub first_line: String,
    pub note: String,
    pub spans: Vec<SpanView>,
    /// Fuzzy only: differences between the chunk text at the span and the
    /// extracted content (`a` = source, `b` = quote).
    pub diff: Option<CharDiff>,
}

impl SnippetView {
    pub fn chunk(&self) -> Option<usize> {
        self.spans.first().map(|s| s.chunk)
    }

    /// Validated when it was read, flagged since: its file changed.
    fn changed_since(&self) -> bool {
        self.status == Status::Flagged && self.verdict.status() == Status::Validated
    }

    /// The verdict's symbol; a flag for a quote whose file changed since.
    pub fn symbol(&self) -> &'static str {
        if self.changed_since() {
            "⚠"
        } else {
            symbol(self.verdict)
        }
    }

    /// What the verdict means, in words for people.
    pub fn meaning(&self) -> &'static str {
        if self.changed_since() {
            "Exact words of the cited source as it was read; the file has changed since."
        } else {
            self.verdict.describe()
        }
    }
}

/// One line of the answer, with where its citation markers are.
#[derive(Debug, Clone)]
pub struct AnswerLine {
    pub text: String,
}

pub struct Board {
    pub outcome: QueryOutcome,
    /// Candidates first (in rank order), then extra chunks.
    pub chunks: Vec<ChunkView>,
    pub snippets: Vec<SnippetView>,
    pub answer: Vec<AnswerLine>,
    /// (claim text, issue words) for flagged claims (a citation problem or
    /// a citation that does not support them), sanitized.
    pub issues: Vec<(String, String)>,
    /// How many of those are support problems (the rest: citations).
    pub unsupported: usize,
    /// Every citation marker in reading order: (answer line, snippet n).
    pub citations: Vec<(usize, usize)>,
}

/// A chunk fetched from the index because a span points at it.
#[derive(Debug, Clone)]
pub struct ExtraChunk {
    pub id: String,
    pub source_id: String,
    pub title: String,
    pub location: String,
    pub text: String,
}

impl Board {
    pub fn new(outcome: QueryOutcome, extra: Vec<ExtraChunk>) -> Board {
        // With a bibliography, a source's work goes before its title:
        // "Ness 1901 · Keepers of the Northern Lights".
        let titled = |source_id: &str, title: &str| match outcome
            .works
            .as_ref()
            .and_then(|w| w.by_source.get(source_id))
        {
            Some(ay) => clean(&format!("{ay} · {title}")),
            None => clean(title),
        };
        let mut chunks: Vec<ChunkView> = outcome
            .candidates
            .iter()
            .enumerate()
            .map(|(i, c)| ChunkView {
                id: c.id.clone(),
                source_id: clean(&c.source_id),
                title: titled(&c.source_id, &c.source_title),
                location: clean(&c.location),
                text: clean_lines(&c.text),
                candidate: Some(i),
            })
            .collect();
        for e in extra {
            if chunks.iter().any(|c| c.id == e.id) {
                continue;
            }
            chunks.push(ChunkView {
                id: e.id,
                source_id: clean(&e.source_id),
                title: clean(&e.title),
                location: clean(&e.location),
                text: clean_lines(&e.text),
                candidate: None,
            });
        }
        let snippets = outcome
            .snippets
            .iter()
            .map(|s| {
                let spans: Vec<SpanView> = s
                    .spans
                    .iter()
                    .filter_map(|sp| {
                        let chunk = chunks.iter().position(|c| c.id == sp.chunk_id)?;
                        Some(SpanView {
                            chunk,
                            start: sp.start,
                            end: sp.end,
                        })
                    })
                    .collect();
                // A validated quote is shown in the source's words, as it
                // is copied: the model's text may differ by what
                // normalization folds (markup, a full-width letter).
                let content = clean_lines(match (s.status, &s.copy_text) {
                    (Status::Validated, Some(words)) => words,
                    _ => &s.content,
                });
                let diff = (s.verdict == Verdict::Fuzzy)
                    .then(|| spans.first())
                    .flatten()
                    .map(|sp| {
                        let src: String = chunks[sp.chunk]
                            .text
                            .chars()
                            .skip(sp.start)
                            .take(sp.end.saturating_sub(sp.start))
                            .collect();
                        char_diff(&src, &content)
                    });
                SnippetView {
                    n: s.n,
                    verdict: s.verdict,
                    status: s.status,
                    title: titled(&s.source_id, &s.source_title),
                    location: clean(&s.location),
                    source_id: clean(&s.source_id),
                    found_source_id: s.found_source_id.as_deref().map(clean),
                    first_line: content.split_whitespace().collect::<Vec<_>>().join(" "),
                    content,
                    note: clean(&s.note),
                    spans,
                    diff,
                }
            })
            .collect();
        let answer: Vec<AnswerLine> = clean_lines(&outcome.answer.text)
            .lines()
            .map(|l| AnswerLine {
                text: l.to_string(),
            })
            .collect();
        let mut citations = Vec::new();
        for (i, l) in answer.iter().enumerate() {
            for n in citation_markers(&l.text).into_iter().map(|(_, n)| n) {
                citations.push((i, n));
            }
        }
        let mut unsupported = 0;
        let issues = outcome
            .answer
            .claims
            .iter()
            .filter_map(|c| {
                if let Some(i) = c.issue {
                    return Some((clean(&c.text), i.describe().to_string()));
                }
                if let Some((n, why)) = c.inconsistent_with.first() {
                    unsupported += 1;
                    return Some((
                        clean(&c.text),
                        clean(&format!("inconsistent with claim {n}: {why}")),
                    ));
                }
                let s = c.support.filter(|s| s.unsupported())?;
                unsupported += 1;
                let what = match s {
                    crate::support::Support::Contradicts => "contradicted by its quote",
                    _ => "its quote does not support it",
                };
                let why = c.support_reason.as_deref().unwrap_or("");
                Some((clean(&c.text), clean(&format!("{what}: {why}"))))
            })
            .collect();
        Board {
            outcome,
            chunks,
            snippets,
            answer,
            issues,
            unsupported,
            citations,
        }
    }

    /// Snippet indexes located in chunk `c`.
    pub fn snippets_in(&self, c: usize) -> Vec<usize> {
        self.snippets
            .iter()
            .enumerate()
            .filter(|(_, s)| s.spans.iter().any(|sp| sp.chunk == c))
            .map(|(i, _)| i)
            .collect()
    }

    /// Number of retrieved chunks (the Chunks pane's rows).
    pub fn candidate_count(&self) -> usize {
        self.outcome.candidates.len()
    }
}

/// The verdict's symbol, as the panes and the help overlay show it.
pub fn symbol(v: Verdict) -> &'static str {
    match v {
        Verdict::Verbatim => "✓",
        Verdict::Normalized => "≈",
        Verdict::Fuzzy => "~",
        Verdict::NonContiguous => "⋯",
        Verdict::Misattributed => "⇄",
        Verdict::NotFound => "✗",
        Verdict::TooShort => "·",
    }
}

pub fn verdict_name(v: Verdict) -> &'static str {
    match v {
        Verdict::Verbatim => "verbatim",
        Verdict::Normalized => "normalized",
        Verdict::Fuzzy => "fuzzy",
        Verdict::NonContiguous => "non-contiguous",
        Verdict::Misattributed => "misattributed",
        Verdict::NotFound => "not found",
        Verdict::TooShort => "too short",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_markers_with_ranges() {
        let s = "A [1]. B [2, 3] and [x] [4]";
        let m: Vec<usize> = citation_markers(s).into_iter().map(|(_, n)| n).collect();
        assert_eq!(m, [1, 2, 3, 4]);
        assert_eq!(&s[citation_markers(s)[0].0.clone()], "[1]");
    }

    #[test]
    fn cleaning_keeps_char_offsets() {
        let s = "a\x1b]52;c;x\x07\tb\nc";
        let c = clean_lines(s);
        assert_eq!(c.chars().count(), s.chars().count());
        assert!(!c.contains('\x1b') && !c.contains('\x07') && !c.contains('\t'));
    }
}
