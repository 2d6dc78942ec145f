//! A hand-built [`QueryOutcome`] with every verdict, for the board's
//! snapshot tests and the render benchmark (stable where a pipeline run
//! would drift with every scoring change).

use crate::answer::{ClaimIssue, Confidence, check_claims};
use crate::budget::Budget;
use crate::extract::Span;
use crate::gate::{Decision, GateDecision, REFUSAL, Reason, Tier};
use crate::pipeline::{Answer, CandidateOut, QueryOutcome, SnippetOut, Timings, VerdictCounts};
use crate::validate::{Status, Verdict};
use std::collections::BTreeMap;

const PHAROS_2: &str = "The architect was Sostratus of Cnidus, a wealthy courtier and diplomat as much as a builder. Strabo, writing in the first century BC, says the dedication read “Sostratus of Cnidus, son of Dexiphanes, to the Saviour Gods, on behalf of those who sail the sea.” A later and probably invented story claims that Sostratus carved his own name into the stone.";
const PHAROS_1: &str = "Alexander the Great founded Alexandria in 331 BC on a stretch of coast that offered a sailor almost nothing to steer by. The delta shore is low and sandy, there are no headlands or hills. Pliny the Elder records that it cost eight hundred talents, an enormous sum.";
const HERCULES_2: &str = "At the foot of the tower a rock carries a Latin inscription naming the builder: Gaius Sevius\nLupus, an architect from Aeminium, the modern town of Coimbra in Portugal, who dedicated\nthe work to Mars. Scholars have long debated whether the tower was modelled on the Pharos.";
const HOSTILE: &str = "A hostile note.\u{1b}]52;c;SGVsbG8=\u{7} It tries to clear the screen \u{1b}[2J and move the cursor \u{1b}[10;10H here, with a C1 \u{9b}31m too.";

fn candidate(
    rank: usize,
    id: &str,
    title: &str,
    location: &str,
    text: &str,
    kept: bool,
) -> CandidateOut {
    let f = 1.0 / (60.0 + rank as f32);
    CandidateOut {
        rank,
        id: id.into(),
        source_id: id.split('#').next().unwrap_or(id).into(),
        source_title: title.into(),
        location: location.into(),
        place: None,
        text: text.into(),
        bm25: Some(16.0 / rank as f32),
        bm25_rank: Some(rank),
        vector: (!rank.is_multiple_of(3)).then_some(0.6 - rank as f32 * 0.03),
        vector_rank: (!rank.is_multiple_of(3)).then_some(rank),
        fused: f,
        coverage: 1.0 - rank as f32 * 0.05,
        window: None,
        max_sim: None,
        evidence: 0.8 - rank as f32 * 0.04,
        kept,
        rerank: None,
        also_in: Vec::new(),
    }
}

#[allow(clippy::too_many_arguments)]
fn snippet(
    n: usize,
    content: &str,
    source: &str,
    title: &str,
    location: &str,
    verdict: Verdict,
    spans: Vec<Span>,
    copy_text: Option<&str>,
    note: &str,
) -> SnippetOut {
    SnippetOut {
        n,
        content: content.into(),
        source_id: source.into(),
        source_title: title.into(),
        location: location.into(),
        place: None,
        model_source_title: None,
        model_source_location: None,
        relevance: 1.0 - n as f32 * 0.1,
        span: spans.first().cloned(),
        verdict,
        status: verdict.status(),
        similarity: if verdict.status() == Status::Validated {
            1.0
        } else {
            0.8
        },
        spans,
        found_source_id: None,
        copy_text: copy_text.map(str::to_string),
        note: note.into(),
        cite: None,
        read_as: None,
    }
}

fn span(chunk: &str, text: &str, piece: &str) -> Span {
    let b = text.find(piece).expect("piece in text");
    let start = text[..b].chars().count();
    Span {
        chunk_id: chunk.into(),
        start,
        end: start + piece.chars().count(),
    }
}

fn gate_pass() -> GateDecision {
    let mut n = BTreeMap::new();
    n.insert("candidates".into(), 5.0);
    n.insert("clear_winner_ratio".into(), 1.0);
    n.insert("min_top_score".into(), 0.2);
    n.insert("top_ratio".into(), 1.0424);
    n.insert("top_score".into(), 0.7669);
    n.insert("unknown_share".into(), 0.0);
    GateDecision::new(Decision::Pass, Tier::Retrieval, Reason::Passed, n)
}

/// An answer with validated, flagged and dropped quotes and one uncited
/// claim; `chunks` candidates (at least 4) and `snippets` quotes (at most 8).
pub fn answer_outcome(chunks: usize, snippets: usize) -> QueryOutcome {
    let p2 = "pharos-of-alexandria.md#2";
    let p1 = "pharos-of-alexandria.md#1";
    let h2 = "tower-of-hercules.pdf#2";
    let pharos = "The Pharos of Alexandria";
    let hercules = "The Tower of Hercules at A Coruna";
    let loc2 = "Origins › The architect and the inscription";
    let loc1 = "Origins › A harbour that needed a mark";
    let loch = "p. 1 · The architect's inscription";
    let mut candidates = vec![
        candidate(1, p2, pharos, loc2, PHAROS_2, true),
        candidate(2, p1, pharos, loc1, PHAROS_1, true),
        candidate(3, h2, hercules, loch, HERCULES_2, true),
        candidate(
            4,
            "notes/hostile.md#0",
            "Hostile \u{1b}[31mnote",
            "Esc \u{7}bell",
            HOSTILE,
            true,
        ),
    ];
    for r in 5..=chunks.max(4) {
        candidates.push(candidate(
            r,
            &format!("filler-{r}.md#0"),
            &format!("Filler source {r}"),
            "Section 1 of 2",
            "Nothing here is about the question, but it was retrieved all the same by a weak lexical match.",
            r <= 5,
        ));
    }
    let s1 = "The architect was Sostratus of Cnidus, a wealthy courtier and diplomat as much as a builder.";
    let s3_src = "Pliny the Elder records that it cost eight hundred talents";
    let s4a = "The architect was Sostratus of Cnidus, a wealthy courtier and diplomat as much as a builder.";
    let s4b = "A later and probably invented story claims that Sostratus carved his own name into the stone.";
    let s5 = "Gaius Sevius\nLupus, an architect from Aeminium";
    let mut all = vec![
        snippet(
            1,
            s1,
            "pharos-of-alexandria.md",
            pharos,
            loc2,
            Verdict::Verbatim,
            vec![span(p2, PHAROS_2, s1)],
            Some(s1),
            "exact words of the cited source",
        ),
        snippet(
            2,
            "strabo, writing in the first century BC, says the dedication read \"Sostratus of Cnidus, son of Dexiphanes",
            "pharos-of-alexandria.md",
            pharos,
            loc2,
            Verdict::Normalized,
            vec![span(
                p2,
                PHAROS_2,
                "Strabo, writing in the first century BC, says the dedication read “Sostratus of Cnidus, son of Dexiphanes",
            )],
            Some(
                "Strabo, writing in the first century BC, says the dedication read “Sostratus of Cnidus, son of Dexiphanes",
            ),
            "same words up to case and punctuation",
        ),
        snippet(
            3,
            "Pliny the Elder recorded that it cost eight hundred talent",
            "pharos-of-alexandria.md",
            pharos,
            loc1,
            Verdict::Fuzzy,
            vec![span(p1, PHAROS_1, s3_src)],
            Some(s3_src),
            "similar (0.93) but not identical to the source",
        ),
        snippet(
            4,
            &format!("{s4a} {s4b}"),
            "pharos-of-alexandria.md",
            pharos,
            loc2,
            Verdict::NonContiguous,
            vec![span(p2, PHAROS_2, s4a), span(p2, PHAROS_2, s4b)],
            Some(&format!("{s4a} … {s4b}")),
            "each sentence is in the source, but not side by side",
        ),
        snippet(
            5,
            s5,
            "pharos-of-alexandria.md",
            pharos,
            loc2,
            Verdict::Misattributed,
            vec![span(h2, HERCULES_2, s5)],
            Some(s5),
            "verbatim, but in tower-of-hercules.pdf, not the cited source",
        ),
        snippet(
            6,
            "Sostratus was paid a thousand talents by the king himself.",
            "pharos-of-alexandria.md",
            pharos,
            loc2,
            Verdict::NotFound,
            vec![],
            None,
            "not found in the retrieved sources (best similarity 0.41)",
        ),
        snippet(
            7,
            "Mars.",
            "tower-of-hercules.pdf",
            hercules,
            loch,
            Verdict::TooShort,
            vec![],
            None,
            "too short to check (1 word)",
        ),
        snippet(
            8,
            "The delta shore is low and sandy, there are no headlands or hills.",
            "pharos-of-alexandria.md",
            pharos,
            loc1,
            Verdict::Verbatim,
            vec![span(
                p1,
                PHAROS_1,
                "The delta shore is low and sandy, there are no headlands or hills.",
            )],
            Some("The delta shore is low and sandy, there are no headlands or hills."),
            "exact words of the cited source",
        ),
    ];
    all[4].found_source_id = Some("tower-of-hercules.pdf".into());
    all.truncate(snippets.clamp(1, 8));
    let statuses: Vec<Status> = all.iter().map(|s| s.status).collect();
    let summary = "## Who designed it\nThe architect was **Sostratus of Cnidus** [1], named in the dedication [2]. \
                   It cost *eight hundred talents* [3]. He was paid a fortune [6]. \
                   Nobody knows what he looked like.";
    let claims = check_claims(summary, &statuses);
    debug_assert!(claims.iter().any(|c| c.issue == Some(ClaimIssue::Uncited)));
    let counts = VerdictCounts {
        validated: statuses.iter().filter(|s| **s == Status::Validated).count(),
        flagged: statuses.iter().filter(|s| **s == Status::Flagged).count(),
        dropped: statuses.iter().filter(|s| **s == Status::Dropped).count(),
    };
    let kept: Vec<String> = candidates
        .iter()
        .filter(|c| c.kept)
        .map(|c| c.id.clone())
        .collect();
    QueryOutcome {
        query: "Who was the architect of the Pharos of Alexandria?".into(),
        normalized_query: "architect pharos alexandria".into(),
        unknown_names: vec![],
        unknown_identifiers: vec![],
        unseen_identifiers: vec![],
        unstated_amount: false,
        asks_advice: false,
        unknown_name_share: 0.0,
        absent_name_share: 0.0,
        unknown_share: 0.0,
        engine: "extractive".into(),
        embedder: Some("builtin".into()),
        candidates,
        gate: gate_pass(),
        budget: Some(Budget {
            limit: 57_952,
            overhead_tokens: 0,
            context_tokens: 840,
            kept: kept[..kept.len() - 1].to_vec(),
            dropped: kept[kept.len() - 1..].to_vec(),
        }),
        snippets: all,
        counts,
        answer: Answer {
            text: summary.into(),
            refused: false,
            refusal_message: None,
            claims,
            confidence: Confidence::Low,
        },
        usage: Default::default(),
        rerank_error: None,
        extract_error: None,
        timings_ms: Timings {
            total: 12.0,
            ..Default::default()
        },
        works: None,
    }
}

/// A refusal by the retrieval gate: the question names something unknown.
pub fn refusal_outcome() -> QueryOutcome {
    let mut o = answer_outcome(4, 1);
    let mut n = BTreeMap::new();
    n.insert("candidates".into(), 4.0);
    n.insert("min_top_score".into(), 0.2);
    n.insert("top_score".into(), 0.12);
    n.insert("unknown_names".into(), 1.0);
    let mut g = GateDecision::new(Decision::Refuse, Tier::Retrieval, Reason::UnknownNames, n);
    g.message = format!("{}: Japan", g.message);
    o.query = "Who built the first lighthouse in Japan?".into();
    o.unknown_names = vec!["Japan".into()];
    o.gate = g;
    o.budget = None;
    o.snippets.clear();
    o.counts = VerdictCounts::default();
    o.answer = Answer {
        text: REFUSAL.into(),
        refused: true,
        refusal_message: Some(REFUSAL.into()),
        claims: vec![],
        confidence: Confidence::None,
    };
    o
}
