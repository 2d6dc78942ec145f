//! Verify quotes an author already has (JSON lines, or the quotations of a
//! Markdown/text draft) against the whole corpus.

pub use crate::cite::Citing;
use crate::cite::{Citation, CitationCheck};
use crate::config::Config;
use crate::embed::Embedder;
use crate::extract::Span;
use crate::index::Index;
use crate::retrieve::normalize_query;
use crate::validate::{ChunkRef, Status, Validation, Validator, Verdict};
use anyhow::{Result, bail};
pub use draft::draft_quotes;
use serde::{Deserialize, Serialize};

mod draft;

/// One quote to check. A key it does not know (`"Source"`, `"file"`) is
/// an error: a source silently dropped would let a misattributed quote
/// pass.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct QuoteInput {
    pub quote: String,
    /// A source id, file name or title the author attributes it to.
    #[serde(default)]
    pub source: Option<String>,
    /// 1-based line in the input file.
    #[serde(default)]
    pub line: Option<usize>,
    /// The citation written after the quotation (`[@key, p. 4]`, `(Smith
    /// 2020, p. 4)`), checked when a bibliography is given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub citation: Option<Citation>,
}

#[derive(Debug, Clone, Serialize)]
pub struct QuoteResult {
    pub quote: String,
    pub line: Option<usize>,
    pub cited_source: Option<String>,
    pub verdict: Verdict,
    pub status: Status,
    pub similarity: f32,
    /// Where the passage is.
    pub source_id: Option<String>,
    pub source_title: Option<String>,
    pub location: Option<String>,
    /// "p. 12" or "line 412": where the quote is in its file.
    pub place: Option<String>,
    /// A quote found in pieces (non-contiguous): where each piece is, in
    /// the quote's order ("line 3", "line 1").
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub piece_places: Vec<String>,
    pub spans: Vec<Span>,
    /// The source's exact words at the span(s).
    pub copy_text: Option<String>,
    pub note: String,
    /// The citation as the draft writes it: `key` (the work an author-date
    /// citation names, once resolved), `page` as written, `text`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub citation: Option<Citation>,
    /// With a bibliography: `ok`, `wrong_page`, `misattributed`,
    /// `not_found` or `unknown_key` ([`crate::cite::check`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub citation_check: Option<CitationCheck>,
    /// The page(s) the quote is on, as printed ("4", "4–5", "iv").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page_found: Option<String>,
    /// For `misattributed`: the key of the work whose words these are.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub found_key: Option<String>,
    /// The citation check in words, with the fix ("p. 4, not p. 7").
    #[serde(skip_serializing_if = "Option::is_none")]
    pub citation_note: Option<String>,
    /// A validated quote of a work in the bibliography, cited in the
    /// configured style.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cite_as: Option<String>,
}

/// Every quote validated and every citation checked `ok` (what `verify`'s
/// exit status 0 means).
pub fn all_pass(results: &[QuoteResult]) -> bool {
    results.iter().all(|r| {
        r.status == Status::Validated && r.citation_check.is_none_or(|c| c == CitationCheck::Ok)
    })
}

/// The quotations of an input file: those to check, and those of a draft
/// left unchecked because they are shorter than `min_words` words (scare
/// quotes, titles), which `verify` lists so none vanishes unexplained.
#[derive(Debug, Default)]
pub struct Quotes {
    pub check: Vec<QuoteInput>,
    pub too_short: Vec<QuoteInput>,
}

/// Parse an input file: JSON lines when every non-blank line is a JSON
/// object with a "quote"; otherwise a draft whose quotations are extracted.
pub fn parse_input(text: &str, min_words: usize) -> Result<Quotes> {
    let text = text.strip_prefix('\u{FEFF}').unwrap_or(text);
    // JSON that is not one object a line (an array, an object over
    // several lines) is not a draft: read as one, its "source" would be
    // lost without a word.
    if text.trim_start().starts_with(['[', '{'])
        && let Ok(v) = serde_json::from_str::<serde_json::Value>(text)
    {
        let (items, first) = match v {
            serde_json::Value::Array(items) => (items, None),
            one => (vec![one], text.lines().position(|l| !l.trim().is_empty())),
        };
        let mut out = Vec::new();
        for (i, item) in items.into_iter().enumerate() {
            let at = first.map_or(format!("item {}", i + 1), |l| format!("line {}", l + 1));
            let mut q: QuoteInput = serde_json::from_value(item).map_err(|e| {
                anyhow::anyhow!("{at}: not a quote object ({e}); expected {{\"quote\": \"…\", \"source\": \"…\"}}")
            })?;
            if q.quote.trim().is_empty() {
                bail!("{at}: the quote is empty");
            }
            q.line = first.map(|l| l + 1);
            out.push(q);
        }
        return Ok(Quotes {
            check: out,
            too_short: Vec::new(),
        });
    }
    // JSON lines: the first line that is not blank or a comment (`//`,
    // `#`) is a quote object; every other such line must be one too, or
    // the reading stops with the line (never a draft that loses the
    // quotes' sources).
    let lines: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .filter(|(_, l)| {
            let l = l.trim_start();
            !l.is_empty() && !l.starts_with("//") && !l.starts_with('#')
        })
        .collect();
    let looks_json = lines.first().is_some_and(|(_, l)| {
        serde_json::from_str::<serde_json::Value>(l).is_ok_and(|v| v.get("quote").is_some())
    });
    if looks_json {
        let mut out = Vec::new();
        for (i, l) in lines {
            let mut q: QuoteInput = serde_json::from_str(l)
                .map_err(|e| anyhow::anyhow!("line {}: not a quote object ({e}); expected {{\"quote\": \"…\", \"source\": \"…\"}}", i + 1))?;
            if q.quote.trim().is_empty() {
                bail!("line {}: the quote is empty", i + 1);
            }
            q.line = Some(i + 1);
            out.push(q);
        }
        return Ok(Quotes {
            check: out,
            too_short: Vec::new(),
        });
    }
    // Meant as quote objects (the first line that is not a comment opens
    // an object, an array of them, or a `/* */` comment) but not JSON (a
    // trailing comma, single or curly quotes, keys without quotes): an
    // error, never a draft that drops every "source".
    let expected =
        "expected one {\"quote\": \"…\", \"source\": \"…\"} a line, or a JSON array of them";
    if let Some(&(i, first)) = lines.first() {
        let line_start: usize = text.split_inclusive('\n').take(i).map(str::len).sum();
        let from = text[line_start..].trim_start();
        let array = from
            .strip_prefix('[')
            .is_some_and(|r| r.trim_start().starts_with(['{', ']']));
        if from.starts_with('{') || from.starts_with("/*") || array {
            let whole = from.starts_with(['{', '[']);
            let e = serde_json::from_str::<serde_json::Value>(if whole { from } else { first })
                .err()
                .map_or_else(|| "not one object a line".to_string(), |e| e.to_string());
            bail!(
                "line {}: the file holds quote objects but is not JSON ({e}); {expected}",
                i + 1
            );
        }
    }
    Ok(draft_quotes(text, min_words))
}

/// Resolve what an author wrote as a source to a source id of the index.
fn resolve_source(index: &Index, given: &str) -> Vec<String> {
    let files = &index.manifest.files;
    let given = given.trim();
    // A path the source's id ends (`./one/a.md`, or `src/one/a.md` from
    // where `verify src` was run) names it.
    let mut tail = given;
    loop {
        let t = tail.trim_start_matches("./");
        if files.contains_key(t) {
            return vec![t.to_string()];
        }
        match t.split_once('/') {
            Some((_, rest)) if !rest.is_empty() => tail = rest,
            _ => break,
        }
    }
    // A file name names every file of that name (`history.md` in `vol1/`
    // and in `vol2/`), never the first one listed; else a title.
    let g = given.to_lowercase();
    let named: Vec<String> = files
        .keys()
        .filter(|id| id.to_lowercase().rsplit('/').next() == Some(g.as_str()))
        .cloned()
        .collect();
    if !named.is_empty() {
        return named;
    }
    files
        .iter()
        .filter(|(_, f)| f.title.to_lowercase() == g)
        .map(|(id, _)| id.clone())
        .collect()
}

/// The quote validated again on the printed page `page` cites ("104",
/// "102–103": its first page), in the source `v` found it in, a source of
/// `work`; `None` when `v` is on that page already, or the quote is not
/// there.
#[allow(clippy::too_many_arguments)]
fn at_cited_page(
    index: &Index,
    chunks: &[crate::chunk::Chunk],
    v: &Validation,
    quote: &str,
    cfg: &Config,
    page: &str,
    citing: &Citing<'_>,
    work: &crate::cite::Work,
) -> Option<Validation> {
    let first = page.split(['–', '-']).next()?.trim();
    let first_span = v.spans.first()?;
    let found = chunks.iter().find(|c| c.id == first_span.chunk_id)?;
    if !citing.matched.sources(&work.key).contains(&found.source_id) {
        return None;
    }
    let printed = |c: &crate::chunk::Chunk| {
        c.page
            .and_then(|p| index.manifest.printed_page(&c.source_id, p, work.pages))
    };
    if printed(found).as_deref() == Some(first) {
        return None;
    }
    // The chunks of that source on the cited page, and the one after each
    // (a quote may run over the page's end).
    let mut own: Vec<&crate::chunk::Chunk> = chunks
        .iter()
        .filter(|c| c.source_id == found.source_id)
        .collect();
    own.sort_by_key(|c| c.start);
    own.dedup_by_key(|c| c.start);
    let on_page: Vec<&crate::chunk::Chunk> = own
        .iter()
        .enumerate()
        .filter(|(i, c)| {
            printed(c).as_deref() == Some(first)
                || i.checked_sub(1)
                    .is_some_and(|p| printed(own[p]).as_deref() == Some(first))
        })
        .map(|(_, c)| *c)
        .collect();
    if on_page.is_empty() {
        return None;
    }
    let refs: Vec<ChunkRef<'_>> = on_page.iter().map(|c| ChunkRef::from(*c)).collect();
    let places: Vec<(&str, usize, usize)> = on_page
        .iter()
        .map(|c| (c.source_id.as_str(), c.start, c.end))
        .collect();
    let there = Validator::new(&refs)
        .with_adjacency(crate::validate::adjacency(&places, 4))
        .validate(quote, &found.source_id, &cfg.validate);
    (there.status == Status::Validated).then_some(there)
}

/// Check each quote against candidate chunks from the whole index.
pub fn verify(
    index: &Index,
    embedder: Option<&dyn Embedder>,
    quotes: &[QuoteInput],
    cfg: &Config,
) -> Result<Vec<QuoteResult>> {
    verify_with(index, embedder, quotes, cfg, None, None)
}

/// [`verify`], and with a bibliography, each quote's citation checked
/// against the work it names ([`crate::cite::check`]): the quote is
/// validated against that work's sources. `draft`: the source id of the
/// draft itself when it is kept among the sources: it would confirm its
/// own quotes, so it is not a source for them.
pub fn verify_with(
    index: &Index,
    embedder: Option<&dyn Embedder>,
    quotes: &[QuoteInput],
    cfg: &Config,
    citing: Option<&Citing<'_>>,
    draft: Option<&str>,
) -> Result<Vec<QuoteResult>> {
    let mut out = Vec::with_capacity(quotes.len());
    for q in quotes {
        // The works the citation names, and their sources.
        let works: Vec<&crate::cite::Work> = match (citing, &q.citation) {
            (Some(c), Some(cit)) => crate::cite::check::resolve(cit, c.matched),
            _ => Vec::new(),
        };
        let work_sources: Vec<String> = match citing {
            Some(c) => works
                .iter()
                .flat_map(|w| c.matched.sources(&w.key).iter().cloned())
                .collect(),
            None => Vec::new(),
        };
        let mut cited: Vec<String> = if work_sources.is_empty() {
            q.source
                .as_deref()
                .map(|s| resolve_source(index, s))
                .unwrap_or_default()
        } else {
            work_sources
        };
        // A page cited is checked in the work's paged source (its PDF)
        // before a copy without pages (a web snapshot) can settle it.
        if q.citation.as_ref().is_some_and(|c| c.page.is_some()) {
            let paged = |s: &String| {
                index
                    .manifest
                    .files
                    .get(s)
                    .is_some_and(|f| f.format == crate::ingest::Format::Pdf)
            };
            cited.sort_by_key(|s| !paged(s));
        }
        let query = normalize_query(&q.quote.chars().take(600).collect::<String>());
        let mut chunks: Vec<crate::chunk::Chunk> = index
            .bm25(&query, 10)?
            .into_iter()
            .map(|h| h.chunk)
            .collect();
        if let Some(e) = embedder {
            let v = e.embed(&[&q.quote])?.remove(0);
            for (id, _) in index.vector_search(&v, 10, cfg.retrieve.vector_ef) {
                if !chunks.iter().any(|c| c.id == id)
                    && let Some((c, _)) = index.chunk(&id)?
                {
                    chunks.push(c);
                }
            }
        }
        for src in &cited {
            for c in index.chunks_of(src)? {
                if !chunks.iter().any(|x| x.id == c.id) {
                    chunks.push(c);
                }
            }
        }
        chunks.retain(|c| Some(c.source_id.as_str()) != draft);
        let refs: Vec<ChunkRef<'_>> = chunks.iter().map(ChunkRef::from).collect();
        let places: Vec<(&str, usize, usize)> = chunks
            .iter()
            .map(|c| (c.source_id.as_str(), c.start, c.end))
            .collect();
        let validator =
            Validator::new(&refs).with_adjacency(crate::validate::adjacency(&places, 4));
        // The best verdict over some sources, stopping at a validated one.
        let best_of = |sources: &mut dyn Iterator<Item = &str>| {
            let mut best: Option<Validation> = None;
            for s in sources {
                let v = validator.validate(&q.quote, s, &cfg.validate);
                let better = best
                    .as_ref()
                    .is_none_or(|b| v.preference() > b.preference());
                if better {
                    best = Some(v);
                }
                if best.as_ref().is_some_and(|b| b.status == Status::Validated) {
                    break;
                }
            }
            best.unwrap_or_else(|| validator.validate(&q.quote, "", &cfg.validate))
        };
        let v: Validation = match (cited.is_empty(), &q.source) {
            (false, _) => best_of(&mut cited.iter().map(String::as_str)),
            // Attributed to something that is not in the sources.
            (true, Some(given)) => validator.validate(&q.quote, given, &cfg.validate),
            // No attribution: whichever source holds it is right.
            (true, None) => {
                let mut sources: Vec<&str> = Vec::new();
                for c in &chunks {
                    if !sources.contains(&c.source_id.as_str()) {
                        sources.push(&c.source_id);
                    }
                }
                let v = best_of(&mut sources.into_iter());
                // Not validated: told against the source it is closest to,
                // as no source was cited ("not in the cited …" would blame
                // one the draft never named).
                let closest = v.spans.first().and_then(|sp| {
                    chunks
                        .iter()
                        .find(|c| c.id == sp.chunk_id)
                        .map(|c| c.source_id.as_str())
                });
                match closest {
                    Some(src) if v.status != Status::Validated => {
                        validator.validate(&q.quote, src, &cfg.validate)
                    }
                    _ => v,
                }
            }
        };
        // A quote its work prints twice (an abstract's sentence in the
        // conclusion) is placed where the citation says, when it is there
        // too: both places are the work's words.
        let v = match (citing, &q.citation, &works[..]) {
            (Some(c), Some(cit), [work]) if v.status == Status::Validated => {
                let on_cited = cit.page.as_deref().and_then(|page| {
                    at_cited_page(index, &chunks, &v, &q.quote, cfg, page, c, work)
                });
                on_cited.unwrap_or(v)
            }
            _ => v,
        };
        let chunk_of = |sp: &crate::extract::Span| chunks.iter().find(|c| c.id == sp.chunk_id);
        let found = v.spans.first().and_then(chunk_of);
        // The physical pages the quote runs over (spans of one source).
        let pages = found.and_then(|f| {
            let ps: Vec<u32> = v
                .spans
                .iter()
                .filter_map(chunk_of)
                .filter(|c| c.source_id == f.source_id)
                .filter_map(|c| c.page)
                .collect();
            Some(crate::cite::PageRange {
                first: *ps.iter().min()?,
                last: *ps.iter().max()?,
            })
        });
        let mut r = QuoteResult {
            quote: q.quote.clone(),
            line: q.line,
            cited_source: q.source.clone(),
            verdict: v.verdict,
            status: v.status,
            similarity: v.similarity,
            source_id: found.map(|c| c.source_id.clone()),
            source_title: found.map(|c| c.source_title.clone()),
            location: found.map(|c| c.location.clone()),
            place: {
                // A quote in pieces is placed by its first; one running
                // over a page break by both pages.
                let start = v.spans.first().map_or(0, |sp| sp.start);
                if v.verdict == Verdict::NonContiguous {
                    found.and_then(|c| c.place_of(start))
                } else {
                    let cs: Vec<&crate::chunk::Chunk> =
                        v.spans.iter().filter_map(chunk_of).collect();
                    crate::chunk::place_of_spans(&cs, start)
                }
            },
            piece_places: if v.verdict == Verdict::NonContiguous && v.spans.len() > 1 {
                v.spans
                    .iter()
                    .filter_map(|sp| chunk_of(sp)?.place_of(sp.start))
                    .collect()
            } else {
                Vec::new()
            },
            spans: v.spans.clone(),
            copy_text: v.copy_text.clone(),
            note: v.note.clone(),
            citation: q.citation.clone(),
            citation_check: None,
            page_found: None,
            found_key: None,
            citation_note: None,
            cite_as: None,
        };
        // Checked against the index's text of a file that has changed
        // since (the index could not be updated: another process held it,
        // or the folder is read-only): not the file's words for certain.
        if r.status == Status::Validated
            && r.source_id
                .as_deref()
                .is_some_and(|s| index.changed_since_read(s))
        {
            r.status = Status::Flagged;
            r.note = format!(
                "{}; but the file has changed since the index read it: run `research-board index` and check again",
                r.note
            );
        }
        let Some(citing) = citing else {
            out.push(r);
            continue;
        };
        if let Some(cit) = &q.citation {
            let at = found.map(|c| crate::cite::check::Located {
                source_id: &c.source_id,
                pages,
            });
            // An author-date citation that names several works (two by
            // Stevenson in 1824, unlettered) names none: which one the
            // author meant is not known, so no verdict may pick the one
            // that happens to hold the words.
            let work = match works[..] {
                [one] => Some(one),
                _ => None,
            };
            let ev = crate::cite::check::Evidence {
                verdict: v.verdict,
                status: v.status,
                at,
            };
            // Each source counted as the work it belongs to is printed.
            let label = |src: &str, p: u32| {
                let range = citing.matched.work_of_source(src).and_then(|w| w.pages);
                index.manifest.printed_page(src, p, range)
            };
            let mut c = crate::cite::check::check(cit, work, citing.matched, &ev, &label);
            if works.len() > 1 {
                let keys: Vec<String> = works.iter().map(|w| format!("@{}", w.key)).collect();
                let year: String = cit
                    .year
                    .as_deref()
                    .unwrap_or("")
                    .chars()
                    .take_while(char::is_ascii_digit)
                    .collect();
                c.note = format!(
                    "it names {} works of the bibliography ({}); an author-date style letters them ({year}a, {year}b)",
                    works.len(),
                    keys.join(", ")
                );
            }
            let mut cit = cit.clone();
            if cit.key.is_none() {
                cit.key = work.map(|w| w.key.clone());
            }
            r.citation = Some(cit);
            r.citation_check = Some(c.check);
            r.page_found = c.page_found;
            r.found_key = c.found_key;
            r.citation_note = Some(c.note);
        }
        if v.status == Status::Validated
            && let Some(f) = found
            && let Some(w) = citing.matched.work_of_source(&f.source_id)
        {
            let page = pages.and_then(|p| {
                index
                    .manifest
                    .printed_pages(&f.source_id, p.first, p.last, w.pages)
            });
            let words = v.copy_text.as_deref().unwrap_or(&q.quote);
            r.cite_as = Some(citing.style.cite(words, w, page.as_deref()));
        }
        out.push(r);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_json_lines_with_clear_errors() {
        let q = parse_input(
            "{\"quote\": \"a b c d\", \"source\": \"x.md\"}\n\n{\"quote\": \"e f g h\"}\n",
            4,
        )
        .unwrap()
        .check;
        assert_eq!(q.len(), 2);
        assert_eq!(q[0].source.as_deref(), Some("x.md"));
        assert_eq!(q[1].line, Some(3));
        let e = parse_input("{\"text\": 1}\n", 4).unwrap_err().to_string();
        assert!(e.contains("line 1"), "{e}");
        // A byte-order mark, an array, an object over several lines: JSON
        // still, never a draft that loses the quotes' sources.
        for text in [
            "\u{FEFF}{\"quote\": \"a b c d\", \"source\": \"x.md\"}\n",
            "[{\"quote\": \"a b c d\", \"source\": \"x.md\"}]",
            "{\n  \"quote\": \"a b c d\",\n  \"source\": \"x.md\"\n}\n",
        ] {
            let q = parse_input(text, 4).unwrap().check;
            assert_eq!(q.len(), 1, "{text}");
            assert_eq!(q[0].source.as_deref(), Some("x.md"), "{text}");
        }
        let e = parse_input("[{\"text\": 1}]", 4).unwrap_err().to_string();
        assert!(e.contains("item 1"), "{e}");
        // Comment lines are skipped; a line that is no quote object is an
        // error that names it.
        let q = parse_input(
            "// quotes for chapter 3\n# checked weekly\n{\"quote\": \"a b c d\", \"source\": \"x.md\"}\n",
            4,
        )
        .unwrap()
        .check;
        assert_eq!(q.len(), 1);
        assert_eq!(q[0].source.as_deref(), Some("x.md"));
        assert_eq!(q[0].line, Some(3));
        let e = parse_input("{\"quote\": \"a b c d\"}\nThe end.\n", 4)
            .unwrap_err()
            .to_string();
        assert!(e.contains("line 2"), "{e}");
        // Quote objects with a slip are an error, never a draft whose
        // sources are dropped (the red team's misattributed quotes passed).
        for text in [
            "[{\"quote\": \"a b c d\", \"source\": \"x.md\"},]",
            "[\n  {\"quote\": \"a b c d\", \"source\": \"x.md\"},\n]\n",
            "/* chapter 3 */\n{\"quote\": \"a b c d\", \"source\": \"x.md\"}\n",
            "{\"quote\": \"a b c d\", \"source\": \"x.md\",}\n",
            "{'quote': 'a b c d', 'source': 'x.md'}\n",
            "{quote: \"a b c d\", source: \"x.md\"}\n",
            "{“quote”: “a b c d”, “source”: “x.md”}\n",
            "{\"quote\"\n: \"a b c d\", \"source\": \"x.md\",}\n",
        ] {
            let e = parse_input(text, 4).unwrap_err().to_string();
            assert!(e.contains("not JSON") && e.contains("line"), "{text}: {e}");
        }
        // A key it does not know is named, never dropped.
        for key in ["Source", "file", "sourse"] {
            let e = parse_input(
                &format!("{{\"quote\": \"a b c d\", \"{key}\": \"x.md\"}}\n"),
                4,
            )
            .unwrap_err()
            .to_string();
            assert!(e.contains(key), "{key}: {e}");
        }
        // A draft that speaks of quotes, or shows one in a code block, is
        // a draft.
        for draft in [
            "The \"quote\": she gave “the keepers never slept at all”.\n",
            "# Notes\n\n```json\n{\"quote\": \"x\"}\n```\n\n“the keepers never slept at all”\n",
            "[Smith](http://x) wrote “the keepers never slept at all”.\n",
        ] {
            let q = parse_input(draft, 4).unwrap().check;
            assert_eq!(q.len(), 1, "{draft}");
        }
    }
}
