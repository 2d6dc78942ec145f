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
}

impl ClaimIssue {
    pub fn describe(self) -> &'static str {
        match self {
            ClaimIssue::Uncited => "no citation",
            ClaimIssue::CitesDroppedOnly => "cites only quotes that failed validation",
            ClaimIssue::CitesMissing => "cites a quote that does not exist",
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
fn without_markers(s: &str) -> String {
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
    }
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
mod tests {
    use super::*;
    use Status::*;

    #[test]
    fn finds_citation_markers() {
        assert_eq!(citations("It was lit in 1810 [1]."), [1]);
        assert_eq!(citations("Both [1, 3] and [2][3]."), [1, 3, 2]);
        assert!(citations("An array [x] and [] and [1a].").is_empty());
        // The board's markers and the claim check read text the same way.
        assert_eq!(citations("see [Smith [1]]"), [1]);
    }

    #[test]
    fn marks_uncited_and_dropped_only_claims() {
        let summary = "The tower was lit in 1810 [1]. Keepers loved it. It burned whale oil [2].\nA later claim [3]. Ghost [9].";
        let claims = check_claims(summary, &[Validated, Dropped, Flagged]);
        let issues: Vec<_> = claims.iter().map(|c| (c.text.as_str(), c.issue)).collect();
        assert_eq!(
            issues,
            [
                ("The tower was lit in 1810 [1].", None),
                ("Keepers loved it.", Some(ClaimIssue::Uncited)),
                (
                    "It burned whale oil [2].",
                    Some(ClaimIssue::CitesDroppedOnly)
                ),
                ("A later claim [3].", None),
                ("Ghost [9].", Some(ClaimIssue::CitesMissing)),
            ]
        );
    }

    /// A sentence that cites only a dropped quote is marked, however it
    /// starts (a number, a small letter) and after a stray quotation mark:
    /// a citation marker with a full stop ends a claim.
    #[test]
    fn a_cited_sentence_ends_its_claim() {
        for next in [
            "1844 was also the year the keepers mutinied [2].",
            "and the keepers mutinied that year [2].",
        ] {
            for first in [
                "The tower was built between 1838 and 1844 [1].",
                "The \"tower was built between 1838 and 1844 [1].",
            ] {
                let summary = format!("{first} {next}");
                let claims = check_claims(&summary, &[Validated, Dropped]);
                let got: Vec<_> = claims.iter().map(|c| (c.text.as_str(), c.issue)).collect();
                assert_eq!(
                    got,
                    [(first, None), (next, Some(ClaimIssue::CitesDroppedOnly))],
                    "{summary}"
                );
            }
        }
        // A lone marker still belongs to the sentence before it.
        let claims = check_claims("It was lit in 1811. [1]. Then", &[Validated]);
        assert_eq!(claims[0].citations, [1], "{claims:?}");
    }

    /// A heading that states something is a claim (uncited, marked), and
    /// a number beside a marker is a claim of its own, not the sentence
    /// before's.
    #[test]
    fn statements_in_headings_and_bare_numbers_are_claims() {
        let claims = check_claims(
            "# The light was first lit in 1807 and cost 90,000 pounds\nIt was lit in 1811 [1]. 90,000 [2].",
            &[Validated, Dropped],
        );
        let got: Vec<_> = claims.iter().map(|c| (c.text.as_str(), c.issue)).collect();
        assert_eq!(
            got,
            [
                (
                    "# The light was first lit in 1807 and cost 90,000 pounds",
                    Some(ClaimIssue::Uncited)
                ),
                ("It was lit in 1811 [1].", None),
                ("90,000 [2].", Some(ClaimIssue::CitesDroppedOnly)),
            ]
        );
    }

    #[test]
    fn headings_are_not_claims() {
        let claims = check_claims(
            "## Findings\nThe tower was lit in 1810 [1].\n#hashtag claim.\n### Cited heading [1]",
            &[Validated],
        );
        let texts: Vec<_> = claims.iter().map(|c| (c.text.as_str(), c.issue)).collect();
        assert_eq!(
            texts,
            [
                ("The tower was lit in 1810 [1].", None),
                ("#hashtag claim.", Some(ClaimIssue::Uncited)),
                ("### Cited heading [1]", None),
            ]
        );
    }

    #[test]
    fn confidence_table() {
        let ok = check_claims("A [1].", &[Validated]);
        assert_eq!(
            confidence(Some(0.9), 0.6, true, &[Validated], &ok),
            Confidence::High
        );
        assert_eq!(
            confidence(Some(0.4), 0.6, true, &[Validated], &ok),
            Confidence::Medium
        );
        // Strong, but the best passage lacks most of what was asked.
        assert_eq!(
            confidence(Some(0.9), 0.6, false, &[Validated], &ok),
            Confidence::Medium
        );
        assert_eq!(
            confidence(Some(0.9), 0.6, true, &[Validated, Flagged], &ok),
            Confidence::Medium
        );
        assert_eq!(
            confidence(Some(0.9), 0.6, true, &[Validated, Dropped], &ok),
            Confidence::Medium
        );
        let bad = check_claims("A [1]. B.", &[Validated]);
        assert_eq!(
            confidence(Some(0.9), 0.6, true, &[Validated], &bad),
            Confidence::Low
        );
        assert_eq!(
            confidence(Some(0.9), 0.6, true, &[Dropped], &ok),
            Confidence::Low
        );
        assert_eq!(confidence(None, 0.6, true, &[], &[]), Confidence::None);
    }

    /// Issue 16: a claim its quote supports only in part is worded so
    /// ("suggests", not "shows") and keeps the answer from high confidence;
    /// an entailed one keeps its words.
    /// A summary of dots and a citation (a small model copying the prompt's
    /// "... [1].") states nothing: it is no supported claim, and the answer
    /// is not "high" on the strength of its quote alone.
    #[test]
    fn a_claim_that_says_nothing_is_not_supported() {
        let quotes = [Some((
            "The tower was lit in 1810.",
            "The tower was lit in 1810.",
        ))];
        let statuses = [Validated];
        for summary in ["... [1].", "— [1]", "[1]."] {
            let mut claims = check_claims(summary, &statuses);
            judge_support(
                &mut claims,
                &quotes,
                &crate::support::SupportConfig::default(),
            );
            assert!(claims.iter().all(|c| c.flagged()), "{summary}: {claims:?}");
            assert_eq!(
                confidence(Some(0.9), 0.6, true, &statuses, &claims),
                Confidence::Low,
                "{summary}"
            );
        }
        // A claim made only of the source's quoted words still says them.
        assert!(says_something("“The tower was lit in 1810” [1]."));
        assert!(!says_something("... [1] [2]."));
    }

    #[test]
    fn a_partial_claim_is_hedged_and_lowers_confidence() {
        let summary = "The records show the keepers were paid by the Board in 1850 [1].\nThe tower was lit in 1810 [2].";
        let quotes = [
            Some((
                "The keepers were paid by the Board.",
                "The keepers were paid by the Board.",
            )),
            Some(("The tower was lit in 1810.", "The tower was lit in 1810.")),
        ];
        let statuses = [Validated, Validated];
        let mut claims = check_claims(summary, &statuses);
        judge_support(
            &mut claims,
            &quotes,
            &crate::support::SupportConfig::default(),
        );
        let labels: Vec<_> = claims.iter().map(|c| c.support).collect();
        use crate::support::Support;
        assert_eq!(labels, [Some(Support::Partial), Some(Support::Entails)]);
        let before = confidence(Some(0.9), 0.6, true, &statuses, &claims);
        let text = hedge_partial(summary, &mut claims);
        assert_eq!(
            text,
            "The records suggest the keepers were paid by the Board in 1850 [1].\nThe tower was lit in 1810 [2]."
        );
        assert_eq!(
            claims[0].text,
            "The records suggest the keepers were paid by the Board in 1850 [1]."
        );
        assert_eq!(claims[1].text, "The tower was lit in 1810 [2].");
        // Confidence drops for the partial claim: medium, where the same
        // answer with every claim entailed is high.
        assert_eq!(before, Confidence::Medium);
        assert_eq!(
            confidence(Some(0.9), 0.6, true, &statuses, &claims),
            Confidence::Medium
        );
        let entailed = &claims[1..];
        assert_eq!(
            confidence(Some(0.9), 0.6, true, &statuses, entailed),
            Confidence::High
        );
        // Nothing to hedge: the summary comes back as it was.
        let mut claims = check_claims("The tower was lit in 1810 [2].", &statuses);
        judge_support(
            &mut claims,
            &quotes,
            &crate::support::SupportConfig::default(),
        );
        assert_eq!(
            hedge_partial("The tower was lit in 1810 [2].", &mut claims),
            "The tower was lit in 1810 [2]."
        );
    }

    #[test]
    fn a_quotation_of_several_sentences_is_one_claim() {
        let statuses = [Validated];
        let claims = check_claims(
            "Essays, OPERA: “Méhul was a pupil of Gluck. He wrote an opera without violins.” [1]\n\
             The tower stands. It is \"tall. Very tall.\" [1]",
            &statuses,
        );
        let texts: Vec<&str> = claims.iter().map(|c| c.text.as_str()).collect();
        assert_eq!(texts.len(), 3, "{texts:?}");
        assert!(texts[0].ends_with("violins.”"), "{texts:?}");
        assert_eq!(claims[0].citations, vec![1]);
        assert_eq!(claims[0].issue, None);
        assert_eq!(claims[1].issue, Some(ClaimIssue::Uncited));
        assert_eq!(texts[2], "It is \"tall. Very tall.\"");
        assert_eq!(claims[2].citations, vec![1]);
        // Nor does a section number.
        let claims = check_claims(
            "Attrition, p. 2 · II. LITERATURE REVIEW: “Turnover was studied.” [1]",
            &statuses,
        );
        assert_eq!(claims.len(), 1, "{claims:?}");
        assert_eq!(claims[0].issue, None);
        assert_eq!(
            check_claims("It was lit in 1810. It burned [1].", &statuses).len(),
            2
        );
        // An unclosed quotation runs to the line's end, never past it.
        let claims = check_claims("“One. Two [1]\nThree [1].", &statuses);
        assert_eq!(claims.len(), 2, "{claims:?}");
    }

    #[test]
    fn a_marker_inside_a_quotation_is_the_sources_own() {
        // The source's "[3]" inside the quote is not a citation of the
        // answer's: the claim cites [1] only, and quotes its source.
        let statuses = [Validated, Validated];
        let quote = "Sunil Kumar Dhal [3] et al conducted a study of attrition.";
        let summary = format!("Attrition, p. 1: “{quote}” [1]");
        let mut claims = check_claims(&summary, &statuses);
        assert_eq!(claims.len(), 1, "{claims:?}");
        assert_eq!(claims[0].citations, vec![1]);
        judge_support(
            &mut claims,
            &[Some((quote, quote)), None],
            &crate::support::SupportConfig::default(),
        );
        assert_eq!(
            claims[0].support,
            Some(crate::support::Support::Entails),
            "{claims:?}"
        );
        assert_eq!(citations("He said \"see [2]\" twice [1]."), vec![1]);
        // An unclosed quotation hides nothing.
        assert_eq!(citations("“Open [2] and on [1]."), vec![2, 1]);
    }

    #[test]
    fn where_a_quote_is_is_not_what_it_says() {
        // The extractive summary's lines: one source, two pages. Before,
        // "p. 1" and "p. 2" were taken for two values of one thing and the
        // answer shown at low confidence.
        let statuses = [Validated, Validated];
        let summary = "The Tower of Hercules at A Coruna, p. 1 · The inscription: \
             “The inscription names the builder of the tower.” [1]\n\
             The Tower of Hercules at A Coruna, p. 2 · Legends: \
             “The name of the tower comes from a legend.” [2]";
        let q1 = "The inscription names the builder of the tower.";
        let q2 = "The name of the tower comes from a legend.";
        let quotes = [Some((q1, q1)), Some((q2, q2))];
        let mut claims = check_claims(summary, &statuses);
        check_consistency(&mut claims, &quotes);
        assert!(
            claims.iter().all(|c| c.inconsistent_with.is_empty()),
            "{claims:?}"
        );
        // Quotes that do give two values for one thing still are marked.
        let q1 = "The tower of the light is 48 metres tall.";
        let q2 = "The tower of the light is 46 metres tall.";
        let summary = format!("Guide, p. 1: “{q1}” [1]\nAtlas, p. 1: “{q2}” [2]");
        let quotes = [Some((q1, q1)), Some((q2, q2))];
        let mut claims = check_claims(&summary, &statuses);
        check_consistency(&mut claims, &quotes);
        assert_eq!(claims[0].inconsistent_with.len(), 1, "{claims:?}");
        assert!(claims[0].inconsistent_with[0].1.contains("48"));
    }

    /// A reply of thousands of claims is compared pair by pair over its
    /// first claims only (all of them took minutes).
    #[test]
    fn a_long_summary_is_compared_in_bounded_time() {
        let statuses = [Status::Validated];
        let summary: String = (0..3000)
            .map(|n| format!("The tower of the light is {n} metres tall [1].\n"))
            .collect();
        let mut claims = check_claims(&summary, &statuses);
        assert_eq!(claims.len(), 3000);
        let t = std::time::Instant::now();
        check_consistency(&mut claims, &[None]);
        assert!(
            t.elapsed() < std::time::Duration::from_secs(10),
            "{:?}",
            t.elapsed()
        );
        assert_eq!(claims[0].inconsistent_with.len(), 63);
        assert!(claims[2999].inconsistent_with.is_empty());
    }

    proptest::proptest! {
        /// Quoting the cited quote verbatim, with any attribution before it,
        /// is never judged unsupported, whatever numbers the attribution
        /// holds.
        #[test]
        fn attributed_verbatim_quotes_are_never_unsupported(
            words in proptest::collection::vec("[A-Za-z]{1,9}|[0-9]{1,4}", 3..25),
            title in proptest::collection::vec("[A-Z][a-z]{1,8}|[0-9]{4}(–[0-9]{4})?", 1..6),
        ) {
            let quote = format!("{}.", words.join(" "));
            let claim = format!("{}: “{quote}”", title.join(" "));
            let mut claims = vec![Claim {
                text: claim,
                citations: vec![1],
                issue: None,
                support: None,
                support_reason: None,
                inconsistent_with: Vec::new(),
            }];
            judge_support(&mut claims, &[Some((quote.as_str(), quote.as_str()))], &crate::support::SupportConfig::default());
            proptest::prop_assert_eq!(claims[0].support, Some(crate::support::Support::Entails), "{:?}", claims[0].support_reason);
        }
    }
}
