//! The whole query pipeline, top to bottom: normalise → hybrid retrieve →
//! gate → budget → extract → check spans → answer. The TUI and the CLI are
//! two views of the [`QueryOutcome`] this returns.

use crate::budget::{self, Budget};
use crate::config::Config;
use crate::embed::Embedder;
use crate::extract::{self, Span};
use crate::gate::{self, Decision, GateDecision, REFUSAL, Reason, Tier};
use crate::index::Index;
use crate::retrieve::{self, Candidate};
use crate::text::slice_chars;
use anyhow::Result;
use serde::Serialize;
use std::collections::BTreeMap;
use std::time::Instant;

#[derive(Debug, Clone, Serialize)]
pub struct CandidateOut {
    pub rank: usize,
    pub id: String,
    pub source_id: String,
    pub source_title: String,
    pub location: String,
    pub text: String,
    pub bm25: Option<f32>,
    pub bm25_rank: Option<usize>,
    pub vector: Option<f32>,
    pub vector_rank: Option<usize>,
    pub fused: f32,
    pub coverage: f32,
    /// The score the gate used.
    pub evidence: f32,
    /// Kept for gate, budget and extraction (the top-k).
    pub kept: bool,
}

#[derive(Debug, Clone, Serialize)]
pub struct SnippetOut {
    pub content: String,
    pub source_id: String,
    pub source_title: String,
    pub location: String,
    pub relevance: f32,
    pub span: Option<Span>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Answer {
    /// What the author reads: the summary, or the refusal text.
    pub text: String,
    pub refused: bool,
    pub refusal_message: Option<String>,
}

#[derive(Debug, Clone, Default, Serialize)]
pub struct Timings {
    pub retrieve: f64,
    pub gate: f64,
    pub budget: f64,
    pub extract: f64,
    pub total: f64,
}

#[derive(Debug, Clone, Serialize)]
pub struct QueryOutcome {
    pub query: String,
    pub normalized_query: String,
    /// Names in the question that occur nowhere in the sources.
    pub unknown_names: Vec<String>,
    /// IDF-weighted share of query terms that occur nowhere in the sources.
    pub unknown_share: f32,
    pub engine: String,
    pub embedder: Option<String>,
    pub candidates: Vec<CandidateOut>,
    pub gate: GateDecision,
    pub budget: Option<Budget>,
    pub snippets: Vec<SnippetOut>,
    pub answer: Answer,
    pub timings_ms: Timings,
}

fn ms(t: Instant) -> f64 {
    (t.elapsed().as_secs_f64() * 1e6).round() / 1e3
}

/// Run the pipeline once for `query`.
pub fn ask(
    index: &Index,
    embedder: Option<&dyn Embedder>,
    cfg: &Config,
    query: &str,
) -> Result<QueryOutcome> {
    let t_total = Instant::now();
    let mut timings = Timings::default();

    let t = Instant::now();
    let retrieval = retrieve::retrieve(index, embedder, query, &cfg.retrieve)?;
    timings.retrieve = ms(t);
    let top_k = cfg.retrieve.top_k.max(1);
    let kept: Vec<&Candidate> = retrieval.candidates.iter().take(top_k).collect();
    let kept_owned: Vec<Candidate> = kept.iter().map(|c| (*c).clone()).collect();

    let t = Instant::now();
    let mut decision = gate::retrieval_gate(
        &gate::GateInput {
            kept: &kept_owned,
            query_terms: retrieval.terms.len(),
            unknown_names: &retrieval.unknown_names,
            unknown_share: retrieval.unknown_share,
        },
        &cfg.gate,
    );
    timings.gate = ms(t);

    let mut outcome = QueryOutcome {
        query: query.to_string(),
        normalized_query: retrieval.normalized_query.clone(),
        unknown_names: retrieval.unknown_names.clone(),
        unknown_share: retrieval.unknown_share,
        engine: "extractive".into(),
        embedder: embedder.map(|e| e.id().to_string()),
        candidates: retrieval
            .candidates
            .iter()
            .map(|c| CandidateOut {
                rank: c.rank,
                id: c.chunk.id.clone(),
                source_id: c.chunk.source_id.clone(),
                source_title: c.chunk.source_title.clone(),
                location: c.chunk.location.clone(),
                text: c.chunk.text.clone(),
                bm25: c.bm25,
                bm25_rank: c.bm25_rank,
                vector: c.vector,
                vector_rank: c.vector_rank,
                fused: c.fused,
                coverage: c.coverage,
                evidence: gate::evidence(c, &cfg.gate),
                kept: c.rank <= top_k,
            })
            .collect(),
        gate: decision.clone(),
        budget: None,
        snippets: Vec::new(),
        answer: refusal(),
        timings_ms: timings.clone(),
    };
    if decision.refused() {
        outcome.timings_ms.total = ms(t_total);
        return Ok(outcome);
    }

    let t = Instant::now();
    let scored: Vec<(&crate::chunk::Chunk, f32)> = kept
        .iter()
        .map(|c| (&c.chunk, gate::evidence(c, &cfg.gate)))
        .collect();
    let (fit, budget) = budget::fit(&scored, 0, &cfg.budget);
    timings.budget = ms(t);
    outcome.budget = Some(budget);
    if fit.is_empty() {
        decision = post_gate(&decision, Reason::EmptyContextAfterBudget);
        outcome.gate = decision;
        timings.total = ms(t_total);
        outcome.timings_ms = timings;
        return Ok(outcome);
    }

    let t = Instant::now();
    let chunks: Vec<&crate::chunk::Chunk> = fit.iter().map(|&i| scored[i].0).collect();
    let analyze = |s: &str| index.analyze(s);
    let extraction = extract::extractive(
        &chunks,
        &retrieval.terms,
        &analyze,
        embedder,
        retrieval.query_vector.as_deref(),
        &cfg.extract,
    )?;
    timings.extract = ms(t);

    // Every snippet must slice exactly out of the chunk it names.
    outcome.snippets = extraction
        .snippets
        .iter()
        .filter(|s| {
            s.span.as_ref().is_some_and(|sp| {
                chunks
                    .iter()
                    .find(|c| c.id == sp.chunk_id)
                    .is_some_and(|c| slice_chars(&c.text, sp.start, sp.end) == s.content)
            })
        })
        .map(|s| SnippetOut {
            content: s.content.clone(),
            source_id: s.source_id.clone(),
            source_title: s.source_title.clone(),
            location: s.source_location.clone(),
            relevance: s.relevance,
            span: s.span.clone(),
        })
        .collect();
    if extraction.no_results {
        outcome.gate = post_gate(&decision, Reason::NoResults);
    } else if outcome.snippets.is_empty() {
        outcome.gate = post_gate(&decision, Reason::AllSnippetsDropped);
    } else {
        outcome.answer = Answer {
            text: extraction.summary,
            refused: false,
            refusal_message: None,
        };
    }
    timings.total = ms(t_total);
    outcome.timings_ms = timings;
    Ok(outcome)
}

fn refusal() -> Answer {
    Answer {
        text: REFUSAL.to_string(),
        refused: true,
        refusal_message: Some(REFUSAL.to_string()),
    }
}

/// A refusal after the retrieval gate passed, keeping its numbers.
fn post_gate(passed: &GateDecision, reason: Reason) -> GateDecision {
    let numbers: BTreeMap<String, f64> = passed.numbers.clone();
    let tier: Tier = passed.tier;
    GateDecision::new(Decision::Refuse, tier, reason, numbers)
}
