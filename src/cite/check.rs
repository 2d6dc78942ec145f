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
                        .map(|(a, b)| format!(", {}", pages_words(&format!("{a}–{b}"))))
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

// ---- Parsing -------------------------------------------------------------

/// Chars of a key after `@`: letters, digits and Pandoc's internal
/// punctuation (`:.#$%&-+?<>~/_`); trailing punctuation is not the key's.
fn key_char(c: char) -> bool {
    c.is_alphanumeric() || ":.#$%&-+?<>~/_".contains(c)
}

/// A citation right after a quotation's closing mark: at most a few
/// punctuation marks and spaces (one line break) before `[` or `(`.
/// Returns the citation and the chars it took.
pub fn parse_after(after: &[char]) -> Option<(Citation, usize)> {
    parse_at(after, false)
}

/// [`parse_after`]; `narrative`: an in-text `@key` may go on with words
/// ("@key [p. 9] writes"), as before a quotation. After one, such a
/// citation introduces the next sentence, not this quotation.
fn parse_at(after: &[char], narrative: bool) -> Option<(Citation, usize)> {
    let mut i = 0;
    let mut breaks = 0;
    while i < after.len() && i < 6 {
        let c = after[i];
        if c == '\n' {
            breaks += 1;
            if breaks > 1 {
                return None;
            }
        } else if !(c.is_whitespace() || matches!(c, ',' | '.' | ';' | ':')) {
            break;
        }
        i += 1;
    }
    // Pandoc's in-text form, `@key [p. 9]`: read as `[@key, p. 9]`.
    if after.get(i) == Some(&'@') {
        let key_len = after[i + 1..].iter().take_while(|&&c| key_char(c)).count();
        let mut j = i + 1 + key_len;
        let gap = after[j..].iter().take_while(|&&c| c == ' ').count();
        let key: String = after[i + 1..j].iter().collect();
        let key = key.trim_end_matches(|c: char| !c.is_alphanumeric() && c != '_');
        if key.is_empty() {
            return None;
        }
        let (mut inner, mut end) = (format!("@{key}"), i + 1 + key.chars().count());
        if after.get(j + gap) == Some(&'[') {
            j += gap;
            let len = after[j + 1..]
                .iter()
                .take(300)
                .position(|&c| c == ']' || c == '[')?;
            if after[j + 1 + len] == ']' {
                let loc: String = after[j + 1..j + 1 + len].iter().collect();
                inner = format!("@{key}, {loc}");
                end = j + 2 + len;
            }
        }
        let text: String = after[i..end].iter().collect();
        let words_follow = after[end..]
            .iter()
            .find(|c| **c != ' ')
            .is_some_and(|c| c.is_alphabetic());
        if words_follow && !narrative {
            return None;
        }
        return parse_bracket(&inner, &text).map(|c| (c, end));
    }
    // LaTeX: `\cite[p.~9]{key}`, `\parencite[see][9]{key}`, …
    if after.get(i) == Some(&'\\') {
        return parse_latex(&after[i..]).map(|(c, len)| (c, i + len));
    }
    // A footnote, `^[@key, p. 9]`.
    if after.get(i) == Some(&'^') && after.get(i + 1) == Some(&'[') {
        i += 1;
    }
    let (open, close) = match after.get(i)? {
        '[' => ('[', ']'),
        '(' => ('(', ')'),
        _ => return None,
    };
    let len = after[i + 1..]
        .iter()
        .take(300)
        .position(|&c| c == close || (c == open))?;
    if after[i + 1 + len] != close {
        return None;
    }
    let inner: String = after[i + 1..i + 1 + len].iter().collect();
    let text: String = after[i..i + 2 + len].iter().collect();
    let c = if open == '[' {
        parse_bracket(&inner, &text)
    } else {
        parse_paren(&inner, &text)
    }?;
    Some((c, i + 2 + len))
}

/// A narrative citation before a quotation in its sentence, as in `As
/// @key [p. 9] writes, “…”` or `@key notes that “…”`: the last in-text
/// `@key` (with its locator), then at most a few words and no end of a
/// sentence, bracket or quotation mark before the quotation's opening mark.
pub fn parse_before(before: &[char]) -> Option<Citation> {
    const GAP: usize = 40;
    let from = before.len().saturating_sub(GAP + 320);
    let at = (from..before.len())
        .rev()
        .find(|&k| before[k] == '@' && (k == 0 || before[k - 1].is_whitespace()))?;
    let (c, end) = parse_at(&before[at..], true)?;
    let gap = &before[at + end..];
    let breaks = gap.iter().filter(|&&c| c == '\n').count();
    (gap.len() <= GAP
        && breaks <= 1
        && !gap.iter().any(|&c| {
            matches!(
                c,
                '.' | '!'
                    | '?'
                    | ';'
                    | '['
                    | ']'
                    | '('
                    | ')'
                    | '@'
                    | '"'
                    | '“'
                    | '”'
                    | '«'
                    | '»'
                    | '„'
                    | '＂'
            )
        }))
    .then_some(c)
}

/// The citation a footnote's text gives (`[^1]: [@key, p. 4].`, `[^1]: See
/// @key, p. 4.`, `[^1]: Smith 2020, 4.`): its first cited work.
pub fn parse_note(note: &str) -> Option<Citation> {
    let note = note.trim();
    let chars: Vec<char> = note.chars().collect();
    // A bracketed or LaTeX citation; else the note's words are the
    // citation's inside ("See @key, p. 4.", "Smith 2020, 4.").
    if note.starts_with(['[', '\\', '('])
        && let Some((c, _)) = parse_after(&chars)
    {
        return Some(c);
    }
    let inner = note.trim_end_matches(['.', ' ']);
    parse_bracket(inner, note).or_else(|| parse_paren(inner, note))
}

/// A LaTeX citation command at the start of `s` (natbib's and biblatex's:
/// `\cite`, `\citep`, `\parencite`, `\autocite`, `\footcite`, …) read as
/// Pandoc's `[@key, postnote]`: its first key, its last optional argument
/// the locator (`p.~9`). Returns the citation and the chars it took.
fn parse_latex(s: &[char]) -> Option<(Citation, usize)> {
    let name: String = s[1..]
        .iter()
        .take(12)
        .take_while(|c| c.is_ascii_alphabetic())
        .collect();
    if !matches!(
        name.as_str(),
        "cite"
            | "citep"
            | "citet"
            | "parencite"
            | "autocite"
            | "textcite"
            | "footcite"
            | "smartcite"
            | "supercite"
            | "Cite"
            | "Citep"
            | "Citet"
            | "Parencite"
            | "Autocite"
            | "Textcite"
    ) {
        return None;
    }
    let mut j = 1 + name.len();
    if s.get(j) == Some(&'*') {
        j += 1;
    }
    let mut post = None;
    while s.get(j) == Some(&'[') {
        let len = s[j + 1..].iter().take(300).position(|&c| c == ']')?;
        post = Some(
            s[j + 1..j + 1 + len]
                .iter()
                .collect::<String>()
                .replace('~', " "),
        );
        j += len + 2;
    }
    if s.get(j) != Some(&'{') {
        return None;
    }
    let len = s[j + 1..].iter().take(300).position(|&c| c == '}')?;
    let keys: String = s[j + 1..j + 1 + len].iter().collect();
    j += len + 2;
    let key = keys.split(',').next()?.trim();
    let inner = match post.filter(|p| !p.trim().is_empty()) {
        Some(p) => format!("@{{{key}}}, {p}"),
        None => format!("@{{{key}}}"),
    };
    let text: String = s[..j].iter().collect();
    parse_bracket(&inner, &text).map(|c| (c, j))
}

/// `[see @key, p. 4; @other]`: the first item with a key.
fn parse_bracket(inner: &str, text: &str) -> Option<Citation> {
    for item in inner.split(';') {
        let Some(at) = item.find('@') else { continue };
        let rest = &item[at + 1..];
        let (key, tail) = if let Some(braced) = rest.strip_prefix('{') {
            let end = braced.find('}')?;
            (braced[..end].to_string(), &braced[end + 1..])
        } else {
            let end = rest.find(|c: char| !key_char(c)).unwrap_or(rest.len());
            let key = rest[..end].trim_end_matches(|c: char| !c.is_alphanumeric() && c != '_');
            (key.to_string(), &rest[key.len()..])
        };
        if key.is_empty() {
            continue;
        }
        let (page, unread_locator) = locator(tail);
        return Some(Citation {
            key: Some(key),
            page,
            text: collapse(text),
            author: None,
            year: None,
            unread_locator,
        });
    }
    None
}

/// `(Smith and Jones 2020, p. 4)`, `(Smith, 2020: 4)`: an author, a
/// four-digit year (a letter may follow), an optional page.
fn parse_paren(inner: &str, text: &str) -> Option<Citation> {
    let inner = collapse(inner);
    // The year: the first four-digit number after some name.
    let bytes: Vec<char> = inner.chars().collect();
    let mut at = None;
    for i in 0..bytes.len().saturating_sub(3) {
        let four = bytes[i..i + 4].iter().all(char::is_ascii_digit);
        let before_ok = i > 0 && matches!(bytes[i - 1], ' ' | ',');
        let after_ok = bytes.get(i + 4).is_none_or(|c| {
            !c.is_ascii_digit()
                && (!c.is_alphabetic() || bytes.get(i + 5).is_none_or(|d| !d.is_alphabetic()))
        });
        if four && before_ok && after_ok {
            at = Some(i);
            break;
        }
    }
    let at = at?;
    let author: String = bytes[..at].iter().collect();
    let mut author = author.trim().trim_end_matches(',').trim();
    for lead in ["see also ", "see ", "cf. ", "e.g. ", "e.g., "] {
        author = author.strip_prefix(lead).unwrap_or(author);
    }
    if !is_author(author) {
        return None;
    }
    let author = author.to_string();
    let mut end = at + 4;
    if bytes.get(end).is_some_and(|c| c.is_ascii_lowercase()) {
        end += 1;
    }
    let year: String = bytes[at..end].iter().collect();
    let tail: String = bytes[end..].iter().collect();
    let (page, unread_locator) = locator(&tail);
    Some(Citation {
        key: None,
        page,
        text: collapse(text),
        author: Some(author),
        year: Some(year),
        unread_locator,
    })
}

/// Names as an author-date citation writes them: capitalised words, name
/// particles and connectors ("van Gogh", "Smith and Jones", "Doe et al.").
fn is_author(a: &str) -> bool {
    const SMALL: [&str; 15] = [
        "and", "&", "et", "al.", "al", "van", "von", "de", "der", "den", "la", "le", "du", "di",
        "da",
    ];
    let words: Vec<&str> = a.split_whitespace().collect();
    !words.is_empty()
        && words
            .iter()
            .any(|w| w.chars().next().is_some_and(char::is_uppercase))
        && words.iter().all(|w| {
            let w = w.trim_end_matches(',');
            SMALL.contains(&w) || w.chars().next().is_some_and(char::is_uppercase)
        })
}

/// A citation's locator as a page, or as written when it is not one the
/// check can read.
fn locator(tail: &str) -> (Option<String>, Option<String>) {
    let written = tail
        .trim_matches(|c: char| c.is_whitespace() || matches!(c, ',' | ':' | ']' | ')' | '['))
        .to_string();
    match parse_locator(tail) {
        Some(p) => (Some(p), None),
        None => (None, (!written.is_empty()).then_some(written)),
    }
}

/// The page of a locator: ", p. 4", " pp. 4-5", ": 12", ", 233–35",
/// " p. iv". Other locators (chap., sec., fig.), and a page with more after
/// it ("pp. 3, 7", "p. 9f."), are no page the check can read.
fn parse_locator(tail: &str) -> Option<String> {
    let t = tail.trim_start_matches([',', ':', ' ', '\u{a0}']).trim();
    let lower = t.to_lowercase();
    let rest = ["pages ", "page ", "pp. ", "pp.", "pp ", "p. ", "p.", "p "]
        .iter()
        .find_map(|p| {
            let rest = lower.strip_prefix(p)?;
            t.get(t.len().checked_sub(rest.len())?..)
        })
        .unwrap_or(t)
        .trim();
    let page: String = rest
        .chars()
        .take_while(|c| c.is_alphanumeric() || matches!(c, '–' | '—' | '-' | ' '))
        .collect();
    // Nothing more that names a place: "pp. 3, 7" or "p. 3 n. 9" is not
    // page 3 alone.
    if rest[page.len()..].chars().any(|c| c.is_alphanumeric()) {
        return None;
    }
    let page = page.trim();
    // "4", "4–5", "233--35", "iv", "xii–xiv"; not "chap. 3" or "passim".
    let ok = !page.is_empty()
        && page
            .split(['–', '—', '-'])
            .filter(|s| !s.trim().is_empty())
            .all(|s| {
                let s = s.trim();
                s.chars().all(|c| c.is_ascii_digit())
                    || s.chars().all(|c| "ivxlcdm".contains(c))
                    || s.chars().all(|c| "IVXLCDM".contains(c))
            });
    if !ok {
        return None;
    }
    let mut out = String::new();
    for (i, s) in page
        .split(['–', '—', '-'])
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .enumerate()
    {
        if i > 0 {
            out.push('–');
        }
        out.push_str(s);
    }
    Some(out)
}

fn collapse(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A block quote's trailing citation: `> … words. [@key, p. 3]` or `> …
/// words. — (Smith 2020, p. 3)`. Returns the quote without it.
pub fn split_trailing(block: &str) -> (String, Option<Citation>) {
    let t = block.trim_end();
    let (open, close) = match t.chars().last() {
        Some(']') => ('[', ']'),
        Some(')') => ('(', ')'),
        _ => return (block.to_string(), None),
    };
    let Some(start) = t.rfind(open) else {
        return (block.to_string(), None);
    };
    let inner = &t[start + open.len_utf8()..t.len() - close.len_utf8()];
    let text = &t[start..];
    let c = if open == '[' {
        parse_bracket(inner, text)
    } else {
        parse_paren(inner, text)
    };
    match c {
        Some(c) => {
            let quote = t[..start]
                .trim_end()
                .trim_end_matches(['—', '–'])
                .trim_end_matches("--")
                .trim_end();
            (quote.to_string(), Some(c))
        }
        None => (block.to_string(), None),
    }
}

#[cfg(test)]
mod tests;
