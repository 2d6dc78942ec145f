//! `verify`'s citations: the bibliography loaded and tied to the index's
//! sources (the match reported on stderr), and each quote's citation check
//! printed with its fix.

use crate::cite::{CitationCheck, MatchHow, Matched};
use crate::citing::Loaded;
use crate::text::sanitize_for_terminal as clean;
use crate::verify::QuoteResult;
use std::io::Write;
use std::path::Path;

/// Say on stderr what reading the bibliography found: its warnings, how
/// many works were tied to sources and how, and what was left over.
pub(super) fn report(loaded: &Loaded, path: &Path) {
    for w in &loaded.warnings {
        eprintln!("warning: {}: {}", path.display(), clean(w, false));
    }
    report_match(&loaded.matched);
}

/// Up to ten names, then how many more.
fn some_of(names: &[String]) -> String {
    let mut s = names
        .iter()
        .take(10)
        .map(|n| clean(n, false))
        .collect::<Vec<_>>()
        .join(", ");
    if names.len() > 10 {
        s.push_str(&format!(" and {} more", names.len() - 10));
    }
    s
}

/// On stderr (stdout stays the results, JSON or text): how many works
/// matched and how, the works no source matched, the sources in no entry.
fn report_match(m: &Matched) {
    let count = |f: &dyn Fn(&MatchHow) -> bool| m.work_of.values().filter(|(_, h)| f(h)).count();
    let matched_works = m.sources_of.iter().filter(|s| !s.is_empty()).count();
    eprintln!(
        "bibliography: {} works, {} tied to sources ({} files by file name, {} by DOI, {} by title)",
        m.bib.works.len(),
        matched_works,
        count(&|h| *h == MatchHow::File),
        count(&|h| *h == MatchHow::Doi),
        count(&|h| matches!(h, MatchHow::Title(_))),
    );
    let lost: Vec<String> = m
        .unmatched_works()
        .iter()
        .map(|w| format!("@{}", w.key))
        .collect();
    if !lost.is_empty() {
        eprintln!(
            "  works with no source in the folder ({}): {}",
            lost.len(),
            some_of(&lost)
        );
    }
    if !m.unmatched_sources.is_empty() {
        eprintln!(
            "  sources in no bibliography entry ({}): {}",
            m.unmatched_sources.len(),
            some_of(&m.unmatched_sources)
        );
    }
}

/// Without a bibliography, a draft's citations are not checked: say how
/// to check them.
pub(super) fn hint_without_bibliography(results: &[QuoteResult], loaded: bool) {
    let cited = results.iter().filter(|r| r.citation.is_some()).count();
    if !loaded && cited > 0 {
        eprintln!(
            "note: {cited} quotes carry citations; pass --bibliography FILE (or set [cite] \
             bibliography in the config) to check them"
        );
    }
}

fn check_words(c: CitationCheck) -> &'static str {
    match c {
        CitationCheck::Ok => "ok",
        CitationCheck::WrongPage => "wrong page",
        CitationCheck::Misattributed => "misattributed",
        CitationCheck::NotFound => "not found",
        CitationCheck::UnknownKey => "unknown key",
    }
}

/// The quote's citation and its check, with the fix; the quote cited in
/// the configured style when it has no citation or its citation is wrong.
pub(super) fn print_result(out: &mut impl Write, r: &QuoteResult) {
    if let (Some(c), Some(check)) = (&r.citation, r.citation_check) {
        let _ = writeln!(
            out,
            "    citation {}: {} — {}",
            clean(&c.text, false),
            check_words(check),
            clean(r.citation_note.as_deref().unwrap_or(""), false)
        );
    }
    let wrong = r.citation_check.is_some_and(|c| c != CitationCheck::Ok);
    if let Some(cite) = &r.cite_as
        && (r.citation.is_none() || wrong)
    {
        let _ = writeln!(out, "    cite as: {}", clean(cite, false));
    }
}

/// The count of each citation check, after the quotes' counts.
pub(super) fn print_summary(out: &mut impl Write, results: &[QuoteResult]) {
    let checked: Vec<CitationCheck> = results.iter().filter_map(|r| r.citation_check).collect();
    if checked.is_empty() {
        return;
    }
    let n = |c: CitationCheck| checked.iter().filter(|x| **x == c).count();
    let _ = writeln!(
        out,
        "{} citations: {} ok, {} wrong page, {} misattributed, {} not found, {} unknown key",
        checked.len(),
        n(CitationCheck::Ok),
        n(CitationCheck::WrongPage),
        n(CitationCheck::Misattributed),
        n(CitationCheck::NotFound),
        n(CitationCheck::UnknownKey)
    );
}
