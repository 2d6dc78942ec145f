//! Answer checks: every sentence of the summary is a claim; a claim must cite
//! (`[n]`) at least one snippet that validation kept. Uncited claims and
//! claims citing only dropped snippets are marked, never silently kept.
//! Confidence follows the gate's numbers and the verdicts.

use crate::validate::Status;
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ClaimIssue {
    /// The sentence cites nothing.
    Uncited,
    /// Every snippet it cites was dropped by validation.
    CitesDroppedOnly,
    /// It cites a snippet number that does not exist.
    CitesMissing,
    /// It puts in quotation marks words that neither its quotes nor their
    /// passages hold: a quotation the source does not have.
    Misquotes,
}

impl ClaimIssue {
    pub fn describe(self) -> &'static str {
        match self {
            ClaimIssue::Uncited => "no citation",
            ClaimIssue::CitesDroppedOnly => "cites only quotes that failed validation",
            ClaimIssue::CitesMissing => "cites a quote that does not exist",
            ClaimIssue::Misquotes => "quotes words its sources do not have",
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Claim {
    pub text: String,
    /// 1-based snippet numbers cited.
    pub citations: Vec<usize>,
    pub issue: Option<ClaimIssue>,
    /// Does what it cites support it ([`crate::support`])? The best label
    /// over its cited quotes; None when it cites no located quote.
    #[serde(default)]
    pub support: Option<crate::support::Support>,
    /// The evidence for that label, in words.
    #[serde(default)]
    pub support_reason: Option<String>,
    /// Other claims of this answer (1-based) that give a different value
    /// for the same thing, with why.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub inconsistent_with: Vec<(usize, String)>,
}

impl Claim {
    /// Marked for the author: a citation problem, or a citation that does
    /// not support the sentence.
    pub fn flagged(&self) -> bool {
        self.issue.is_some()
            || self.support.is_some_and(|s| s.unsupported())
            || !self.inconsistent_with.is_empty()
    }
}

/// Whether a claim states anything: a word or a number besides its `[n]`
/// markers ("... [1]." states nothing, however it is judged).
pub fn says_something(claim: &str) -> bool {
    without_markers(claim).chars().any(char::is_alphanumeric)
}

/// A claim's text without its `[n]` markers (they are not numbers it states).
pub fn without_markers(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut at = 0;
    for (r, _) in citation_markers(s) {
        if r.start >= at {
            out.push_str(&s[at..r.start]);
            at = r.end;
        }
    }
    out.push_str(&s[at..]);
    out
}

/// Mark every pair of claims that state different values for the same
/// thing (A3, within one answer). `quotes` as for [`judge_support`]: an
/// attribution that introduces a claim's quotation ("Title, p. 1 ·
/// Heading:") is not what it states, so two quotes from different pages do
/// not "say" 1 and 2.
pub fn check_consistency(claims: &mut [Claim], quotes: &[Option<(&str, &str)>]) {
    const MAX_COMPARED: usize = 64;
    let texts: Vec<String> = claims
        .iter()
        .map(|c| {
            let text = without_markers(&c.text);
            let quote = c
                .citations
                .first()
                .and_then(|&n| quotes.get(n.checked_sub(1)?).copied().flatten());
            match quote {
                Some((quote, _)) => crate::support::stated(&text, quote),
                None => text,
            }
        })
        .collect();
    // Pairs of the first claims only: a summary is a few sentences, and a
    // reply of thousands would take minutes pair by pair.
    let n = claims.len().min(MAX_COMPARED);
    for i in 0..n {
        for k in i + 1..n {
            if let Some(why) = crate::support::inconsistent(&texts[i], &texts[k]) {
                claims[i].inconsistent_with.push((k + 1, why.clone()));
                claims[k].inconsistent_with.push((i + 1, why));
            }
        }
    }
}

/// Judge every claim against the quotes it cites: `quotes[n - 1]` is the
/// source's own words for snippet `n` and its chunk's text, when it was
/// located.
pub fn judge_support(
    claims: &mut [Claim],
    quotes: &[Option<(&str, &str)>],
    cfg: &crate::support::SupportConfig,
) {
    for c in claims.iter_mut() {
        let text = without_markers(&c.text);
        // A sentence of dots and a citation is no answer: nothing in it can
        // be supported, and it must not pass for one that quotes its source.
        if !says_something(&c.text) {
            c.support = Some(crate::support::Support::Irrelevant);
            c.support_reason = Some("it says nothing besides its citation".into());
            continue;
        }
        let js: Vec<crate::support::Judgement> = c
            .citations
            .iter()
            .filter_map(|&n| quotes.get(n.checked_sub(1)?).copied().flatten())
            .map(|(quote, chunk)| {
                let own = crate::support::assertion(&text, quote);
                if own.chars().any(char::is_alphanumeric) {
                    crate::support::judge(&own, quote, Some(chunk), cfg)
                } else {
                    crate::support::Judgement {
                        label: crate::support::Support::Entails,
                        reason: "the claim quotes its source's own words".into(),
                    }
                }
            })
            .collect();
        if let Some(best) = crate::support::best(js) {
            c.support = Some(best.label);
            c.support_reason = Some(best.reason);
        }
        if c.issue.is_none() && misquotes(&c.text, &c.citations, quotes) {
            c.issue = Some(ClaimIssue::Misquotes);
        }
    }
}

/// `claim` holds a quotation of [`crate::text::MIN_QUOTE_WORDS`] words or
/// more (shorter ones are terms: the “Stevenson light”) that is in none of
/// the quotes it cites, nor their passages: words shown as the source's
/// that the source does not have, whatever a judge of the claim says.
fn misquotes(claim: &str, cites: &[usize], quotes: &[Option<(&str, &str)>]) -> bool {
    use unicode_segmentation::UnicodeSegmentation;
    let folded = |s: &str| crate::validate::normalize(s).text;
    let held: Vec<String> = cites
        .iter()
        .filter_map(|&n| quotes.get(n.checked_sub(1)?).copied().flatten())
        .flat_map(|(quote, chunk)| [folded(quote), folded(chunk)])
        .collect();
    quotations(claim).into_iter().any(|r| {
        let body = &claim[r];
        // Its own stop or comma may differ from the source's.
        let inner = folded(body);
        let inner = inner.trim_matches(|c: char| !c.is_alphanumeric());
        body.unicode_words().count() >= crate::text::MIN_QUOTE_WORDS
            && !held.iter().any(|h| h.contains(inner))
    })
}

/// Reword every claim its quotes support only in part so that it hedges
/// ([`crate::support::hedge`]: "suggests", not "shows"): the summary with
/// those sentences reworded, each such claim's text with them. A claim its
/// quotes entail keeps its words; so does one with a citation problem (its
/// mark speaks for it). Run once the labels are final.
pub fn hedge_partial(summary: &str, claims: &mut [Claim]) -> String {
    let mut out = String::with_capacity(summary.len() + 32 * claims.len());
    let mut at = 0;
    for c in claims.iter_mut() {
        let Some(i) = summary[at..].find(c.text.as_str()).map(|i| at + i) else {
            continue;
        };
        let end = i + c.text.len();
        out.push_str(&summary[at..i]);
        let partial = c.support == Some(crate::support::Support::Partial) && c.issue.is_none();
        match crate::support::hedge(&c.text).filter(|_| partial) {
            Some(hedged) => {
                out.push_str(&hedged);
                c.text = hedged;
            }
            None => out.push_str(&c.text),
        }
        at = end;
    }
    out.push_str(&summary[at..]);
    out
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Confidence {
    High,
    Medium,
    Low,
    None,
}

/// The `[n]` markers of a sentence (also `[1, 2]` and `[1][2]`), each
/// number once.
pub fn citations(s: &str) -> Vec<usize> {
    let mut out = Vec::new();
    for (_, n) in citation_markers(s) {
        if !out.contains(&n) {
            out.push(n);
        }
    }
    out
}

/// Byte ranges of `[n]` / `[n, m]` markers in `s`, each with its numbers
/// (one entry per number, sharing the range). A marker inside a quotation
/// (“… Dhal [3] et al …”) is the quoted source's own reference, not a
/// citation of the answer's.
pub fn citation_markers(s: &str) -> Vec<(std::ops::Range<usize>, usize)> {
    let quoted = quotations(s);
    let mut out = Vec::new();
    let mut from = 0;
    while let Some(open) = s[from..].find('[').map(|i| from + i) {
        if let Some(q) = quoted.iter().find(|q| q.contains(&open)) {
            from = q.end;
            continue;
        }
        let Some(close) = s[open..].find(']').map(|i| open + i) else {
            break;
        };
        let inner = &s[open + 1..close];
        if !inner.is_empty()
            && inner.chars().any(|c| c.is_ascii_digit())
            && inner
                .chars()
                .all(|c| c.is_ascii_digit() || c == ',' || c == ' ')
        {
            for n in inner.split(',').filter_map(|x| x.trim().parse().ok()) {
                out.push((open..close + 1, n));
            }
            from = close + 1;
        } else {
            from = open + 1;
        }
    }
    out
}

/// Byte ranges inside quotation marks: “…” pairs, and "…" pairs when the
/// straight marks pair up. An unclosed “ quotes nothing.
fn quotations(s: &str) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    let mut open: Option<usize> = None;
    for (i, c) in s.char_indices() {
        match (c, open) {
            ('“', None) => open = Some(i + c.len_utf8()),
            ('”', Some(start)) => {
                out.push(start..i);
                open = None;
            }
            _ => {}
        }
    }
    if s.matches('"').count().is_multiple_of(2) {
        let marks: Vec<usize> = s.match_indices('"').map(|(i, _)| i).collect();
        for pair in marks.chunks(2) {
            if let [a, b] = pair {
                out.push(a + 1..*b);
            }
        }
    }
    out
}

/// Split a summary into claims (sentences; each line is at least one) and
/// check each one's citations against the snippets' statuses.
pub fn check_claims(summary: &str, statuses: &[Status]) -> Vec<Claim> {
    let mut claims = Vec::new();
    for line in summary.lines() {
        // A Markdown heading ("## Findings") states nothing to cite; one
        // that reads as a statement (a number in it, or a sentence's
        // length) is a claim like any other.
        if is_heading(line) && citations(line).is_empty() && !states_something(line) {
            continue;
        }
        for r in crate::text::claim_sentences(line) {
            let text = line[r].trim().to_string();
            // A lone marker after a sentence belongs to that sentence (a
            // number beside a marker, "90,000 [2].", is a claim of its own).
            let cites = citations(&text);
            let only_marker = !says_something(&text);
            if only_marker
                && !cites.is_empty()
                && let Some(last) = claims.last_mut()
            {
                let last: &mut Claim = last;
                last.citations.extend(cites);
                last.issue = issue_of(&last.citations, statuses);
                continue;
            }
            if !text.chars().any(char::is_alphanumeric) {
                continue;
            }
            let issue = issue_of(&cites, statuses);
            claims.push(Claim {
                text,
                citations: cites,
                issue,
                support: None,
                support_reason: None,
                inconsistent_with: Vec::new(),
            });
        }
    }
    claims
}

/// An ATX heading line: one to six `#`, then a space or the line's end.
/// A heading that states something: a number in it (past a section's
/// own number, "## 2. Results"), or six words or more.
fn states_something(line: &str) -> bool {
    let t = line.trim_start().trim_start_matches('#').trim();
    let t = t.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.' || c == ' ');
    t.chars().any(|c| c.is_ascii_digit()) || t.split_whitespace().count() >= 6
}

fn is_heading(line: &str) -> bool {
    let t = line.trim_start();
    let hashes = t.chars().take_while(|c| *c == '#').count();
    (1..=6).contains(&hashes) && t[hashes..].chars().next().is_none_or(char::is_whitespace)
}

fn issue_of(cites: &[usize], statuses: &[Status]) -> Option<ClaimIssue> {
    if cites.is_empty() {
        return Some(ClaimIssue::Uncited);
    }
    if cites.iter().any(|&n| n == 0 || n > statuses.len())
        && cites.iter().all(|&n| n == 0 || n > statuses.len())
    {
        return Some(ClaimIssue::CitesMissing);
    }
    let kept = cites
        .iter()
        .filter(|&&n| n >= 1 && n <= statuses.len())
        .any(|&n| statuses[n - 1] != Status::Dropped);
    if kept {
        None
    } else {
        Some(ClaimIssue::CitesDroppedOnly)
    }
}

/// Confidence from the gate's top score (`None` when refused), whether the
/// best passage holds most of what the question names (`holds_question`),
/// the snippet statuses and the claims.
pub fn confidence(
    top_score: Option<f32>,
    high_score: f32,
    holds_question: bool,
    statuses: &[Status],
    claims: &[Claim],
) -> Confidence {
    let Some(top) = top_score else {
        return Confidence::None;
    };
    let validated = statuses.iter().filter(|s| **s == Status::Validated).count();
    // Every quote validated: a flagged or a dropped one (a model's
    // invention) keeps the answer from "high".
    let all_validated = validated == statuses.len();
    if validated == 0 || claims.iter().any(Claim::flagged) {
        return Confidence::Low;
    }
    // A claim its quotes support only in part keeps the answer at medium.
    let partial = claims
        .iter()
        .any(|c| c.support == Some(crate::support::Support::Partial));
    if top >= high_score && holds_question && all_validated && !partial {
        Confidence::High
    } else {
        Confidence::Medium
    }
}

#[cfg(test)]
mod tests;
