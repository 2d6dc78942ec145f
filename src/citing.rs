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
            .map(|(a, b)| index.manifest.pages_label(&s.source_id, *a, *b));
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
