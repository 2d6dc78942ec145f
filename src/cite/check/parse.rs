//! Reading citations as an author writes them: Pandoc's, LaTeX's and
//! author-date forms, after a quotation, before it in its sentence, or in
//! a footnote.

use super::Citation;

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
        } else if !(c.is_whitespace() || matches!(c, ',' | '.' | ';' | ':' | '~')) {
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
        let (c, len) = parse_latex(&after[i..], narrative)?;
        return Some((c, i + len));
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
    // The last in-text `@key`, or LaTeX citation command.
    let at = (from..before.len()).rev().find(|&k| {
        (before[k] == '@'
            || (before[k] == '\\'
                && before
                    .get(k + 1)
                    .is_some_and(|c| *c == 'c' || *c == 't' || *c == 'C' || *c == 'T')))
            && (k == 0 || before[k - 1].is_whitespace())
    })?;
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
fn parse_latex(s: &[char], narrative: bool) -> Option<(Citation, usize)> {
    let name: String = s[1..]
        .iter()
        .take(12)
        .take_while(|c| c.is_ascii_alphabetic())
        .collect();
    // A footnote holding the citation: `\footnote{\cite[p.~3]{key}.}`.
    if name == "footnote" && s.get(1 + name.len()) == Some(&'{') {
        let open = 2 + name.len();
        let (c, len) = parse_at(&s[open..], false)?;
        return Some((c, open + len));
    }
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
    // A narrative one (`\textcite{key} argues`) is the subject of what
    // follows it, not the citation of a quotation before it.
    let words_follow = s[j..]
        .iter()
        .find(|c| **c != ' ')
        .is_some_and(|c| c.is_alphabetic());
    if words_follow
        && !narrative
        && matches!(name.as_str(), "textcite" | "Textcite" | "citet" | "Citet")
    {
        return None;
    }
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
    // Nothing more that names a place: "pp. 3, 7", "p. 3 n. 9" or "p.
    // 2+" is not page 3 alone; a closing mark may follow.
    if rest[page.len()..]
        .chars()
        .any(|c| !c.is_whitespace() && !".,;:)]".contains(c))
    {
        return None;
    }
    let page = page.trim();
    // "4", "4–5", "233--35", "iv", "xii–xiv"; not "chap. 3", "passim", nor
    // a range open at either end ("-2", "2–").
    let parts: Vec<&str> = page.split(['–', '—', '-']).map(str::trim).collect();
    let ranged = match parts.len() {
        1 => true,
        2 => true,
        // "233--35": a doubled dash.
        3 => parts[1].is_empty(),
        _ => false,
    };
    let ok = !page.is_empty()
        && ranged
        && parts.first().is_some_and(|p| !p.is_empty())
        && parts.last().is_some_and(|p| !p.is_empty())
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
        // "02" is page 2.
        let digits = s.trim_start_matches('0');
        out.push_str(
            if digits.is_empty() || !s.chars().all(|c| c.is_ascii_digit()) {
                s
            } else {
                digits
            },
        );
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
