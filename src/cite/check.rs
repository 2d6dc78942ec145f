//! The citations of a draft: parsed from what follows a quotation, and
//! checked against the work they name.
//!
//! Forms read (Pandoc's citation syntax and author-date parentheticals):
//! `[@key]`, `[@key, p. 4]`, `[@key, pp. 4–5]`, `[@key p. iv]`,
//! `[see @key, 12]`, `[@{key}, p. 3]`, `(Smith 2020, p. 4)`, `(Smith and
//! Jones 2020: 4–5)`, `(Smith et al., 2020, pp. 4-5)`. Of several works in
//! one citation, the first is checked.
//!
//! # Verdicts, in the order they are decided
//!
//! 1. `unknown_key`: the key (or author and year) names no work of the
//!    bibliography.
//! 2. The quote is located in a source of the cited work: when it is
//!    validated there, `ok` if no page is written or every page written is a
//!    page the quote is on (in order), else `wrong_page` with the page(s)
//!    it is on; when it is only close there (flagged), `wrong_page` if the
//!    close passage is on another page, else `not_found` — never `ok`.
//! 3. The words are, exactly or after normalization, in a source of
//!    another work (or of no work): `misattributed`, with that work's key
//!    and page.
//! 4. Otherwise `not_found` (also when the cited work has no source in the
//!    folder: the note says so).
//!
//! A page is compared as printed: the PDF's page label where it declares
//! labels ("iv", "233"), else the page counted from the work's first
//! printed page when the file has exactly the work's pages, else the
//! physical page number (`FileEntry::printed_page`); a work printed past
//! page 1 in a file that fits none of these has its page left unchecked.
//! A source without pages (Markdown, text, HTML, Word) cannot show a page
//! wrong: `ok`, and the note says the page was not checked.

use super::{Matched, Work};
use crate::validate::{Status, Verdict};
use serde::{Deserialize, Serialize};

mod parse;
pub use parse::{parse_after, parse_before, parse_note, split_trailing};

/// A citation as the draft writes it after a quotation.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Citation {
    /// The citation key: `@key` as written, or (once checked) the work an
    /// author-date citation names.
    pub key: Option<String>,
    /// The page or pages as written: "233", "4–5", "iv" (None: no page).
    pub page: Option<String>,
    /// The whole citation as written: "[@smith2020, p. 233]".
    pub text: String,
    /// An author-date citation's author and year as written ("Smith and
    /// Jones", "2020").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub author: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub year: Option<String>,
    /// A locator that is not a page the check can read ("chap. 9", "vol.
    /// 2, p. 9", "pp. 3, 7"): the page is then not checked, and said so.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unread_locator: Option<String>,
}

/// The outcome of checking one citation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum CitationCheck {
    Ok,
    WrongPage,
    Misattributed,
    NotFound,
    UnknownKey,
}

/// A citation checked.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CitationResult {
    pub check: CitationCheck,
    /// The page(s) the quote is on, as printed ("4", "4–5", "iv").
    pub page_found: Option<String>,
    /// For `misattributed`: the key of the work that holds the words (None
    /// when that source is in no bibliography entry).
    pub found_key: Option<String>,
    /// The source the words were found in.
    pub found_source: Option<String>,
    /// What is wrong and the fix, in words: "p. 4, not p. 7".
    pub note: String,
}

/// The physical pages a located quote runs over (first, last), 1-based.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PageRange {
    pub first: u32,
    pub last: u32,
}

/// Where validation put the quote.
#[derive(Debug, Clone)]
pub struct Located<'a> {
    pub source_id: &'a str,
    /// None for a source without pages.
    pub pages: Option<PageRange>,
}

/// The quote's validation, as the check needs it.
#[derive(Debug, Clone)]
pub struct Evidence<'a> {
    pub verdict: Verdict,
    pub status: Status,
    pub at: Option<Located<'a>>,
}

/// Check `citation` (already resolved to `work`, None when the bibliography
/// has no such work) against where validation located the quote.
/// `label(source, page)` is the printed label of a physical page, `None`
/// when it cannot be known.
pub fn check(
    citation: &Citation,
    work: Option<&Work>,
    matched: &Matched,
    ev: &Evidence<'_>,
    label: &dyn Fn(&str, u32) -> Option<String>,
) -> CitationResult {
    let mut out = CitationResult {
        check: CitationCheck::NotFound,
        page_found: None,
        found_key: None,
        found_source: None,
        note: String::new(),
    };
    let Some(work) = work else {
        out.check = CitationCheck::UnknownKey;
        out.note = match (&citation.key, &citation.author) {
            (Some(k), _) => format!("@{k} is not in the bibliography"),
            (None, Some(a)) => format!(
                "no work by {a} {} in the bibliography",
                citation.year.as_deref().unwrap_or("")
            ),
            _ => "no such work in the bibliography".into(),
        };
        return out;
    };
    let own = matched.sources(&work.key);
    let found = |at: &Located<'_>| {
        let p = at.pages?;
        let a = label(at.source_id, p.first)?;
        if p.last == p.first {
            return Some(a);
        }
        Some(format!("{a}–{}", label(at.source_id, p.last)?))
    };
    match &ev.at {
        Some(at) if own.iter().any(|s| s == at.source_id) => {
            out.found_source = Some(at.source_id.to_string());
            out.page_found = found(at);
            // The printed pages of the passage, when they can be known.
            let printed = at.pages.filter(|_| out.page_found.is_some());
            let on_page = match (&citation.page, printed) {
                (None, _) => true,
                (Some(_), None) => true,
                (Some(w), Some(p)) => {
                    page_matches(w, p, &|n| label(at.source_id, n).unwrap_or_default())
                }
            };
            out.check = match (ev.status == Status::Validated, on_page) {
                (true, true) => CitationCheck::Ok,
                (_, false) => CitationCheck::WrongPage,
                (false, true) => CitationCheck::NotFound,
            };
            out.note = match out.check {
                CitationCheck::Ok if citation.page.is_some() && at.pages.is_none() => {
                    "in the cited work; the page was not checked (the source has no pages)".into()
                }
                CitationCheck::Ok if citation.page.is_some() && printed.is_none() => format!(
                    "in the cited work; the page was not checked (the file does not number its \
                     pages as @{} is printed{})",
                    work.key,
                    work.pages
                        .map(|w| {
                            let range = format!("{}–{}", w.label(w.first), w.label(w.last));
                            format!(", {}", pages_words(&range))
                        })
                        .unwrap_or_default()
                ),
                CitationCheck::Ok if citation.page.is_none() => match &citation.unread_locator {
                    Some(l) => {
                        format!("in the cited work; the locator \"{l}\" is not a page it can check")
                    }
                    None => "in the cited work (no page cited)".into(),
                },
                CitationCheck::Ok => "in the cited work, on the page cited".into(),
                CitationCheck::WrongPage => format!(
                    "{}, not {}{}",
                    pages_words(out.page_found.as_deref().unwrap_or("?")),
                    pages_words(citation.page.as_deref().unwrap_or("?")),
                    if ev.status == Status::Validated {
                        ""
                    } else {
                        " (and the words differ from the source's)"
                    }
                ),
                _ => format!(
                    "not as written in @{}: the closest passage{} differs",
                    work.key,
                    out.page_found
                        .as_deref()
                        .map(|p| format!(" ({})", pages_words(p)))
                        .unwrap_or_default()
                ),
            };
        }
        // The words are in another source (the validator says
        // misattributed; or, the cited work having no source, validated
        // wherever they are).
        Some(at) if ev.verdict == Verdict::Misattributed || ev.status == Status::Validated => {
            out.check = CitationCheck::Misattributed;
            out.found_source = Some(at.source_id.to_string());
            out.page_found = found(at);
            let other = matched.work_of_source(at.source_id);
            out.found_key = other.map(|w| w.key.clone());
            let place = out
                .page_found
                .as_deref()
                .map(|p| format!(", {}", pages_words(p)))
                .unwrap_or_default();
            out.note = match other {
                _ if own.is_empty() => format!(
                    "@{} has no source in the folder (no file, DOI or title matched); the words \
                     are in {}{place}",
                    work.key,
                    other.map_or(at.source_id.to_string(), |o| format!("@{}", o.key))
                ),
                Some(o) => format!("the words are in @{}{place}, not in @{}", o.key, work.key),
                None => format!(
                    "the words are in {}{place} (no bibliography entry), not in @{}",
                    at.source_id, work.key
                ),
            };
        }
        _ => {
            out.note = if own.is_empty() {
                format!(
                    "@{} has no source in the folder (no file, DOI or title matched), and the \
                     words are in no other source",
                    work.key
                )
            } else {
                format!("the words are not in @{} nor in any other source", work.key)
            };
        }
    }
    out
}

/// "p. 4" or "pp. 4–5".
fn pages_words(p: &str) -> String {
    super::style::page_words(p)
}

/// Every page written is a page the quote is on, in order: `written` is one
/// label ("4", "iv") or a range ("4–5"); the quote runs over the physical
/// pages `p`, whose labels `label` gives.
pub fn page_matches(written: &str, p: PageRange, label: &dyn Fn(u32) -> String) -> bool {
    let Some((a, b)) = split_range(written) else {
        return false;
    };
    if p.last < p.first || p.last - p.first > 10_000 {
        return false;
    }
    let labels: Vec<String> = (p.first..=p.last)
        .map(|n| label(n).to_lowercase())
        .collect();
    let Some(i) = labels.iter().position(|l| *l == a) else {
        return false;
    };
    labels[i..].contains(&b)
}

/// A written page or range, lower-cased: ("4", "4"), ("233", "235") for
/// "233–35" (the end abbreviated), ("iv", "vi").
fn split_range(written: &str) -> Option<(String, String)> {
    let w = written.trim().to_lowercase();
    if w.is_empty() {
        return None;
    }
    let parts: Vec<&str> = w
        .split(['–', '—', '-'])
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect();
    match parts.as_slice() {
        [a] => Some((a.to_string(), a.to_string())),
        [a, b] => {
            // "233–35": the end written short, as many styles do.
            let b = if a.len() > b.len()
                && a.chars().all(|c| c.is_ascii_digit())
                && b.chars().all(|c| c.is_ascii_digit())
            {
                format!("{}{b}", &a[..a.len() - b.len()])
            } else {
                b.to_string()
            };
            Some((a.to_string(), b))
        }
        _ => None,
    }
}

/// The works a citation names: its key, or the works whose first author's
/// family name and year are those written (several when the bibliography
/// holds more than one; a year's letter, "2020b", picks one of them out).
pub fn resolve<'m>(citation: &Citation, matched: &'m Matched) -> Vec<&'m Work> {
    if let Some(k) = &citation.key {
        return matched.bib.get(k).into_iter().collect();
    }
    let (Some(author), Some(year)) = (&citation.author, &citation.year) else {
        return Vec::new();
    };
    let first = first_author(author).to_lowercase();
    let digits: String = year.chars().take_while(char::is_ascii_digit).collect();
    let mut works: Vec<&Work> = matched
        .bib
        .works
        .iter()
        .filter(|w| w.year.map(|y| y.to_string()) == Some(digits.clone()))
        .filter(|w| {
            w.authors.first().is_some_and(|a| {
                a.family.to_lowercase() == first || a.full_family().to_lowercase() == first
            })
        })
        .collect();
    // "2001b": of an author's works of one year, the second by title (as
    // author-date styles letter them); a letter past them names none.
    let letter = year[digits.len()..]
        .chars()
        .next()
        .filter(char::is_ascii_lowercase);
    if let Some(l) = letter.filter(|_| works.len() > 1) {
        let sort_title = |w: &Work| {
            let t = w.title.as_deref().unwrap_or("").to_lowercase();
            ["a ", "an ", "the "]
                .iter()
                .find_map(|a| t.strip_prefix(a).map(str::to_string))
                .unwrap_or(t)
        };
        works.sort_by_key(|w| sort_title(w));
        return works
            .into_iter()
            .nth((l as u8 - b'a') as usize)
            .into_iter()
            .collect();
    }
    works
}

/// "Smith" of "Smith and Jones", "Smith & Jones", "Smith et al.", "Smith,
/// Jones".
fn first_author(author: &str) -> &str {
    let mut end = author.len();
    for sep in [" and ", " & ", " et al", ",", " und ", " et "] {
        if let Some(i) = author.find(sep) {
            end = end.min(i);
        }
    }
    author[..end].trim()
}

#[cfg(test)]
mod tests;
