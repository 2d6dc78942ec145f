//! How the support judge reads a sentence: its words in order, with their
//! stems, where sentences and clauses break, the numbers it gives, and the
//! attribution ("Krehbiel notes that …") a claim may open with.

use super::lexicon::{CALENDAR, CARDINALS, OPENERS, OTHER_NUMBERS, REPORTING, STOP, VIEWS};
use std::collections::BTreeSet;
use std::ops::Range;
use std::sync::{Mutex, OnceLock};

pub(super) fn analyzer() -> &'static Mutex<tantivy::tokenizer::TextAnalyzer> {
    static A: OnceLock<Mutex<tantivy::tokenizer::TextAnalyzer>> = OnceLock::new();
    A.get_or_init(|| {
        use tantivy::tokenizer::{
            AsciiFoldingFilter, Language, LowerCaser, SimpleTokenizer, Stemmer, TextAnalyzer,
        };
        Mutex::new(
            TextAnalyzer::builder(SimpleTokenizer::default())
                .filter(LowerCaser)
                .filter(AsciiFoldingFilter)
                .filter(Stemmer::new(Language::English))
                .build(),
        )
    })
}

/// Stems of a word's alphanumeric parts, in order.
pub(super) fn stems(word: &str) -> Vec<String> {
    let mut a = analyzer().lock().unwrap_or_else(|e| e.into_inner());
    let mut stream = a.token_stream(word);
    let mut out = Vec::new();
    while let Some(t) = stream.next() {
        out.push(t.text.clone());
    }
    out
}

/// One word as written.
#[derive(Debug, Clone)]
pub(super) struct Tok {
    /// As written, a possessive "'s" left out.
    pub raw: String,
    pub lower: String,
    /// Stems of its alphanumeric parts ("long-term" → long, term).
    pub parts: Vec<String>,
    /// The stems joined ("2-A" → "2a", "PaSa-7b" → "pasa7b"): how the
    /// relation and name rules compare words.
    pub key: String,
    /// Every part is a stop word.
    pub stop: bool,
    /// A capitalised word with lower case after its first letter.
    pub cap: bool,
    /// All capitals, two to six letters ("LTM", "XAI").
    pub acronym: bool,
    /// A negative contraction ("didn't").
    pub nt: bool,
    pub sentence_start: bool,
    /// A clause breaks right before it (punctuation, or a new sentence).
    pub brk: bool,
    /// Only a comma before it (a list may go on).
    pub comma: bool,
    /// Written with a possessive "'s".
    pub possessive: bool,
    /// Its value as a cardinal ("1,788" → 1788, "forty-five" → 45).
    pub cardinal: Option<String>,
    /// Byte range in the text.
    pub span: Range<usize>,
}

impl Tok {
    /// A content word: not a stop word and not a cardinal.
    pub fn content(&self) -> bool {
        !self.stop && self.cardinal.is_none()
    }
}

fn words(text: &str) -> Vec<Range<usize>> {
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let end_of = |j: usize| chars.get(j).map_or(text.len(), |c| c.0);
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        if !chars[i].1.is_alphanumeric() {
            i += 1;
            continue;
        }
        let start = i;
        let mut j = i;
        loop {
            while j < chars.len() && chars[j].1.is_alphanumeric() {
                j += 1;
            }
            if j + 1 < chars.len() && chars[j + 1].1.is_alphanumeric() {
                let (prev, c, next) = (chars[j - 1].1, chars[j].1, chars[j + 1].1);
                let joins = c == '-'
                    || (matches!(c, '\'' | '’') && prev.is_alphabetic() && next.is_alphabetic())
                    || (matches!(c, '.' | ',') && prev.is_ascii_digit() && next.is_ascii_digit());
                if joins {
                    j += 1;
                    continue;
                }
            }
            break;
        }
        out.push(chars[start].0..end_of(j));
        i = j;
    }
    out
}

/// The value of a cardinal written in digits or words.
fn cardinal(lower: &str) -> Option<String> {
    let plain = lower.replace(',', "");
    if !plain.is_empty()
        && plain.chars().all(|c| c.is_ascii_digit() || c == '.')
        && plain.starts_with(|c: char| c.is_ascii_digit())
    {
        return Some(plain);
    }
    let word = |w: &str| CARDINALS.iter().find(|(x, _)| *x == w).map(|(_, n)| *n);
    let parts: Vec<&str> = lower.split('-').collect();
    match parts.as_slice() {
        [w] => word(w).map(|n| n.to_string()),
        // "forty-five"
        [t, u] => match (word(t), word(u)) {
            (Some(t), Some(u)) if t % 10 == 0 && (20..100).contains(&t) && u < 10 => {
                Some((t + u).to_string())
            }
            _ => None,
        },
        _ => None,
    }
}

/// A sentence's words, in order.
pub(super) fn tokens(text: &str) -> Vec<Tok> {
    let mut out: Vec<Tok> = Vec::new();
    let mut prev_end = 0;
    for r in words(text) {
        let written = &text[r.clone()];
        let gap = &text[prev_end..r.start];
        prev_end = r.end;
        let mut lower = written.to_lowercase();
        let mut raw = written.to_string();
        let mut nt = false;
        for suffix in ["n't", "n’t"] {
            if lower.ends_with(suffix) && lower.len() > suffix.len() {
                nt = true;
                let keep = lower.len() - suffix.len();
                lower.truncate(keep);
                raw.truncate(keep);
                // "can't", "won't", "shan't"
                if let Some(full) = [("ca", "can"), ("wo", "will"), ("sha", "shall")]
                    .iter()
                    .find(|(short, _)| lower == *short)
                    .map(|(_, full)| *full)
                {
                    lower = full.to_string();
                    raw = full.to_string();
                }
            }
        }
        let mut possessive = false;
        for suffix in ["'s", "’s"] {
            if lower.ends_with(suffix) {
                possessive = true;
                let keep = lower.len() - suffix.len();
                lower.truncate(keep);
                raw.truncate(keep);
            }
        }
        let parts = stems(&raw);
        let key: String = parts.concat();
        let stop =
            parts.iter().all(|p| STOP.contains(&p.as_str())) || STOP.contains(&lower.as_str());
        let mut chars = raw.chars();
        let first = chars.next().unwrap_or(' ');
        let cap = first.is_uppercase() && raw.chars().skip(1).any(char::is_lowercase);
        let letters = raw.chars().filter(|c| c.is_alphabetic()).count();
        let acronym = (2..=6).contains(&letters)
            && raw.chars().all(|c| c.is_ascii_uppercase())
            && letters == raw.chars().count();
        let abbreviation = out.last().is_some_and(|p: &Tok| {
            p.raw.chars().count() == 1
                || (p.raw.chars().count() <= 3 && p.raw.starts_with(char::is_uppercase))
        });
        let sentence_start = out.is_empty()
            || (gap.contains(['.', '!', '?'])
                && first.is_uppercase()
                && !abbreviation
                && !gap.contains([',', ';']))
            || gap.contains("\n\n");
        let brk = sentence_start
            || gap.contains([
                ',', ';', ':', '(', ')', '[', ']', '"', '“', '”', '—', '–', '!', '?',
            ])
            || (gap.contains('.') && !abbreviation)
            || gap.contains(" - ")
            || gap.contains("--");
        // "the one …", "no one": not a count.
        let determiner = out.last().is_some_and(|p: &Tok| {
            ["the", "this", "that", "no", "any", "every", "each", "which"]
                .contains(&p.lower.as_str())
        });
        let comma = gap.trim() == ",";
        out.push(Tok {
            cardinal: cardinal(&lower).filter(|_| !(lower == "one" && determiner)),
            comma,
            possessive,
            raw,
            lower,
            parts,
            key,
            stop,
            cap,
            acronym,
            nt,
            sentence_start,
            brk,
            span: r,
        });
    }
    out
}

/// What a sentence says, as the checks compare it.
pub(super) struct Facts {
    pub toks: Vec<Tok>,
    /// Stemmed content words.
    pub words: BTreeSet<String>,
    /// Numbers as written, normalised ("1,788" → "1788", "22.98%" → "22.98").
    pub numbers: Vec<String>,
    /// Stemmed words, stop words included (for directions).
    pub all: BTreeSet<String>,
    /// Every word's key (names compare by it).
    pub keys: BTreeSet<String>,
    /// Words written in lower case somewhere (so a capital at a sentence's
    /// start is not a name).
    pub lower: BTreeSet<String>,
}

pub(super) fn facts(text: &str) -> Facts {
    let toks = tokens(text);
    let mut words = BTreeSet::new();
    let mut numbers = Vec::new();
    let mut all = BTreeSet::new();
    let mut keys = BTreeSet::new();
    let mut lower = BTreeSet::new();
    for t in &toks {
        all.extend(t.parts.iter().cloned());
        keys.insert(t.key.clone());
        if t.raw.starts_with(char::is_lowercase) {
            lower.insert(t.lower.clone());
        }
        if t.content() {
            words.extend(
                t.parts
                    .iter()
                    .filter(|p| {
                        !STOP.contains(&p.as_str()) && !p.chars().all(|c| c.is_ascii_digit())
                    })
                    .cloned(),
            );
        }
        let (found, exact) = token_numbers(t);
        words.extend(exact.into_iter().map(|n| format!("#{n}")));
        numbers.extend(found);
    }
    Facts {
        toks,
        words,
        numbers,
        all,
        keys,
        lower,
    }
}

/// The numbers a token gives, and those of them written as plain
/// numbers (a cardinal, a bare run of digits) that count as words too.
fn token_numbers(t: &Tok) -> (Vec<String>, Vec<String>) {
    let (mut numbers, mut exact) = (Vec::new(), Vec::new());
    if let Some(n) = &t.cardinal {
        numbers.push(n.clone());
        exact.push(n.clone());
    } else if let Some((_, n)) = OTHER_NUMBERS.iter().find(|(w, _)| *w == t.lower) {
        numbers.push(n.to_string());
    } else if t.lower.contains(|c: char| c == '-' || c.is_ascii_digit()) {
        // Numbers inside a word: "1445-1459", "31st", "1780s".
        for p in t.lower.split('-') {
            let digits: String = p.chars().take_while(char::is_ascii_digit).collect();
            let rest = &p[digits.len()..];
            if !digits.is_empty() && ["", "s", "st", "nd", "rd", "th"].contains(&rest) {
                if rest.is_empty() {
                    exact.push(digits.clone());
                }
                numbers.push(digits);
            } else if let Some(n) = cardinal(p) {
                numbers.push(n);
            }
        }
    }
    (numbers, exact)
}

/// Words after which a number labels a part of the work or a reference,
/// not an amount: "Figure 3", "Table 7", "Eq. 4", "et al. 9".
const LABELS: &[&str] = &[
    "figure",
    "fig",
    "figs",
    "table",
    "tab",
    "section",
    "sec",
    "eq",
    "equation",
    "chapter",
    "ch",
    "page",
    "p",
    "pp",
    "appendix",
    "theorem",
    "lemma",
    "step",
    "algorithm",
    "al",
    "ref",
    "refs",
];

/// The numbers of a text that are amounts: those after a label ("Figure
/// 3", "et al. 9") left out, and so are reference markers ("[12]").
pub(super) fn amounts(text: &str) -> Vec<String> {
    let toks = tokens(text);
    let mut out = Vec::new();
    for (i, t) in toks.iter().enumerate() {
        let labelled = i > 0 && LABELS.contains(&toks[i - 1].lower.trim_end_matches('.'));
        let marker = text.contains(&format!("[{}]", t.raw));
        if !labelled && !marker {
            out.extend(token_numbers(t).0);
        }
    }
    out
}

/// Is `t` (at a sentence's start or not) a name? Stop words, common
/// sentence openers, adverbs in -ly, months and days, and words the texts
/// also write in lower case are not.
pub(super) fn is_name(t: &Tok, lower: &BTreeSet<String>, other_lower: &BTreeSet<String>) -> bool {
    if !t.cap || t.stop || t.cardinal.is_some() || CALENDAR.contains(&t.lower.as_str()) {
        return false;
    }
    if t.sentence_start {
        let common = OPENERS.contains(&t.lower.as_str())
            || t.lower.ends_with("ly")
            || OTHER_NUMBERS.iter().any(|(w, _)| *w == t.lower)
            || lower.contains(&t.lower)
            || other_lower.contains(&t.lower);
        return !common;
    }
    true
}

/// The claim without an attribution it opens with ("Krehbiel notes that",
/// "According to Shedlock,", "In Krehbiel's terminology,"), when the quote
/// does not name who it is attributed to: the quote is that person's own
/// words, and names its author nowhere. Returns the rest and the
/// attribution taken off.
pub fn strip_attribution<'a>(claim: &'a str, quote: &str) -> (&'a str, Option<&'a str>) {
    let toks = tokens(claim);
    let quote_keys: BTreeSet<String> = tokens(quote).into_iter().map(|t| t.key).collect();
    let named_in_quote = |ts: &[Tok]| ts.iter().any(|t| t.cap && quote_keys.contains(&t.key));
    let cut = |i: usize| -> (&'a str, Option<&'a str>) {
        match toks.get(i) {
            Some(t) => {
                let rest = claim[t.span.start..].trim_start();
                let attribution = claim[..t.span.start].trim_end();
                (rest, Some(attribution))
            }
            None => (claim, None),
        }
    };
    let lower = |i: usize| toks.get(i).map_or("", |t| t.lower.as_str());
    // "According to X, …" and "In X's view, …": up to the first comma.
    let comma = toks
        .iter()
        .enumerate()
        .skip(2)
        .take(6)
        .find(|(_, t)| t.brk)
        .map(|(i, _)| i);
    let possessive = |i: usize| {
        toks.get(i).is_some_and(|t| {
            t.cap && claim[t.span.clone()].ends_with(['s', 'S']) && t.raw.len() < t.span.len()
        })
    };
    let according = lower(0) == "according" && lower(1) == "to";
    let view = lower(0) == "in" && possessive(1) && VIEWS.contains(&lower(2)) && comma == Some(3);
    if according || view {
        return match comma {
            Some(end) if toks[..end].iter().any(|t| t.cap) && !named_in_quote(&toks[..end]) => {
                cut(end)
            }
            _ => (claim, None),
        };
    }
    // "X (Y) notes (definitively) that …": a subject of one to four
    // capitalised words (or "the author(s)"), a reporting verb.
    let mut i = 0;
    while i < toks.len().min(4)
        && (toks[i].cap
            || toks[i].acronym
            || (i > 0 && ["et", "al", "and"].contains(&toks[i].lower.as_str())))
    {
        if i > 0 && toks[i].brk {
            break;
        }
        i += 1;
    }
    if i == 0 && lower(0) == "the" && ["author", "authors", "writer"].contains(&lower(1)) {
        i = 2;
    }
    if i == 0 || !REPORTING.contains(&lower(i)) || toks[i].brk {
        return (claim, None);
    }
    // Not when the quote names the subject, or reports with the same verb
    // (its subject is then the claim's to compare).
    if named_in_quote(&toks[..i]) || tokens(quote).iter().any(|t| t.lower == lower(i)) {
        return (claim, None);
    }
    let mut j = i + 1;
    if lower(j).ends_with("ly") {
        j += 1;
    }
    if matches!(lower(j), "to" | "out") {
        j += 1;
    }
    if lower(j) == "that" {
        j += 1;
    }
    if j >= toks.len() {
        return (claim, None);
    }
    cut(j)
}
