//! The author's bibliography applied to an index: loaded and tied to the
//! index's sources (`verify` checks a draft's citations with it), and an
//! answer's validated quotes cited with it. Kept apart from `cite` (which
//! the config names) because it needs the index and the pipeline's outcome.

use crate::cite::{Bibliography, CiteStyle, Citing, Matched, SourceMeta};
use crate::index::Index;
use crate::pipeline::{AnswerWorks, QueryOutcome, QuoteCite};
use crate::validate::Status;
use anyhow::Result;
use std::path::Path;

/// A bibliography tied to the sources of one index generation, and the
/// citation style.
pub struct Loaded {
    pub matched: Matched,
    pub style: CiteStyle,
    /// What was odd in the file (an entry skipped, a field unreadable).
    pub warnings: Vec<String>,
}

impl Loaded {
    pub fn citing(&self) -> Citing<'_> {
        Citing {
            matched: &self.matched,
            style: &self.style,
        }
    }
}

/// Characters of a source's first chunks searched for a work's DOI.
const HEAD_CHARS: usize = 6_000;

/// Read the bibliography at `path` and tie its works to the sources of
/// `index`; `style` is the `[cite] style` setting (default Pandoc).
pub fn load(path: &Path, style: Option<&str>, index: &Index) -> Result<Loaded> {
    let style = CiteStyle::parse(style.unwrap_or("pandoc"))?;
    let bib = Bibliography::load(path)?;
    let warnings = bib.warnings.clone();
    let sources: Vec<SourceMeta> = index
        .manifest
        .files
        .iter()
        .map(|(id, f)| SourceMeta {
            id: id.clone(),
            title: f.title.clone(),
        })
        .collect();
    let mut head = |id: &str| {
        let mut chunks = index.chunks_of(id).ok()?;
        chunks.sort_by_key(|c| c.ordinal);
        let mut text = String::new();
        for c in chunks {
            if text.len() >= HEAD_CHARS {
                break;
            }
            text.push_str(&c.text);
            text.push('\n');
        }
        Some(text)
    };
    let matched = Matched::new(bib, &sources, &mut head);
    Ok(Loaded {
        matched,
        style,
        warnings,
    })
}

/// Cite the validated quotes of `outcome` from `loaded`.
pub fn cite_answer(outcome: &mut QueryOutcome, index: &Index, loaded: &Loaded) -> Result<()> {
    let m = &loaded.matched;
    let mut works = AnswerWorks::default();
    for c in &outcome.candidates {
        if let Some(w) = m.work_of_source(&c.source_id) {
            works.by_source.insert(c.source_id.clone(), w.author_year());
        }
    }
    for s in &mut outcome.snippets {
        // A misattributed quote is not validated; a validated one is in the
        // source it cites.
        if s.status != Status::Validated {
            continue;
        }
        let (Some(words), Some(work)) = (s.copy_text.as_deref(), m.work_of_source(&s.source_id))
        else {
            continue;
        };
        let mut pages = Vec::new();
        for sp in &s.spans {
            if let Some((c, _)) = index.chunk(&sp.chunk_id)?
                && c.source_id == s.source_id
                && let Some(p) = c.page
            {
                pages.push(p);
            }
        }
        let page = pages
            .iter()
            .min()
            .zip(pages.iter().max())
            .and_then(|(a, b)| {
                index
                    .manifest
                    .printed_pages(&s.source_id, *a, *b, work.pages)
            });
        s.cite = Some(QuoteCite {
            key: work.key.clone(),
            author_year: work.author_year(),
            text: loaded.style.cite(words, work, page.as_deref()),
            page,
        });
        if !works.references.iter().any(|(k, _)| *k == work.key) {
            works
                .references
                .push((work.key.clone(), loaded.style.reference(work)));
        }
    }
    outcome.works = Some(works);
    Ok(())
}

#[cfg(test)]
mod tests {
    use crate::cite::{Bibliography, CiteStyle};
    use crate::validate::{ChunkRef, Status, ValidateConfig, validate};
    use proptest::prelude::*;

    const WORDS: &[&str] = &[
        "the",
        "keeper",
        "lit",
        "lamp",
        "at",
        "dusk;",
        "fog",
        "rolled",
        "in",
        "from",
        "sea.",
        "“Never”",
        "said",
        "he,",
        "cannot",
        "1811",
        "½",
        "light-",
        "house",
        "*not*",
        "Grace",
    ];

    proptest! {
        #![proptest_config(crate::cases(256))]

        /// A quote copied with its citation carries the source's words: in
        /// every style, the words between the quotation marks validate
        /// against the source at the same span as the quote itself.
        #[test]
        fn a_cited_copy_is_still_the_sources_words(
            words in proptest::collection::vec(0..WORDS.len(), 8..40),
            breaks in proptest::collection::vec(any::<bool>(), 40),
            from in 0usize..8, len in 4usize..12, style in 0usize..4,
        ) {
            // Source text with line breaks here and there (PDF-like wrapping).
            let mut text = String::new();
            for (i, w) in words.iter().enumerate() {
                if i > 0 {
                    text.push(if breaks[i] { '\n' } else { ' ' });
                }
                text.push_str(WORDS[*w]);
            }
            let chunk = ChunkRef { id: "s.md#0", source_id: "s.md", text: &text };
            let cfg = ValidateConfig::default();
            let toks: Vec<&str> = text.split_whitespace().collect();
            let end = (from + len).min(toks.len());
            prop_assume!(end > from + 3);
            let quote = toks[from..end].join(" ");
            let v = validate(&quote, "s.md", &[chunk], &cfg);
            prop_assume!(v.status == Status::Validated);
            let words = v.copy_text.clone().unwrap();
            let bib = Bibliography::from_biblatex(
                "@book{k, author = {Ness, Ada}, title = {Keepers}, year = {1901}}",
            )
            .unwrap();
            let s = CiteStyle::parse(["pandoc", "plain", "chicago-author-date", "apa"][style])
                .unwrap();
            let cited = s.cite(&words, &bib.works[0], Some("4"));
            // The quoted words: between the opening mark and the mark that
            // closes them before the citation.
            let open = cited.chars().next().unwrap();
            let close = if open == '“' { "” " } else { "\" " };
            let inner = &cited[open.len_utf8()..cited.rfind(close).unwrap()];
            let again = validate(inner, "s.md", &[chunk], &cfg);
            prop_assert_eq!(again.status, Status::Validated, "{} → {}", quote, cited);
            // The same passage: the spans differ at most by markup marks at
            // their ends ("*not*" quoted as "not").
            prop_assert_eq!(again.spans.len(), v.spans.len());
            let chars: Vec<char> = text.chars().collect();
            let marks = |a: usize, b: usize| {
                chars[a.min(b)..a.max(b)].iter().all(|c| "*_`[]".contains(*c) || c.is_whitespace())
            };
            for (x, y) in again.spans.iter().zip(&v.spans) {
                prop_assert!(marks(x.start, y.start) && marks(x.end, y.end), "{:?} vs {:?}", x, y);
            }
        }
    }
}
