//! The whole query pipeline, top to bottom: normalise → hybrid retrieve →
//! gate → budget → extract → check spans → answer. The TUI and the CLI are
//! two views of the [`QueryOutcome`] this returns.

use crate::answer::{self, Claim, Confidence};
use crate::budget::{self, Budget};
use crate::chunk::Chunk;
use crate::config::Config;
use crate::embed::Embedder;
use crate::extract::{self, Span};
use crate::gate::{self, Decision, Evidence, GateDecision, REFUSAL, Reason, Tier};
use crate::index::Index;
use crate::provider::{Cancel, Usage};
use crate::retrieve::{self, Candidate};
use crate::validate::{ChunkRef, Status, Validation, Validator, Verdict};
use anyhow::Result;
use serde::Serialize;
use std::collections::BTreeMap;
use std::time::Instant;

mod engine;

pub use engine::{Engine, ExtractInput, Extractive, LlmEngine, build as build_engine};

#[derive(Debug, Clone, Serialize)]
pub struct CandidateOut {
    pub rank: usize,
    pub id: String,
    pub source_id: String,
    pub source_title: String,
    pub location: String,
    /// Where the chunk starts in its file: "p. 12" or "line 412".
    pub place: Option<String>,
    pub text: String,
    pub bm25: Option<f32>,
    pub bm25_rank: Option<usize>,
    pub vector: Option<f32>,
    pub vector_rank: Option<usize>,
    pub fused: f32,
    pub coverage: f32,
    /// Cosine of the question and the chunk's best one- or two-sentence window.
    pub window: Option<f32>,
    /// Late interaction of the question's words with the chunk's, in [0, 1].
    pub max_sim: Option<f32>,
    /// The score the gate used (retrieval tier).
    pub evidence: f32,
    /// The LLM reranker's 0–3 score, when it ran.
    pub rerank: Option<u8>,
    /// Kept for gate, budget and extraction (the top-k).
    pub kept: bool,
    /// Other sources holding this very passage (a file saved twice).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub also_in: Vec<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct SnippetOut {
    /// 1-based number, as cited in the answer.
    pub n: usize,
    /// What the extractor returned.
    pub content: String,
    /// The source the extractor cited.
    pub source_id: String,
    /// That source's title, from the index (never the extractor's claim);
    /// empty when the index has no such source.
    pub source_title: String,
    /// Where the quote is, from the index: the heading chain or page of the
    /// chunk validation located it in (in the cited source), else empty.
    pub location: String,
    /// Where the quote is in its file, for a citation: "p. 12" (the page
    /// the quote is on) or "line 412" (the line it starts on).
    pub place: Option<String>,
    /// What the extractor said the title and location were, when they
    /// differ from the index's: shown only as "the model said".
    pub model_source_title: Option<String>,
    pub model_source_location: Option<String>,
    pub relevance: f32,
    /// Where the extractor says it took the snippet from (engine only).
    pub span: Option<Span>,
    pub verdict: Verdict,
    pub status: Status,
    pub similarity: f32,
    /// Where validation located it: one span per piece.
    pub spans: Vec<Span>,
    /// The source where the passage really is, when not the cited one.
    pub found_source_id: Option<String>,
    /// What copying this snippet puts on the clipboard: the source's own
    /// words at the span(s), never the extractor's.
    pub copy_text: Option<String>,
    pub note: String,
    /// With a bibliography: the work this validated quote is from, and the
    /// quote cited in the configured style (`citing`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub cite: Option<QuoteCite>,
    /// The file the quote was validated against, as the index read it: a
    /// copy made after it changed is refused (the board's answer stays on
    /// screen while the folder changes).
    #[serde(skip)]
    pub read_as: Option<crate::index::FileStamp>,
}

impl SnippetOut {
    /// Has the file this quote was validated against changed (or gone)
    /// since the index read it?
    pub fn file_changed(&self) -> bool {
        self.read_as.as_ref().is_some_and(|f| f.changed())
    }
}

/// One quote's citation.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct QuoteCite {
    /// The bibliography key of the work.
    pub key: String,
    /// "Smith and Jones 2020".
    pub author_year: String,
    /// The page(s) as printed ("233", "4–5", "xii"), when the source has
    /// pages.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub page: Option<String>,
    /// The quote with its citation in the configured style.
    pub text: String,
}

/// The works behind an answer.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct AnswerWorks {
    /// Author-year of the work of each candidate's source, by source id.
    pub by_source: BTreeMap<String, String>,
    /// The references of the works the validated quotes cite, in the order
    /// first cited: (key, reference in the style's bibliography).
    pub references: Vec<(String, String)>,
    /// Why the quotes could not be cited (the bibliography unreadable):
    /// the answer stands without citations.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

#[derive(Debug, Clone, Serialize)]
pub struct Answer {
    /// What the author reads: the summary, or the refusal text.
    pub text: String,
    pub refused: bool,
    pub refusal_message: Option<String>,
    /// The summary's sentences with their citations and any problem.
    pub claims: Vec<Claim>,
    pub confidence: Confidence,
}

/// Snippet counts by status.
#[derive(Debug, Clone, Default, Serialize)]
pub struct VerdictCounts {
    pub validated: usize,
    pub flagged: usize,
    pub dropped: usize,
}

#[derive(Debug, Clone, Default, Serialize)]
pub struct Timings {
    pub retrieve: f64,
    pub gate: f64,
    pub budget: f64,
    pub rerank: f64,
    pub extract: f64,
    pub validate: f64,
    pub total: f64,
}

/// Does the gate's best passage hold at least `high_confidence_coverage`
/// of the question's terms? (A decision without the number: yes.)
pub fn holds_question(decision: &gate::GateDecision, cfg: &gate::GateConfig) -> bool {
    decision
        .numbers
        .get("top_coverage")
        .is_none_or(|c| *c as f32 >= cfg.high_confidence_coverage)
}

#[derive(Debug, Clone, Serialize)]
pub struct QueryOutcome {
    pub query: String,
    pub normalized_query: String,
    /// Names in the question that occur nowhere in the sources.
    pub unknown_names: Vec<String>,
    /// Those of them that are identifiers ("SMOTE") no retrieved passage
    /// spells out.
    pub unknown_identifiers: Vec<String>,
    /// Identifiers the sources use but none of the top passages names.
    pub unseen_identifiers: Vec<String>,
    /// The question asks for a sum of money none of the top passages states.
    pub unstated_amount: bool,
    /// The question asks for advice ("How do I…", "the best way to…").
    pub asks_advice: bool,
    /// IDF-weighted share of query terms that belong to those names.
    pub unknown_name_share: f32,
    /// The share of query terms that are words of those names no source
    /// uses.
    pub absent_name_share: f32,
    /// IDF-weighted share of query terms that occur nowhere in the sources.
    pub unknown_share: f32,
    pub engine: String,
    pub embedder: Option<String>,
    pub candidates: Vec<CandidateOut>,
    pub gate: GateDecision,
    pub budget: Option<Budget>,
    pub snippets: Vec<SnippetOut>,
    pub counts: VerdictCounts,
    pub answer: Answer,
    /// Tokens, time and requests the LLM calls took (zero for the engine).
    pub usage: Usage,
    /// Why the reranker did not run or failed, when it did not score.
    pub rerank_error: Option<String>,
    /// Why the LLM's quotes could not be read (its reply was not the JSON
    /// asked for), when the built-in extractor quoted instead.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub extract_error: Option<String>,
    pub timings_ms: Timings,
    /// With a bibliography: the author-year of each candidate's work, by
    /// source id, and the references of the works the quotes cite.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub works: Option<AnswerWorks>,
}

impl QueryOutcome {
    /// The gate's decision as an author reads it ("strong match in 3
    /// sources", "nothing in your sources mentions Japan"), without the
    /// numbers.
    pub fn gate_in_words(&self) -> String {
        let mut sources: Vec<&str> = self
            .candidates
            .iter()
            .filter(|c| c.kept)
            .map(|c| c.source_id.as_str())
            .collect();
        sources.sort_unstable();
        sources.dedup();
        self.gate.in_words(&self.unknown_names, sources.len())
    }

    /// Flag each validated quote whose file has changed since the index
    /// read it (`read_as`): those may no longer be the file's words. The
    /// answer is then medium at best. Returns the snippets flagged now.
    pub fn flag_changed_files(&mut self) -> Vec<usize> {
        let mut flagged = Vec::new();
        for (i, s) in self.snippets.iter_mut().enumerate() {
            if s.status == Status::Validated && s.file_changed() {
                s.status = Status::Flagged;
                s.note = format!(
                    "{}; but the file has changed since the index read it: update the index and ask again",
                    s.note
                );
                flagged.push(i);
            }
        }
        if !flagged.is_empty() {
            self.counts.validated -= flagged.len();
            self.counts.flagged += flagged.len();
            if self.answer.confidence == Confidence::High {
                self.answer.confidence = Confidence::Medium;
            }
        }
        flagged
    }
}

fn ms(t: Instant) -> f64 {
    (t.elapsed().as_secs_f64() * 1e6).round() / 1e3
}

/// Run the pipeline once for `query` with the built-in extractive engine.
pub fn ask(
    index: &Index,
    embedder: Option<&dyn Embedder>,
    cfg: &Config,
    query: &str,
) -> Result<QueryOutcome> {
    ask_with(index, embedder, cfg, query, &Extractive, None)
}

/// Run the pipeline once for `query` with `engine`; setting `cancel`
/// abandons the question's network calls.
pub fn ask_with(
    index: &Index,
    embedder: Option<&dyn Embedder>,
    cfg: &Config,
    query: &str,
    engine: &dyn Engine,
    cancel: Option<&Cancel>,
) -> Result<QueryOutcome> {
    let t_total = Instant::now();
    let mut timings = Timings::default();

    // 1. Retrieve: the fused candidate pool.
    let t = Instant::now();
    let retrieval = retrieve::retrieve(index, embedder, query, &cfg.retrieve)?;
    timings.retrieve = ms(t);
    let top_k = cfg.retrieve.top_k.max(1);
    let pool = &retrieval.candidates;

    let mut outcome = QueryOutcome {
        query: query.to_string(),
        normalized_query: retrieval.normalized_query.clone(),
        unknown_names: retrieval.unknown_names.clone(),
        unknown_identifiers: retrieval.unknown_identifiers.clone(),
        unseen_identifiers: retrieval.unseen_identifiers.clone(),
        unstated_amount: retrieval.unstated_amount,
        asks_advice: retrieval.asks_advice,
        unknown_name_share: retrieval.unknown_name_share,
        absent_name_share: retrieval.absent_name_share,
        unknown_share: retrieval.unknown_share,
        engine: engine.name(),
        embedder: embedder.map(|e| e.id().to_string()),
        candidates: pool.iter().map(|c| candidate_out(c, cfg)).collect(),
        gate: GateDecision::new(
            Decision::Refuse,
            Tier::Retrieval,
            Reason::NoChunksRetrieved,
            Default::default(),
        ),
        budget: None,
        snippets: Vec::new(),
        counts: VerdictCounts::default(),
        answer: refusal(),
        usage: Usage::default(),
        rerank_error: None,
        extract_error: None,
        timings_ms: Timings::default(),
        works: None,
    };

    // 2. Rerank (when the engine does) and 3. gate. Without scores, the
    // retrieval tier.
    let t = Instant::now();
    let pool_chunks: Vec<&Chunk> = pool.iter().map(|c| &c.chunk).collect();
    let mut scores: Option<Vec<u8>> = None;
    if let Some(r) = engine.rerank(query, &pool_chunks, cancel)? {
        // A server that does not answer would make the extraction wait
        // its time limit and attempts again: say so now.
        if r.unreachable {
            anyhow::bail!("{}", r.error.unwrap_or_default());
        }
        outcome.usage = outcome.usage + r.usage;
        outcome.rerank_error = r.error;
        scores = r.scores.filter(|s| s.len() == pool.len());
    }
    timings.rerank = ms(t);
    let t = Instant::now();
    // The kept chunks: best reranker scores (ties by fused rank), or the top
    // of the fused pool.
    let mut order: Vec<usize> = (0..pool.len()).collect();
    if let Some(s) = &scores {
        order.sort_by(|&a, &b| s[b].cmp(&s[a]).then(a.cmp(&b)));
        for (i, c) in outcome.candidates.iter_mut().enumerate() {
            c.rerank = Some(s[i]);
        }
    }
    order.truncate(top_k);
    for &i in &order {
        outcome.candidates[i].kept = true;
    }
    let kept: Vec<Evidence> = order.iter().map(|&i| Evidence::from(&pool[i])).collect();
    let input = gate::GateInput {
        kept: &kept,
        query_terms: retrieval.terms.len(),
        unknown_names: &retrieval.unknown_names,
        unknown_identifiers: &retrieval.unknown_identifiers,
        unseen_identifiers: &retrieval.unseen_identifiers,
        unstated_amount: retrieval.unstated_amount,
        asks_advice: retrieval.asks_advice,
        unknown_name_share: retrieval.unknown_name_share,
        absent_name_share: retrieval.absent_name_share,
        unknown_share: retrieval.unknown_share,
    };
    let decision = match &scores {
        Some(s) => {
            let kept_scores: Vec<u8> = order.iter().map(|&i| s[i]).collect();
            gate::reranked_gate(&kept_scores, &input, &cfg.gate)
        }
        None => gate::retrieval_gate(&input, &cfg.gate),
    };
    // What retrieval alone says of the same passages: with a reranker,
    // "high" still needs its strong evidence (a model that scores every
    // passage 3 answers, but not with high confidence).
    let evidence = match &scores {
        Some(_) => gate::retrieval_gate(&input, &cfg.gate),
        None => decision.clone(),
    };
    timings.gate = ms(t);
    outcome.gate = decision.clone();
    if decision.refused() {
        timings.total = ms(t_total);
        outcome.timings_ms = timings;
        return Ok(outcome);
    }

    // 4. Budget: drop the weakest chunks until the prompt fits.
    let t = Instant::now();
    let scored: Vec<(&Chunk, f32)> = order
        .iter()
        .map(|&i| {
            let score = match &scores {
                Some(s) => s[i] as f32,
                None => Evidence::from(&pool[i]).score(&cfg.gate),
            };
            (&pool[i].chunk, score)
        })
        .collect();
    let (fit, budget) = budget::fit(&scored, engine.prompt_overhead(query), &cfg.budget, &|c| {
        engine.chunk_tokens(c)
    });
    timings.budget = ms(t);
    outcome.budget = Some(budget);
    if fit.is_empty() {
        outcome.gate = post_gate(&decision, Reason::EmptyContextAfterBudget);
        timings.total = ms(t_total);
        outcome.timings_ms = timings;
        return Ok(outcome);
    }

    // 5. Extract.
    let t = Instant::now();
    let chunks: Vec<&Chunk> = fit.iter().map(|&i| scored[i].0).collect();
    let analyze = |s: &str| index.analyze(s);
    let input = ExtractInput {
        question: query,
        chunks: &chunks,
        terms: &retrieval.terms,
        analyze: &analyze,
        embedder,
        query_vector: retrieval.query_vector.as_deref(),
        config: cfg,
    };
    // A reply that is not the JSON asked for (cut short, a bare array,
    // prose, an object of another shape) loses no answer: the built-in
    // extractor quotes the same passages, and the outcome says why.
    let (extraction, usage) = match engine.extract(&input, cancel) {
        Err(e)
            if e.chain().any(|c| {
                matches!(
                    c.downcast_ref::<crate::provider::LlmError>(),
                    Some(
                        crate::provider::LlmError::Parse { .. }
                            | crate::provider::LlmError::Truncated { .. }
                            | crate::provider::LlmError::Schema { .. }
                    )
                )
            }) =>
        {
            outcome.extract_error = Some(format!("{e:#}"));
            engine::Extractive.extract(&input, cancel)?
        }
        other => other?,
    };
    outcome.usage = outcome.usage + usage;
    timings.extract = ms(t);

    // 6. Validate every snippet, then 7. check the answer's claims.
    let t = Instant::now();
    outcome.snippets = validate_snippets(index, pool, &extraction.snippets, cfg)?;
    timings.validate = ms(t);
    let statuses: Vec<Status> = outcome.snippets.iter().map(|s| s.status).collect();
    outcome.counts = VerdictCounts {
        validated: statuses.iter().filter(|s| **s == Status::Validated).count(),
        flagged: statuses.iter().filter(|s| **s == Status::Flagged).count(),
        dropped: statuses.iter().filter(|s| **s == Status::Dropped).count(),
    };
    if extraction.no_results || extraction.snippets.is_empty() {
        outcome.gate = post_gate(&decision, Reason::NoResults);
    } else if outcome.counts.dropped == outcome.snippets.len() {
        outcome.gate = post_gate(&decision, Reason::AllSnippetsDropped);
    } else {
        let mut claims = answer::check_claims(&extraction.summary, &statuses);
        // Support: each claim against the source's own words of what it
        // cites; the engine (an LLM judge) may refine the labels.
        let chunk_text = |id: &str| {
            pool.iter()
                .find(|c| c.chunk.id == id)
                .map(|c| c.chunk.text.as_str())
        };
        let quotes: Vec<Option<(&str, &str)>> = outcome
            .snippets
            .iter()
            .map(|s| {
                let copy = s.copy_text.as_deref()?;
                let chunk = s.spans.first().and_then(|sp| chunk_text(&sp.chunk_id));
                Some((copy, chunk.unwrap_or(copy)))
            })
            .collect();
        answer::judge_support(&mut claims, &quotes, &cfg.support);
        outcome.usage = outcome.usage + engine.refine_support(&mut claims, &quotes, cancel);
        answer::check_consistency(&mut claims, &quotes);
        // A claim supported only in part is worded so ("suggests").
        let text = answer::hedge_partial(&extraction.summary, &mut claims);
        // A reranker score of 3 ("contains the answer") is high, and so
        // must retrieval's evidence be; the best passage must hold most of
        // the question's terms.
        let retrieved = (!evidence.refused())
            .then(|| evidence.numbers.get("top_score").map(|x| *x as f32))
            .flatten();
        let top = match &scores {
            Some(_) => decision
                .numbers
                .get("top_rerank_score")
                .map(|x| (*x / 3.0) as f32)
                .map(|r| r.min(retrieved.unwrap_or(0.0))),
            None => retrieved,
        };
        let holds = holds_question(&evidence, &cfg.gate);
        let confidence = answer::confidence(
            top,
            cfg.gate.high_confidence_score,
            holds,
            &statuses,
            &claims,
        );
        outcome.answer = Answer {
            text,
            refused: false,
            refusal_message: None,
            claims,
            confidence,
        };
    }
    timings.total = ms(t_total);
    outcome.timings_ms = timings;
    Ok(outcome)
}

fn candidate_out(c: &Candidate, cfg: &Config) -> CandidateOut {
    CandidateOut {
        rank: c.rank,
        id: c.chunk.id.clone(),
        source_id: c.chunk.source_id.clone(),
        source_title: c.chunk.source_title.clone(),
        location: c.chunk.location.clone(),
        place: c.chunk.place_of(0),
        text: c.chunk.text.clone(),
        bm25: c.bm25,
        bm25_rank: c.bm25_rank,
        vector: c.vector,
        vector_rank: c.vector_rank,
        fused: c.fused,
        coverage: c.coverage,
        window: c.window,
        max_sim: c.max_sim,
        evidence: Evidence::from(c).score(&cfg.gate),
        rerank: None,
        kept: false,
        also_in: c.also_in.clone(),
    }
}

/// Validate every snippet against the retrieved pool; a snippet not found
/// there is looked for in the whole corpus through the index, so that a
/// passage from an unretrieved source is reported where it really is.
fn validate_snippets(
    index: &Index,
    pool: &[Candidate],
    snippets: &[extract::Snippet],
    cfg: &Config,
) -> Result<Vec<SnippetOut>> {
    let refs: Vec<ChunkRef<'_>> = pool.iter().map(|c| ChunkRef::from(&c.chunk)).collect();
    let places: Vec<(&str, usize, usize)> = pool
        .iter()
        .map(|c| (c.chunk.source_id.as_str(), c.chunk.start, c.chunk.end))
        .collect();
    let validator = Validator::new(&refs).with_adjacency(crate::validate::adjacency(&places, 4));
    let mut out = Vec::with_capacity(snippets.len());
    for (i, s) in snippets.iter().enumerate() {
        let mut v: Validation = validator.validate(&s.content, &s.source_id, &cfg.validate);
        if matches!(v.verdict, Verdict::NotFound | Verdict::Fuzzy) {
            let query = retrieve::normalize_query(&s.content.chars().take(400).collect::<String>());
            let extra: Vec<_> = index
                .bm25(&query, 5)?
                .into_iter()
                .filter(|h| !pool.iter().any(|c| c.chunk.id == h.chunk.id))
                .collect();
            if !extra.is_empty() {
                let mut all = refs.clone();
                all.extend(extra.iter().map(|h| ChunkRef::from(&h.chunk)));
                let wider = Validator::new(&all).validate(&s.content, &s.source_id, &cfg.validate);
                if wider.preference() > v.preference() {
                    v = wider;
                }
            }
        }
        // Title and location come from the index: the chunk the quote was
        // found in when that is the cited source (from the pool, else the
        // index), else the cited source's title alone.
        let located: Option<Chunk> = match v.spans.first() {
            Some(sp) if v.found_source_id.as_deref() == Some(s.source_id.as_str()) => {
                match pool.iter().find(|c| c.chunk.id == sp.chunk_id) {
                    Some(c) => Some(c.chunk.clone()),
                    None => index.chunk(&sp.chunk_id)?.map(|(c, _)| c),
                }
            }
            _ => None,
        };
        let (title, location) = match &located {
            Some(c) => (c.source_title.clone(), c.location.clone()),
            // The cited source's title, from the index's manifest.
            None => (
                index
                    .manifest
                    .files
                    .get(&s.source_id)
                    .map(|f| f.title.clone())
                    .unwrap_or_default(),
                String::new(),
            ),
        };
        let differs = |said: &str, known: &str| {
            let said = crate::ingest::collapse_ws(said);
            (!said.is_empty() && said != known).then_some(said)
        };
        out.push(SnippetOut {
            n: i + 1,
            content: s.content.clone(),
            source_id: s.source_id.clone(),
            model_source_title: differs(&s.source_title, &title),
            model_source_location: differs(&s.source_location, &location),
            place: located.as_ref().and_then(|c| {
                let start = v.spans.first().map_or(0, |sp| sp.start);
                // One running over a page break: both pages.
                let next: Vec<&Chunk> = v
                    .spans
                    .iter()
                    .skip(1)
                    .filter(|_| v.verdict != Verdict::NonContiguous)
                    .filter_map(|sp| pool.iter().find(|p| p.chunk.id == sp.chunk_id))
                    .map(|p| &p.chunk)
                    .collect();
                let all: Vec<&Chunk> = std::iter::once(c).chain(next).collect();
                crate::chunk::place_of_spans(&all, start)
            }),
            source_title: title,
            location,
            relevance: s.relevance,
            span: s.span.clone(),
            verdict: v.verdict,
            status: v.status,
            similarity: v.similarity,
            spans: v.spans,
            found_source_id: v.found_source_id,
            copy_text: v.copy_text,
            note: v.note,
            cite: None,
            read_as: None,
        });
    }
    Ok(out)
}

fn refusal() -> Answer {
    Answer {
        text: REFUSAL.to_string(),
        refused: true,
        refusal_message: Some(REFUSAL.to_string()),
        claims: Vec::new(),
        confidence: Confidence::None,
    }
}

/// A refusal after the retrieval gate passed, keeping its numbers.
fn post_gate(passed: &GateDecision, reason: Reason) -> GateDecision {
    let numbers: BTreeMap<String, f64> = passed.numbers.clone();
    let tier: Tier = passed.tier;
    GateDecision::new(Decision::Refuse, tier, reason, numbers)
}
