//! Does a cited quote support the claim that cites it? A citation that does
//! not support its sentence is the more dangerous failure, because it looks
//! verified. This is the deterministic tier: offline, explainable, and run
//! on every (claim, quote) pair.
//!
//! An attribution the claim opens with ("Krehbiel notes that …", "According
//! to Shedlock, …") is taken off first when the quote does not name that
//! person: the quote is their own words. Then, tried in order:
//! 1. `irrelevant` — the claim shares no content word with the quote, or
//!    too few to be about the same thing ([`SupportConfig::min_overlap`]),
//!    and no clause of it is all in the quote. An acronym on one side
//!    matches its words spelled out on the other ("LTM" / "long-term
//!    memory"); a number is a word too.
//! 2. `contradicts` — the claim gives a number the quote does not while
//!    the quote gives another one ("claim says 1789, quote says 1788"), or
//!    counts the same thing differently ("two octaves" / "an octave"); a
//!    word one side negates and the other states (the negation's scope: the
//!    words after "not", "no", "never", "without", "rather than" … up to the
//!    clause's end, a list running on to its "or"; a clause with "denied";
//!    a negative prefix, "uninterpretable" / "interpretable"); the same
//!    relation with its sides the other way round ("A before B" / "B before
//!    A", "A more efficient than B" / "an increase of B over A"); an
//!    opposite direction (more/less, increase/decrease …); a name where the
//!    quote has another name in its place (the same word next to it: "born
//!    in Salzburg" / "born at Rohrau"), or, the claim being otherwise
//!    covered, a plain name the quote lacks while it names another;
//! 3. `partial` — on topic, but something the claim asserts is not in the
//!    quote: a number or name the quote lacks, or content words below
//!    [`SupportConfig::entail_overlap`];
//! 4. `entails` — otherwise.
//!
//! Each label carries its evidence in words, quoting both sides where a rule
//! compared them. Words are compared after lower-casing, ASCII folding and
//! English stemming, stop words left out (the word lists are in
//! `lexicon.rs`). Support is about claims, never about quotes: no quote's
//! verdict changes because of it.

use serde::{Deserialize, Serialize};

mod hedge;
mod lexicon;
mod rules;
mod text;

use lexicon::OPPOSITES;

pub use hedge::hedge;
pub use text::strip_attribution;
use text::{Facts, facts};

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

/// What `claim` asserts beyond quoting `quote`: the claim with every
/// quotation (“…” or "…") that is the quote's own words taken out, and an
/// attribution that only introduces such a quotation ("Title, location:"
/// before it) with it. Quoting a source verbatim asserts nothing the
/// source does not say, and a heading's dates in the attribution ("The
/// Lighthouse Board, 1852–1910:") are not the claim's.
pub fn assertion(claim: &str, quote: &str) -> String {
    without_quoting(claim, quote, false)
}

/// What `claim` states, the quote's words included: the claim without an
/// attribution that only introduces a quotation of the quote ("Title, p. 1
/// · Heading:"), whose page numbers and dates are where the words are, not
/// what they say.
pub fn stated(claim: &str, quote: &str) -> String {
    without_quoting(claim, quote, true)
}

fn without_quoting(claim: &str, quote: &str, keep_quotation: bool) -> String {
    let folded = |s: &str| crate::validate::normalize(s).text;
    // The copied quote may read a code literal's "_name" as it is shown,
    // without the backticks that make it one: read literally too.
    let (q, q_literal) = (
        folded(quote),
        crate::validate::normalize_literal(quote).text,
    );
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
        let inner = inner.trim();
        if !inner.is_empty() && (q.contains(inner) || q_literal.contains(inner)) {
            // The quotation is the source's words: drop it, and an
            // attribution that ends right before it with a colon.
            let before = &rest[..i];
            // The attribution is its sentence up to the colon; where that
            // sentence starts, the claims' own splitter says (an
            // abbreviation — "p. 1 · Heading:" — ends none).
            let kept = match before.trim_end().strip_suffix(':') {
                Some(_) => {
                    let line = before.rfind('\n').map_or(0, |k| k + 1);
                    let start = crate::text::claim_sentences(&before[line..])
                        .last()
                        .map_or(0, |r| r.start);
                    &before[..line + start]
                }
                None => before,
            };
            out.push_str(kept);
            out.push(' ');
            if keep_quotation {
                out.push_str(body);
                out.push(' ');
            }
        } else {
            out.push_str(&rest[..after]);
        }
        rest = &rest[after..];
    }
    out.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// A figure `claim` gives that `quote` does not (the quote's own words and
/// who they are attributed to aside; `claim` without its `[n]` markers):
/// a claim stating it is not entailed, whatever a model judging it says.
pub fn figure_missing(claim: &str, quote: &str) -> Option<String> {
    let own = assertion(claim, quote);
    let (own, _) = strip_attribution(&own, quote);
    let q = facts(quote);
    facts(own)
        .numbers
        .into_iter()
        .find(|n| !q.numbers.contains(n))
}

/// Judge whether `quote` supports `claim`; `context` (the quote's chunk)
/// can turn a missing detail into `partial` rather than `contradicts`.
pub fn judge(claim: &str, quote: &str, context: Option<&str>, cfg: &SupportConfig) -> Judgement {
    let j = |label, reason: String| Judgement { label, reason };
    // Who the claim attributes the quote to is not in the quote's words.
    let (claim, _) = strip_attribution(claim, quote);
    let c = facts(claim);
    let q = facts(quote);
    if c.words.is_empty() {
        return j(Support::Entails, "the claim states nothing to check".into());
    }
    let found = rules::shared_words(&c, &q);
    let shared = c.words.iter().filter(|w| found.contains(*w)).count();
    let overlap = shared as f32 / c.words.len() as f32;
    let mut partial = None;
    if shared == 0 || overlap < cfg.min_overlap {
        // Unless one clause of the claim is all in the quote.
        let Some(clause) = rules::covered_clause(claim, &c, &found) else {
            return j(
                Support::Irrelevant,
                format!(
                    "the quote shares {shared} of the claim's {} content words",
                    c.words.len()
                ),
            );
        };
        partial = Some(format!("the quote covers \"{clause}\", not the rest"));
    }
    // Numbers the claim gives that the quote does not.
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
        if let Some(why) = rules::other_count(claim, quote, &c, &q) {
            return j(Support::Contradicts, why);
        }
        let in_context = context.is_some_and(|x| facts(x).numbers.contains(n));
        partial.get_or_insert(if in_context {
            format!("{n} is in the passage, not in the quote")
        } else {
            format!("the quote gives no figure {n}")
        });
    }
    if let Some(why) = rules::negation(claim, quote, &c, &q) {
        return j(Support::Contradicts, why);
    }
    if let Some(why) = rules::reversed(claim, quote, &c, &q) {
        return j(Support::Contradicts, why);
    }
    if let Some(why) = opposite(&c, &q) {
        return j(Support::Contradicts, why);
    }
    if let Some(why) = rules::name_in_place(claim, quote, &c, &q) {
        return j(Support::Contradicts, why);
    }
    let (missing_names, other_names) = rules::unmatched_names(claim, quote, &c, &q, &found);
    if let Some(n) = missing_names.first() {
        // Without a place to compare, only plain names count ("Mozart" /
        // "Haydn", not "CPU-only").
        let plain =
            |s: &&String| s.chars().all(char::is_alphabetic) && s.chars().any(char::is_lowercase);
        if let (Some(n), Some(m)) = (
            missing_names.iter().find(plain),
            other_names.iter().find(plain),
        ) && overlap >= cfg.entail_overlap
        {
            return j(
                Support::Contradicts,
                format!("the claim names {n}, the quote names {m}"),
            );
        }
        partial.get_or_insert(format!("the quote does not mention {n}"));
    }
    if let Some(why) = partial {
        return j(Support::Partial, why);
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

/// Opposite directions on the two sides (more / less, before / after …).
fn opposite(c: &Facts, q: &Facts) -> Option<String> {
    let has = |f: &Facts, w: &str| f.all.iter().any(|x| x.starts_with(w));
    OPPOSITES.iter().find_map(|(a, b)| {
        let clash = (has(c, a) && !has(c, b) && has(q, b) && !has(q, a))
            || (has(c, b) && !has(c, a) && has(q, a) && !has(q, b));
        clash.then(|| {
            let (cw, qw) = if has(c, a) { (a, b) } else { (b, a) };
            format!("the claim says \"{cw}…\", the quote says \"{qw}…\"")
        })
    })
}

/// Do two claims of one answer state different values for the same thing?
/// (They share at least half of the shorter one's content words, both give
/// numbers, and no number in common.) The reason names both values.
///
/// Only amounts count: the number of a figure, a table, an equation or a
/// cited work ("Figure 3", "et al. 9", "[12]") is no value of anything.
pub fn inconsistent(a: &str, b: &str) -> Option<String> {
    let (x, y) = (facts(a), facts(b));
    let (xn, yn) = (text::amounts(a), text::amounts(b));
    if xn.is_empty() || yn.is_empty() {
        return None;
    }
    let shared = x.words.iter().filter(|w| y.words.contains(*w)).count();
    let smaller = x.words.len().min(y.words.len()).max(1);
    if (shared as f32) < 0.5 * smaller as f32 || xn.iter().any(|n| yn.contains(n)) {
        return None;
    }
    Some(format!("one says {}, the other {}", xn[0], yn[0]))
}

/// The best judgement over several cited quotes: one quote that entails
/// the claim is enough.
pub fn best(judgements: Vec<Judgement>) -> Option<Judgement> {
    judgements.into_iter().max_by_key(|j| j.label.rank())
}

#[cfg(test)]
mod tests;
