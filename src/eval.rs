//! Evaluation over a question set: chunk recall@k, refusal accuracy,
//! false-refusal rate and verbatim rate, per question and per kind, with an
//! optional sweep of the gate thresholds for calibration.

use crate::answer::Confidence;
use crate::config::Config;
use crate::embed::Embedder;
use crate::gate::{self, Evidence, GateConfig};
use crate::index::Index;
use crate::pipeline::{self, QueryOutcome};
use crate::retrieve::{self, Fusion, RetrieveConfig};
use crate::text::slice_chars;
use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::Path;
use unicode_segmentation::UnicodeSegmentation;

mod claims;
pub use claims::{ClaimPair, ClaimsReport, Detection, run_claims};

#[derive(Debug, Clone, Deserialize)]
pub struct QuestionSet {
    pub questions: Vec<Question>,
}

#[derive(Debug, Clone, Deserialize)]
pub struct Question {
    pub id: String,
    pub question: String,
    pub should_refuse: bool,
    pub expected_source: Option<String>,
    #[serde(default)]
    pub expected_phrases: Vec<String>,
    #[serde(default)]
    pub kind: Option<String>,
    /// Other sources that hold the same answer (duplicate files).
    #[serde(default)]
    pub also_sources: Vec<String>,
    /// "dev" (calibrate on it) or "test" (report it; never tune on it).
    #[serde(default)]
    pub split: Option<String>,
}

impl QuestionSet {
    pub fn load(path: &Path) -> Result<Self> {
        let text = std::fs::read_to_string(path)
            .with_context(|| format!("cannot read {}", path.display()))?;
        serde_json::from_str(&text)
            .with_context(|| format!("{} is not a valid question file", path.display()))
    }

    /// Only the questions of one split ("dev" or "test"); questions without
    /// a split belong to every split.
    pub fn only_split(mut self, split: Option<&str>) -> Self {
        if let Some(want) = split {
            self.questions
                .retain(|q| q.split.as_deref().is_none_or(|s| s == want));
        }
        self
    }
}

/// Is this kind one of the unanswerable kinds that tell off-topic
/// questions from near misses?
fn refusal_group(kind: &str) -> Option<&'static str> {
    match kind {
        "offtopic" | "off_topic" | "off-topic" => Some("off_topic"),
        "near_miss" | "near-miss" | "nearmiss" => Some("near_miss"),
        _ => None,
    }
}

#[derive(Debug, Clone, Serialize)]
pub struct QuestionResult {
    pub id: String,
    pub kind: String,
    pub question: String,
    pub should_refuse: bool,
    pub refused: bool,
    pub reason: String,
    /// Answerable questions: was an expected phrase in a kept chunk of the
    /// expected source?
    pub recall_hit: Option<bool>,
    /// Rank of the first such chunk in the pool.
    pub expected_rank: Option<usize>,
    pub top_evidence: f32,
    pub snippets: usize,
    pub verbatim_snippets: usize,
    pub validated_snippets: usize,
    /// Answerable questions answered (not refused): does a validated quote
    /// hold an expected phrase (the words that answer)?
    pub quote_hit: Option<bool>,
    /// The answer's confidence ("none" when refused).
    pub confidence: Confidence,
    /// The numbers the gate decided on (`ask --json`'s `gate.numbers`).
    pub gate: BTreeMap<String, f64>,
    /// Words in this answer's validated quotes, all together.
    pub quote_words: usize,
    /// How long each stage of answering it took (ms).
    pub timings_ms: crate::pipeline::Timings,
}

/// How often an answer given at one confidence was right: an answerable
/// question whose validated quotes hold the words that answer it. An
/// answered question that should have been refused is wrong.
#[derive(Debug, Clone, Default, Serialize)]
pub struct ConfidenceStats {
    pub answered: usize,
    pub right: usize,
    pub precision: Option<f64>,
}

/// `high` answers and their precision at one `gate.high_confidence_score`
/// (`eval --sweep`: how the threshold is calibrated).
#[derive(Debug, Clone, Serialize)]
pub struct ConfidenceRow {
    pub high_confidence_score: f32,
    pub high: ConfidenceStats,
}

/// A question whose run failed (an LLM error): left out of the rates.
#[derive(Debug, Clone, Serialize)]
pub struct QuestionError {
    pub id: String,
    pub error: String,
}

#[derive(Debug, Clone, Default, Serialize)]
pub struct KindStats {
    pub questions: usize,
    pub recall: Option<f64>,
    pub refused: usize,
}

#[derive(Debug, Clone, Serialize)]
pub struct SweepRow {
    pub min_top_score: f32,
    pub vector_weight: f32,
    pub unknown_penalty: f32,
    pub refuse_unknown_names: bool,
    pub unknown_names_min_share: f32,
    pub refusal_accuracy: f64,
    pub false_refusal_rate: f64,
}

/// Retrieval recall under one fusion setting (`eval --sweep`).
#[derive(Debug, Clone, Serialize)]
pub struct FusionRow {
    pub fusion: Fusion,
    pub bm25_weight: Option<f32>,
    pub recall_at_k: f64,
}

#[derive(Debug, Clone, Serialize)]
pub struct EvalReport {
    pub questions: usize,
    pub answerable: usize,
    pub unanswerable: usize,
    pub k: usize,
    pub recall_at_k: f64,
    /// Mean reciprocal rank of the first chunk holding the answer, over
    /// answerable questions (0 when it is not in the pool).
    pub mrr: f64,
    pub refusal_accuracy: f64,
    /// Refusal accuracy over off-topic questions only.
    pub refusal_accuracy_off_topic: Option<f64>,
    /// Refusal accuracy over near misses (on topic, not answered) only.
    pub refusal_accuracy_near_miss: Option<f64>,
    pub false_refusal_rate: f64,
    pub verbatim_rate: f64,
    /// Share of answerable questions whose validated quotes hold an
    /// expected phrase: the quote that answers was offered.
    pub quote_recall: f64,
    /// Mean length in words of the validated quotes of answered questions.
    pub mean_quote_words: f64,
    /// Snippets of answered questions, by verdict.
    pub verdicts: BTreeMap<String, usize>,
    /// Validated snippets whose located text is not, after normalization,
    /// the snippet itself: must be 0.
    pub validated_not_in_source: usize,
    pub engine: String,
    /// Questions that failed to run (left out of every rate).
    pub errors: Vec<QuestionError>,
    pub gate: GateConfig,
    pub by_kind: BTreeMap<String, KindStats>,
    /// Answered questions by confidence (high, medium, low), and how many
    /// of each were right.
    pub confidence: BTreeMap<Confidence, ConfidenceStats>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub confidence_sweep: Option<Vec<ConfidenceRow>>,
    pub results: Vec<QuestionResult>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sweep: Option<Vec<SweepRow>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fusion_sweep: Option<Vec<FusionRow>>,
    pub mean_query_ms: f64,
}

/// Rank of the first candidate `(source id, text, rank)` from the expected
/// source that holds an expected phrase (whitespace and case folded; see
/// [`holds_phrase`]).
fn expected_rank<'a>(
    q: &Question,
    candidates: impl Iterator<Item = (&'a str, &'a str, usize)>,
) -> Option<usize> {
    let src = q.expected_source.as_deref()?;
    let phrases: Vec<String> = q.expected_phrases.iter().map(|p| squash(p)).collect();
    candidates
        .filter(|(s, _, _)| *s == src || q.also_sources.iter().any(|a| a == s))
        .find(|(_, t, _)| {
            let t = squash(t);
            phrases.iter().any(|p| holds_phrase(&t, p))
        })
        .map(|(_, _, r)| r)
}

/// Does a passage's text hold an expected phrase (both squashed): whole,
/// or, where the phrase runs across the passage's first or last words
/// (chunks split text anywhere), at least half of it at that edge. Without
/// the second rule a phrase that crosses a chunk boundary is found in no
/// passage, however well the passages holding it rank.
fn holds_phrase(text: &str, phrase: &str) -> bool {
    let (t, p) = (text.trim(), phrase.trim());
    if p.is_empty() || t.contains(p) {
        return true;
    }
    let half = p.len().div_ceil(2);
    // A chunk may end inside a word a line break hyphenated ("made gen-").
    let tail = t.trim_end_matches('-');
    p.char_indices().skip(1).any(|(i, _)| {
        (i >= half && tail.ends_with(p[..i].trim_end()))
            || (p.len() - i >= half && t.starts_with(p[i..].trim_start()))
    })
}

/// recall@k of retrieval alone for each fusion setting, the configured one
/// included: how the fusion weight was chosen.
fn fusion_sweep(
    index: &Index,
    embedder: Option<&dyn Embedder>,
    cfg: &Config,
    set: &QuestionSet,
) -> Result<Vec<FusionRow>> {
    let mut settings = vec![(Fusion::Rrf, cfg.retrieve.bm25_weight)];
    for w in [0.0f32, 0.1, 0.2, 0.3, 0.4, 0.5, 0.7, 1.0] {
        settings.push((Fusion::Convex, w));
    }
    let k = cfg.retrieve.top_k.max(1);
    let mut rows = Vec::new();
    for (fusion, bm25_weight) in settings {
        let rc = RetrieveConfig {
            fusion,
            bm25_weight,
            ..cfg.retrieve
        };
        let (mut hits, mut n) = (0, 0);
        for q in set.questions.iter().filter(|q| !q.should_refuse) {
            let r = retrieve::retrieve(index, embedder, &q.question, &rc)?;
            n += 1;
            let found = expected_rank(
                q,
                r.candidates
                    .iter()
                    .map(|c| (c.chunk.source_id.as_str(), c.chunk.text.as_str(), c.rank)),
            );
            hits += usize::from(found.is_some_and(|r| r <= k));
        }
        rows.push(FusionRow {
            fusion,
            bm25_weight: (fusion == Fusion::Convex).then_some(bm25_weight),
            recall_at_k: ratio(hits, n),
        });
    }
    Ok(rows)
}

/// Text as validation compares it: an expected phrase is found in a chunk
/// the way a quote would be (ligatures, dashes, hyphenation folded).
fn squash(s: &str) -> String {
    crate::validate::normalize(s).text
}

/// Run every question through the pipeline.
pub fn run(
    index: &Index,
    embedder: Option<&dyn Embedder>,
    cfg: &Config,
    set: &QuestionSet,
    sweep: bool,
    engine: &dyn pipeline::Engine,
) -> Result<EvalReport> {
    let offline_gate = engine.deterministic();
    let sweep = sweep && offline_gate;
    // Extraction does not depend on the gate's thresholds: run with an open
    // gate once, then apply the configured gate (and any sweep) offline.
    let mut open = cfg.clone();
    open.gate.min_top_score = f32::NEG_INFINITY;
    open.gate.clear_winner_ratio = 0.0;
    open.gate.refuse_unknown_names = false;
    open.gate.advice_min_score = f32::NEG_INFINITY;
    let k = cfg.retrieve.top_k;
    let mut runs: Vec<(&Question, QueryOutcome, Vec<Evidence>)> = Vec::new();
    let mut total_ms = 0.0;
    let mut errors: Vec<QuestionError> = Vec::new();
    for q in &set.questions {
        // The extractive engine is cheap: run it past the gate and re-gate
        // offline. An LLM run uses the configured gate as it is.
        let outcome = if offline_gate {
            pipeline::ask(index, embedder, &open, &q.question)?
        } else {
            // An LLM failure on one question is recorded, not fatal.
            match pipeline::ask_with(index, embedder, cfg, &q.question, engine, None) {
                Ok(o) => o,
                Err(e) => {
                    errors.push(QuestionError {
                        id: q.id.clone(),
                        error: format!("{e:#}"),
                    });
                    continue;
                }
            }
        };
        total_ms += outcome.timings_ms.total;
        let kept: Vec<Evidence> = outcome
            .candidates
            .iter()
            .filter(|c| c.kept)
            .map(|c| Evidence {
                coverage: c.coverage,
                vector: c.vector,
            })
            .collect();
        runs.push((q, outcome, kept));
    }
    let decide = |g: &GateConfig, o: &QueryOutcome, kept: &[Evidence]| -> (bool, String) {
        if !offline_gate {
            return (o.answer.refused, format!("{:?}", o.gate.reason));
        }
        let d = gate::retrieval_gate(
            &gate::GateInput {
                kept,
                query_terms: usize::from(!o.normalized_query.is_empty()),
                unknown_names: &o.unknown_names,
                unknown_identifiers: &o.unknown_identifiers,
                unseen_identifiers: &o.unseen_identifiers,
                unstated_amount: o.unstated_amount,
                asks_advice: o.asks_advice,
                unknown_name_share: o.unknown_name_share,
                absent_name_share: o.absent_name_share,
                unknown_share: o.unknown_share,
            },
            g,
        );
        if d.refused() {
            (true, format!("{:?}", d.reason))
        } else if o.answer.refused {
            (true, format!("{:?}", o.gate.reason))
        } else {
            (false, "Passed".into())
        }
    };
    let mut results = Vec::new();
    for (q, o, kept) in &runs {
        let (refused, reason) = decide(&cfg.gate, o, kept);
        let expected_rank = expected_rank(
            q,
            o.candidates
                .iter()
                .map(|c| (c.source_id.as_str(), c.text.as_str(), c.rank)),
        );
        let validated: Vec<_> = o
            .snippets
            .iter()
            .filter(|s| s.status == crate::validate::Status::Validated)
            .collect();
        // Validated snippets whose located text really is in the chunk.
        let verbatim = validated
            .iter()
            .filter(|s| {
                s.spans.iter().all(|sp| {
                    o.candidates
                        .iter()
                        .find(|c| c.id == sp.chunk_id)
                        .is_some_and(|c| {
                            let located = slice_chars(&c.text, sp.start, sp.end);
                            crate::validate::normalize(located).text
                                == crate::validate::normalize(&s.content).text
                        })
                })
            })
            .count();
        results.push(QuestionResult {
            id: q.id.clone(),
            kind: q.kind.clone().unwrap_or_else(|| {
                if q.should_refuse {
                    "unanswerable".into()
                } else {
                    "answerable".into()
                }
            }),
            question: q.question.clone(),
            should_refuse: q.should_refuse,
            refused,
            reason,
            recall_hit: (!q.should_refuse).then(|| expected_rank.is_some_and(|r| r <= k)),
            expected_rank,
            top_evidence: kept.iter().map(|e| e.score(&cfg.gate)).fold(0.0, f32::max),
            snippets: if refused { 0 } else { o.snippets.len() },
            quote_hit: (!q.should_refuse).then(|| {
                let phrases: Vec<String> = q.expected_phrases.iter().map(|p| squash(p)).collect();
                !refused
                    && o.snippets.iter().any(|s| {
                        s.status == crate::validate::Status::Validated
                            && s.copy_text.as_deref().is_some_and(|t| {
                                let t = squash(t);
                                phrases.iter().any(|p| t.contains(p.as_str()))
                            })
                    })
            }),
            validated_snippets: if refused { 0 } else { validated.len() },
            verbatim_snippets: if refused { 0 } else { verbatim },
            confidence: if refused {
                Confidence::None
            } else {
                o.answer.confidence
            },
            gate: o.gate.numbers.clone(),
            quote_words: if refused {
                0
            } else {
                validated
                    .iter()
                    .map(|s| s.content.unicode_words().count())
                    .sum()
            },
            timings_ms: o.timings_ms.clone(),
        });
    }
    let rates = |g: &GateConfig| {
        let (mut refuse_ok, mut n_un, mut false_ref, mut n_ans) = (0, 0, 0, 0);
        for (q, o, kept) in &runs {
            let refused = decide(g, o, kept).0;
            if q.should_refuse {
                n_un += 1;
                refuse_ok += usize::from(refused);
            } else {
                n_ans += 1;
                false_ref += usize::from(refused);
            }
        }
        (ratio(refuse_ok, n_un), refused_share(false_ref, n_ans))
    };
    let (refusal_accuracy, false_refusal_rate) = rates(&cfg.gate);
    let answerable: Vec<&QuestionResult> = results.iter().filter(|r| !r.should_refuse).collect();
    let recall_hits = answerable
        .iter()
        .filter(|r| r.recall_hit == Some(true))
        .count();
    let snippets: usize = results.iter().map(|r| r.snippets).sum();
    let verbatim: usize = results.iter().map(|r| r.verbatim_snippets).sum();
    let validated: usize = results.iter().map(|r| r.validated_snippets).sum();
    let mut verdicts: BTreeMap<String, usize> = BTreeMap::new();
    for ((_, o, _), r) in runs.iter().zip(&results) {
        if !r.refused {
            for s in &o.snippets {
                let name = serde_json::to_value(s.verdict)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_string));
                *verdicts.entry(name.unwrap_or_default()).or_default() += 1;
            }
        }
    }
    let mut by_kind: BTreeMap<String, KindStats> = BTreeMap::new();
    for r in &results {
        let e = by_kind.entry(r.kind.clone()).or_default();
        e.questions += 1;
        e.refused += usize::from(r.refused);
    }
    for (kind, stats) in by_kind.iter_mut() {
        let ans: Vec<&&QuestionResult> = answerable.iter().filter(|r| &r.kind == kind).collect();
        if !ans.is_empty() {
            stats.recall = Some(ratio(
                ans.iter().filter(|r| r.recall_hit == Some(true)).count(),
                ans.len(),
            ));
        }
    }
    let sweep = sweep.then(|| {
        let mut rows = Vec::new();
        let names_options = [
            (false, 0.0f32),
            (true, 0.0),
            (true, 0.1),
            (true, 0.2),
            (true, 0.25),
            (true, 0.3),
        ];
        for (names, share) in names_options {
            for up in [0.0f32, 0.25, 0.5, 1.0] {
                for vw in [0.0f32, 0.25, 0.5, 0.75] {
                    for step in 0..=20 {
                        let g = GateConfig {
                            min_top_score: step as f32 * 0.05,
                            vector_weight: vw,
                            unknown_penalty: up,
                            refuse_unknown_names: names,
                            unknown_names_min_share: share,
                            ..cfg.gate
                        };
                        let (ra, fr) = rates(&g);
                        rows.push(SweepRow {
                            min_top_score: g.min_top_score,
                            vector_weight: vw,
                            unknown_penalty: up,
                            refuse_unknown_names: names,
                            unknown_names_min_share: share,
                            refusal_accuracy: ra,
                            false_refusal_rate: fr,
                        });
                    }
                }
            }
        }
        rows
    });
    let fusion_sweep = match sweep {
        Some(_) => Some(fusion_sweep(index, embedder, cfg, set)?),
        None => None,
    };
    let mrr = if answerable.is_empty() {
        0.0
    } else {
        answerable
            .iter()
            .map(|r| r.expected_rank.map_or(0.0, |k| 1.0 / k as f64))
            .sum::<f64>()
            / answerable.len() as f64
    };
    let group_accuracy = |g: &str| {
        let rs: Vec<&QuestionResult> = results
            .iter()
            .filter(|r| r.should_refuse && refusal_group(&r.kind) == Some(g))
            .collect();
        (!rs.is_empty()).then(|| ratio(rs.iter().filter(|r| r.refused).count(), rs.len()))
    };
    let confidence: BTreeMap<Confidence, ConfidenceStats> =
        [Confidence::High, Confidence::Medium, Confidence::Low]
            .into_iter()
            .map(|level| {
                (
                    level,
                    tally(results.iter().map(|r| (r, r.confidence)), level),
                )
            })
            .collect();
    // The same answers at other thresholds for `high` (offline gate only:
    // an LLM's reranked tier has its own scale).
    let confidence_sweep = sweep.is_some().then(|| {
        let inputs: Vec<(Option<f32>, bool, Vec<crate::validate::Status>)> = runs
            .iter()
            .map(|(_, o, _)| {
                let top = o.gate.numbers.get("top_score").map(|x| *x as f32);
                let holds = pipeline::holds_question(&o.gate, &cfg.gate);
                (top, holds, o.snippets.iter().map(|s| s.status).collect())
            })
            .collect();
        (10..=18)
            .map(|step| {
                let t = step as f32 * 0.05;
                let answers = results.iter().zip(&inputs).zip(&runs).map(
                    |((r, (top, holds, statuses)), (_, o, _))| {
                        (
                            r,
                            crate::answer::confidence(*top, t, *holds, statuses, &o.answer.claims),
                        )
                    },
                );
                ConfidenceRow {
                    high_confidence_score: t,
                    high: tally(answers, Confidence::High),
                }
            })
            .collect()
    });
    let quote_recall = ratio(
        results.iter().filter(|r| r.quote_hit == Some(true)).count(),
        answerable.len(),
    );
    let validated_quotes: usize = results.iter().map(|r| r.validated_snippets).sum();
    let mean_quote_words = if validated_quotes > 0 {
        results.iter().map(|r| r.quote_words).sum::<usize>() as f64 / validated_quotes as f64
    } else {
        0.0
    };
    Ok(EvalReport {
        quote_recall,
        mean_quote_words,
        mrr,
        refusal_accuracy_off_topic: group_accuracy("off_topic"),
        refusal_accuracy_near_miss: group_accuracy("near_miss"),
        fusion_sweep,
        verdicts,
        validated_not_in_source: validated - verbatim,
        errors,
        engine: runs.first().map(|r| r.1.engine.clone()).unwrap_or_default(),
        questions: results.len(),
        answerable: answerable.len(),
        unanswerable: results.len() - answerable.len(),
        k,
        recall_at_k: ratio(recall_hits, answerable.len()),
        refusal_accuracy,
        false_refusal_rate,
        verbatim_rate: if snippets == 0 {
            1.0
        } else {
            verbatim as f64 / snippets as f64
        },
        gate: cfg.gate,
        by_kind,
        confidence,
        confidence_sweep,
        results,
        sweep,
        mean_query_ms: if runs.is_empty() {
            0.0
        } else {
            total_ms / runs.len() as f64
        },
    })
}

/// Answered questions at `level` and how many were right: an answerable
/// question whose validated quotes hold the words that answer it.
fn tally<'a>(
    answers: impl Iterator<Item = (&'a QuestionResult, Confidence)>,
    level: Confidence,
) -> ConfidenceStats {
    let mut st = ConfidenceStats::default();
    for (r, _) in answers.filter(|(r, c)| !r.refused && *c == level) {
        st.answered += 1;
        st.right += usize::from(!r.should_refuse && r.quote_hit == Some(true));
    }
    st.precision = (st.answered > 0).then(|| ratio(st.right, st.answered));
    st
}

fn ratio(a: usize, b: usize) -> f64 {
    if b == 0 { 1.0 } else { a as f64 / b as f64 }
}

/// The share of `n` answerable questions refused: none of none is 0, not
/// the 1.0 `ratio` gives (a set of off-topic questions alone refuses no
/// answerable question).
fn refused_share(refused: usize, n: usize) -> f64 {
    if n == 0 { 0.0 } else { ratio(refused, n) }
}

#[cfg(test)]
mod tests {
    use super::{holds_phrase, refused_share};

    #[test]
    fn a_set_without_answerable_questions_has_no_false_refusals() {
        assert_eq!(refused_share(0, 0), 0.0);
        assert_eq!(refused_share(1, 4), 0.25);
    }

    #[test]
    fn a_phrase_across_a_chunk_edge_counts_where_half_of_it_is() {
        let p = "he was in extreme dishabille, busily noting down his thoughts";
        assert!(holds_phrase(
            "they found him. he was in extreme dishabille, busily noting down his thoughts on the wall.",
            p
        ));
        // The chunk ends inside the phrase, with most of it.
        assert!(holds_phrase(
            "finally discovering him. he was in extreme dishabille, busily",
            p
        ));
        // The next chunk starts inside it, with most of it.
        assert!(holds_phrase(
            "dishabille, busily noting down his thoughts on the wall.",
            p
        ));
        // ...even where the chunk ends inside a hyphenated word.
        assert!(holds_phrase("him. he was in extreme dishabille, bus-", p));
        // Less than half at either edge, or in the middle: not the passage.
        assert!(!holds_phrase("finally discovering him. he was in", p));
        assert!(!holds_phrase("his thoughts on the wall.", p));
        assert!(!holds_phrase(
            "she saw him busily noting down his thoughts on the wall.",
            p
        ));
    }
}
