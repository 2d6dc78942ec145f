//! Does a cited quote support the claim that cites it? A citation that does
//! not support its sentence is the more dangerous failure, because it looks
//! verified. This is the deterministic tier: offline, explainable, and run
//! on every (claim, quote) pair.
//!
//! Labels, tried in order:
//! 1. `irrelevant` — the claim shares no content word with the quote, or
//!    too few to be about the same thing ([`SupportConfig::min_overlap`]);
//! 2. `contradicts` — the claim gives a number, date or quantity the quote
//!    does not while the quote gives another one ("claim says 1789, quote
//!    says 1788"); a negation on one side only; a reversed direction
//!    (more/less, before/after, increase/decrease …) on the two sides; or a
//!    name in the claim where the quote has another name in its place;
//! 3. `partial` — on topic, but something the claim asserts is not in the
//!    quote: a number or name the quote lacks, or content words below
//!    [`SupportConfig::entail_overlap`];
//! 4. `entails` — otherwise.
//!
//! Words are compared after lower-casing, ASCII folding and English
//! stemming, stop words left out. Support is about claims, never about
//! quotes: no quote's verdict changes because of it.

use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;
use std::sync::OnceLock;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Support {
    Entails,
    Partial,
    Contradicts,
    Irrelevant,
}

impl Support {
    /// Is the claim unsupported by what it cites (a hallucinated claim)?
    pub fn unsupported(self) -> bool {
        matches!(self, Support::Contradicts | Support::Irrelevant)
    }

    fn rank(self) -> u8 {
        match self {
            Support::Entails => 3,
            Support::Partial => 2,
            Support::Contradicts => 1,
            Support::Irrelevant => 0,
        }
    }
}

/// A label and the evidence for it, in words.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Judgement {
    pub label: Support,
    pub reason: String,
}

#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct SupportConfig {
    /// Below this share of the claim's content words found in the quote,
    /// the quote is not about the claim: `irrelevant`.
    pub min_overlap: f32,
    /// At or above this share (and nothing contradicting), `entails`.
    pub entail_overlap: f32,
}

impl Default for SupportConfig {
    fn default() -> Self {
        // Calibrated on the dev half of eval/claims.json (README, "Claims").
        SupportConfig {
            min_overlap: 0.4,
            entail_overlap: 0.6,
        }
    }
}

const STOP: &[&str] = &[
    "a", "an", "the", "and", "or", "but", "of", "to", "in", "on", "at", "by", "for", "with",
    "from", "as", "is", "are", "was", "were", "be", "been", "being", "it", "its", "this", "that",
    "these", "those", "he", "she", "they", "his", "her", "their", "them", "him", "we", "our",
    "you", "your", "i", "which", "who", "whom", "whose", "what", "when", "where", "how", "why",
    "there", "here", "has", "have", "had", "do", "does", "did", "so", "such", "than", "then",
    "also", "into", "over", "about", "can", "could", "would", "should", "may", "might", "will",
    "shall", "must", "very", "much", "many", "some", "any", "all", "each", "both", "one", "only",
    "own", "same", "other", "more", "most", "s", "t", "if", "because", "while", "through", "upon",
    "out", "up", "down", "just", "even", "well", "like", "said", "says", "say", "paper", "author",
    "authors", "study", "work",
];

const NEGATIONS: &[&str] = &[
    "not", "no", "never", "none", "nor", "neither", "without", "cannot", "nothing", "nobody",
    "nowhere", "hardly", "n't", "lack", "lacks", "lacked", "fail", "fails", "failed", "unable",
];

/// Pairs of opposite directions (stemmed).
const OPPOSITES: &[(&str, &str)] = &[
    ("increas", "decreas"),
    ("more", "less"),
    ("more", "fewer"),
    ("higher", "lower"),
    ("larger", "smaller"),
    ("greater", "smaller"),
    ("faster", "slower"),
    ("before", "after"),
    ("earlier", "later"),
    ("improv", "wors"),
    ("better", "wors"),
    ("rise", "fall"),
    ("gain", "loss"),
    ("first", "last"),
    ("major", "minor"),
    ("success", "failur"),
    ("accept", "reject"),
    ("above", "below"),
    ("maximum", "minimum"),
    ("strong", "weak"),
    ("easi", "harder"),
    ("easi", "difficult"),
    ("outperform", "underperform"),
    ("input", "output"),
    ("good", "poor"),
    ("good", "bad"),
    ("light", "heavi"),
    ("high", "low"),
    ("larg", "small"),
    ("long", "short"),
    ("earli", "late"),
    ("rich", "poor"),
    ("begin", "end"),
    ("start", "finish"),
    ("alway", "never"),
    ("mani", "few"),
    ("open", "close"),
    ("ancient", "modern"),
    ("old", "new"),
    ("simpl", "complex"),
    ("cheap", "expens"),
    ("slow", "fast"),
    ("north", "south"),
    ("east", "west"),
    ("win", "lose"),
    ("love", "hate"),
    ("agre", "disagre"),
    ("support", "oppos"),
    ("includ", "exclud"),
    ("increas", "reduc"),
    ("rais", "lower"),
    ("absent", "present"),
];

/// Number words, as digits.
const NUMBER_WORDS: &[(&str, &str)] = &[
    ("half", "0.5"),
    ("one", "1"),
    ("two", "2"),
    ("three", "3"),
    ("four", "4"),
    ("five", "5"),
    ("six", "6"),
    ("seven", "7"),
    ("eight", "8"),
    ("nine", "9"),
    ("ten", "10"),
    ("eleven", "11"),
    ("twelve", "12"),
    ("thirteen", "13"),
    ("fourteen", "14"),
    ("fifteen", "15"),
    ("sixteen", "16"),
    ("seventeen", "17"),
    ("eighteen", "18"),
    ("nineteen", "19"),
    ("twenty", "20"),
    ("thirty", "30"),
    ("forty", "40"),
    ("fifty", "50"),
    ("sixty", "60"),
    ("seventy", "70"),
    ("eighty", "80"),
    ("ninety", "90"),
    ("hundred", "100"),
    ("thousand", "1000"),
    ("million", "1000000"),
    ("millions", "1000000"),
    ("billion", "1000000000"),
    ("twice", "2"),
    ("double", "2"),
    ("thrice", "3"),
    ("first", "1st"),
    ("second", "2nd"),
    ("third", "3rd"),
    ("fourth", "4th"),
    ("fifth", "5th"),
];

/// A word and its negative form by prefix ("interpretable" /
/// "uninterpretable") on opposite sides.
fn prefix_negation(c: &str, q: &str) -> Option<String> {
    let words = |t: &str| -> BTreeSet<String> {
        t.to_lowercase()
            .split(|ch: char| !ch.is_alphanumeric())
            .filter(|w| w.len() > 3)
            .map(str::to_string)
            .collect()
    };
    let (cw, qw) = (words(c), words(q));
    for (a, b) in [(&cw, &qw), (&qw, &cw)] {
        for w in a {
            for p in ["un", "in", "im", "non", "dis", "ir", "il"] {
                let neg = format!("{p}{w}");
                if b.contains(&neg) && !a.contains(&neg) && !b.contains(w) {
                    return Some(format!("\"{w}\" on one side, \"{neg}\" on the other"));
                }
            }
        }
    }
    None
}

fn analyzer() -> &'static std::sync::Mutex<tantivy::tokenizer::TextAnalyzer> {
    static A: OnceLock<std::sync::Mutex<tantivy::tokenizer::TextAnalyzer>> = OnceLock::new();
    A.get_or_init(|| {
        use tantivy::tokenizer::{
            AsciiFoldingFilter, Language, LowerCaser, SimpleTokenizer, Stemmer, TextAnalyzer,
        };
        std::sync::Mutex::new(
            TextAnalyzer::builder(SimpleTokenizer::default())
                .filter(LowerCaser)
                .filter(AsciiFoldingFilter)
                .filter(Stemmer::new(Language::English))
                .build(),
        )
    })
}

/// What a sentence says, as the checks compare it.
struct Facts {
    /// Stemmed content words.
    words: BTreeSet<String>,
    /// Numbers as written, normalised ("1,788" → "1788", "22.98%" → "22.98").
    numbers: Vec<String>,
    /// Capitalised words (names; a sentence's first word too), lower-cased;
    /// ordered sets, so that a reason names the same word on every run.
    names: BTreeSet<String>,
    negated: bool,
    /// Stemmed words, stop words included (for directions).
    all: BTreeSet<String>,
}

fn facts(text: &str) -> Facts {
    let mut all = BTreeSet::new();
    {
        let mut a = analyzer().lock().unwrap_or_else(|e| e.into_inner());
        let mut stream = a.token_stream(text);
        while let Some(t) = stream.next() {
            all.insert(t.text.clone());
        }
    }
    let words = all
        .iter()
        .filter(|w| !STOP.contains(&w.as_str()) && !w.chars().all(|c| c.is_ascii_digit()))
        .cloned()
        .collect();
    let lower = text.to_lowercase();
    let negated = lower
        .split(|c: char| !(c.is_alphanumeric() || c == '\''))
        .any(|w| NEGATIONS.contains(&w) || w.ends_with("n't"));
    let mut numbers = Vec::new();
    let mut cur = String::new();
    let chars: Vec<char> = text.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        let joins = (c == ',' || c == '.')
            && !cur.is_empty()
            && chars.get(i + 1).is_some_and(|d| d.is_ascii_digit());
        if c.is_ascii_digit() {
            cur.push(c);
        } else if joins {
            if c == '.' {
                cur.push('.');
            }
        } else if !cur.is_empty() {
            numbers.push(std::mem::take(&mut cur));
        }
    }
    if !cur.is_empty() {
        numbers.push(cur);
    }
    for w in lower.split(|c: char| !c.is_alphanumeric()) {
        if let Some((_, n)) = NUMBER_WORDS.iter().find(|(word, _)| *word == w) {
            numbers.push(n.to_string());
        }
    }
    let mut names = BTreeSet::new();
    for w in text
        .split(|c: char| !(c.is_alphanumeric() || c == '-'))
        .filter(|w| !w.is_empty())
    {
        let first = w.chars().next().unwrap_or(' ');
        if first.is_uppercase() && w.chars().skip(1).any(char::is_lowercase) {
            let l = w.to_lowercase();
            if !STOP.contains(&l.as_str()) {
                names.insert(l);
            }
        }
    }
    Facts {
        words,
        numbers,
        names,
        negated,
        all,
    }
}

/// What `claim` asserts beyond quoting `quote`: the claim with every
/// quotation (“…” or "…") that is the quote's own words taken out, and an
/// attribution that only introduces such a quotation ("Title, location:"
/// before it) with it. Quoting a source verbatim asserts nothing the
/// source does not say, and a heading's dates in the attribution ("The
/// Lighthouse Board, 1852–1910:") are not the claim's.
pub fn assertion(claim: &str, quote: &str) -> String {
    let folded = |s: &str| crate::validate::normalize(s).text;
    let q = folded(quote);
    let mut out = String::new();
    let mut rest = claim;
    loop {
        let open = rest.find(['“', '"']);
        let Some(i) = open else {
            out.push_str(rest);
            break;
        };
        let close_char = if rest[i..].starts_with('“') {
            '”'
        } else {
            '"'
        };
        let body_start = i + rest[i..].chars().next().map_or(1, char::len_utf8);
        let Some(len) = rest[body_start..].find(close_char) else {
            out.push_str(rest);
            break;
        };
        let body = &rest[body_start..body_start + len];
        let after = body_start + len + close_char.len_utf8();
        let inner = folded(body);
        if !inner.trim().is_empty() && q.contains(inner.trim()) {
            // The quotation is the source's words: drop it, and an
            // attribution that ends right before it with a colon.
            let before = &rest[..i];
            let kept = match before.trim_end().strip_suffix(':') {
                Some(_) => before
                    .rfind(['.', '!', '?', '\n'])
                    .map_or("", |k| &before[..=k]),
                None => before,
            };
            out.push_str(kept);
            out.push(' ');
        } else {
            out.push_str(&rest[..after]);
        }
        rest = &rest[after..];
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// Judge whether `quote` supports `claim`; `context` (the quote's chunk)
/// can turn a missing detail into `partial` rather than `contradicts`.
pub fn judge(claim: &str, quote: &str, context: Option<&str>, cfg: &SupportConfig) -> Judgement {
    let c = facts(claim);
    let q = facts(quote);
    let j = |label, reason: String| Judgement { label, reason };
    if c.words.is_empty() {
        return j(Support::Entails, "the claim states nothing to check".into());
    }
    let shared = c.words.iter().filter(|w| q.words.contains(*w)).count();
    let overlap = shared as f32 / c.words.len() as f32;
    if shared == 0 || overlap < cfg.min_overlap {
        return j(
            Support::Irrelevant,
            format!(
                "the quote shares {shared} of the claim's {} content words",
                c.words.len()
            ),
        );
    }
    // Numbers the claim gives that the quote does not.
    let ctx = context.map(facts);
    let missing: Vec<&String> = c
        .numbers
        .iter()
        .filter(|n| !q.numbers.contains(n))
        .collect();
    if let Some(n) = missing.first() {
        let other: Vec<&String> = q
            .numbers
            .iter()
            .filter(|m| !c.numbers.contains(m))
            .collect();
        if let Some(m) = other.first() {
            return j(
                Support::Contradicts,
                format!("the claim says {n}, the quote says {m}"),
            );
        }
        let in_context = ctx.as_ref().is_some_and(|x| x.numbers.contains(n));
        return j(
            Support::Partial,
            if in_context {
                format!("{n} is in the passage, not in the quote")
            } else {
                format!("the quote gives no figure {n}")
            },
        );
    }
    if let Some(why) = prefix_negation(claim, quote) {
        return j(Support::Contradicts, why);
    }
    if c.negated != q.negated {
        return j(
            Support::Contradicts,
            if c.negated {
                "the claim negates what the quote states".into()
            } else {
                "the quote negates what the claim states".into()
            },
        );
    }
    for (a, b) in OPPOSITES {
        let has = |f: &Facts, w: &str| f.all.iter().any(|x| x.starts_with(w));
        if (has(&c, a) && !has(&c, b) && has(&q, b) && !has(&q, a))
            || (has(&c, b) && !has(&c, a) && has(&q, a) && !has(&q, b))
        {
            let (cw, qw) = if has(&c, a) { (a, b) } else { (b, a) };
            return j(
                Support::Contradicts,
                format!("the claim says \"{cw}…\", the quote says \"{qw}…\""),
            );
        }
    }
    let missing_names: Vec<&String> = c
        .names
        .iter()
        .filter(|n| !q.all.iter().any(|w| n.starts_with(w.as_str())) && !q.names.contains(*n))
        .collect();
    if let Some(n) = missing_names.first() {
        let other: Vec<&String> = q
            .names
            .iter()
            .filter(|m| !c.names.contains(*m) && !c.all.iter().any(|w| m.starts_with(w.as_str())))
            .collect();
        if let Some(m) = other.first()
            && overlap >= cfg.entail_overlap
        {
            return j(
                Support::Contradicts,
                format!("the claim names {n}, the quote names {m}"),
            );
        }
        return j(Support::Partial, format!("the quote does not mention {n}"));
    }
    if overlap < cfg.entail_overlap {
        return j(
            Support::Partial,
            format!(
                "the quote covers {shared} of the claim's {} content words",
                c.words.len()
            ),
        );
    }
    j(
        Support::Entails,
        format!(
            "the quote states it ({shared} of {} content words)",
            c.words.len()
        ),
    )
}

/// Do two claims of one answer state different values for the same thing?
/// (They share at least half of the shorter one's content words, both give
/// numbers, and no number in common.) The reason names both values.
pub fn inconsistent(a: &str, b: &str) -> Option<String> {
    let (x, y) = (facts(a), facts(b));
    if x.numbers.is_empty() || y.numbers.is_empty() {
        return None;
    }
    let shared = x.words.iter().filter(|w| y.words.contains(*w)).count();
    let smaller = x.words.len().min(y.words.len()).max(1);
    if (shared as f32) < 0.5 * smaller as f32 || x.numbers.iter().any(|n| y.numbers.contains(n)) {
        return None;
    }
    Some(format!(
        "one says {}, the other {}",
        x.numbers[0], y.numbers[0]
    ))
}

/// The best judgement over several cited quotes: one quote that entails
/// the claim is enough.
pub fn best(judgements: Vec<Judgement>) -> Option<Judgement> {
    judgements.into_iter().max_by_key(|j| j.label.rank())
}

#[cfg(test)]
mod tests;
