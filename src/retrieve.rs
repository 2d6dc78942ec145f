//! Retrieval: query normalisation, BM25 + vector search, reciprocal-rank
//! fusion, dedupe by chunk id, a bounded candidate pool, and for every
//! candidate the lexical evidence the gate decides on.

use crate::chunk::Chunk;
use crate::embed::{Embedder, dot};
use crate::index::Index;
use anyhow::Result;
use names::unknown_names;
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, HashSet};

#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct RetrieveConfig {
    pub bm25_k: usize,
    pub vector_k: usize,
    /// HNSW search breadth: candidates explored for the vector top k.
    pub vector_ef: usize,
    /// Candidate pool after fusion.
    pub pool: usize,
    /// Chunks kept for the gate, budget and extraction.
    pub top_k: usize,
    /// How the two ranked lists are fused into one pool.
    pub fusion: Fusion,
    /// Convex fusion: weight of the min-max normalised BM25 score; the
    /// vector similarity gets the rest.
    pub bm25_weight: f32,
    /// Reciprocal-rank fusion: the k of 1 / (k + rank).
    pub rrf_k: f32,
    /// How many fused candidates are rescored (by passage windows and term
    /// coverage) before the pool is cut to `pool`.
    pub rescore_depth: usize,
    /// Weight of the best passage window's cosine (a window is one or two
    /// adjacent sentences of the chunk): a chunk's one answering sentence
    /// counts even when the rest of the chunk is about something else.
    pub window_weight: f32,
    /// Weight of the IDF-weighted share of the question's terms the chunk
    /// holds.
    pub coverage_weight: f32,
    /// Weight of late interaction (the embedder's MaxSim of the question's
    /// tokens against the chunk's): each question word counts by how well
    /// its best match in the chunk matches it, exact or related.
    pub max_sim_weight: f32,
}

/// How BM25 and vector hits are fused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Fusion {
    /// `bm25_weight * minmax(bm25) + (1 - bm25_weight) * minmax(cosine)`
    /// over the union of both lists; a chunk missing from the BM25 list
    /// scores 0 there, and every chunk's cosine comes from its stored vector.
    Convex,
    /// Reciprocal-rank fusion: the sum over the lists of 1 / (rrf_k + rank).
    Rrf,
}

impl Default for RetrieveConfig {
    fn default() -> Self {
        RetrieveConfig {
            bm25_k: 20,
            vector_k: 20,
            vector_ef: 256,
            pool: 12,
            top_k: 5,
            // Calibrated on eval/questions.json (docs/evaluation-log.md).
            fusion: Fusion::Convex,
            // Calibrated on the dev halves of eval/music-questions.json and
            // eval/papers-questions.json and on eval/questions.json
            // (docs/evaluation-log.md).
            bm25_weight: 0.2,
            rrf_k: 60.0,
            rescore_depth: 40,
            window_weight: 0.2,
            coverage_weight: 0.2,
            max_sim_weight: 0.4,
        }
    }
}

/// One fused candidate with the scores of each retriever.
#[derive(Debug, Clone, Serialize)]
pub struct Candidate {
    pub chunk: Chunk,
    /// 1-based rank in the fused pool.
    pub rank: usize,
    pub bm25: Option<f32>,
    pub bm25_rank: Option<usize>,
    /// Cosine similarity of query and chunk vectors.
    pub vector: Option<f32>,
    pub vector_rank: Option<usize>,
    /// Fusion score (convex: in [0, 1]; RRF: sum of 1 / (k + rank)).
    pub fused: f32,
    /// IDF-weighted share of the query's terms found in the chunk, in [0, 1].
    pub coverage: f32,
    /// Cosine of the query and the chunk's best passage window.
    pub window: Option<f32>,
    /// Late interaction of the question's tokens with the chunk's, in [0, 1].
    pub max_sim: Option<f32>,
    /// Other sources holding this chunk's very text (a file saved twice),
    /// whose copies were folded into this candidate.
    pub also_in: Vec<String>,
}

/// The result of retrieval for one query.
#[derive(Debug, Clone, Serialize)]
pub struct Retrieval {
    pub normalized_query: String,
    /// Analysed (lower-cased, stemmed) query terms with their IDF.
    pub terms: Vec<(String, f32)>,
    pub candidates: Vec<Candidate>,
    /// Names in the question (capitalised words, or runs of them) that occur
    /// nowhere in the sources.
    pub unknown_names: Vec<String>,
    /// Those of them that are identifiers ("SMOTE", "AlphaFold") which no
    /// candidate passage spells out either: a question about a method or
    /// product the sources never name.
    pub unknown_identifiers: Vec<String>,
    /// Identifiers of the question the sources use ("AUROC") but none of
    /// the top `top_k` passages names (text, title or location) or spells
    /// out: what the question is about is elsewhere, if anywhere.
    pub unseen_identifiers: Vec<String>,
    /// The question asks for a sum of money ("How much did it cost?") and
    /// none of the top `top_k` passages states one beside what it names.
    pub unstated_amount: bool,
    /// The question asks for advice ("How do I…", "my car", "the best way
    /// to…"), answered only by a passage that matches it closely.
    pub asks_advice: bool,
    /// IDF-weighted share of the query's terms that belong to those names,
    /// in [0, 1]: how much of the question is about what the sources lack.
    pub unknown_name_share: f32,
    /// The share of the query's terms that are words of those names no
    /// source uses ("Dafne"; none of "Bishop Elfeg", two words the sources
    /// use apart), in [0, 1].
    pub absent_name_share: f32,
    /// IDF-weighted share of the query's terms that occur nowhere in the
    /// sources, in [0, 1].
    pub unknown_share: f32,
    #[serde(skip)]
    pub query_vector: Option<Vec<f32>>,
}

const FILLER: &[&str] = &[
    "a",
    "about",
    "above",
    "after",
    "again",
    "all",
    "also",
    "am",
    "an",
    "and",
    "any",
    "are",
    "as",
    "at",
    "be",
    "been",
    "being",
    "both",
    "but",
    "by",
    "can",
    "could",
    "describe",
    "did",
    "do",
    "does",
    "doing",
    "during",
    "each",
    "explain",
    "few",
    "for",
    "from",
    "further",
    "give",
    "had",
    "has",
    "have",
    "having",
    "he",
    "her",
    "here",
    "hers",
    "him",
    "his",
    "how",
    "i",
    "if",
    "in",
    "into",
    "is",
    "it",
    "its",
    "itself",
    "just",
    "know",
    "kind",
    "me",
    "more",
    "most",
    "much",
    "my",
    "of",
    "on",
    "once",
    "only",
    "or",
    "other",
    "our",
    "out",
    "over",
    "please",
    "said",
    "say",
    "she",
    "should",
    "so",
    "some",
    "such",
    "tell",
    "than",
    "that",
    "the",
    "their",
    "theirs",
    "them",
    "then",
    "there",
    "these",
    "they",
    "this",
    "those",
    "through",
    "to",
    "too",
    "under",
    "until",
    "up",
    "us",
    "very",
    "was",
    "we",
    "were",
    "what",
    "whats",
    "when",
    "where",
    "which",
    "while",
    "who",
    "whom",
    "whose",
    "why",
    "will",
    "with",
    "would",
    "you",
    "your",
    "according",
    "sources",
    "source",
    "documents",
    "document",
    "mention",
    "mentioned",
    "mentions",
    "happened",
    "happen",
    "anything",
    "something",
    "thing",
    "things",
    "way",
    "ways",
    "sort",
];

/// The names a question asks about: its runs of capitalised words ("Bell
/// Rock", "Beethoven"), without a sentence's first word.
pub fn question_names(query: &str) -> Vec<String> {
    names::capitalised_runs(query)
        .into_iter()
        .filter_map(|run| {
            let from = usize::from(run.sentence_start);
            (run.words.len() > from).then(|| run.words[from..].join(" "))
        })
        .collect()
}

/// Strip question phrasing and filler words, keep the content terms in order.
pub fn normalize_query(q: &str) -> String {
    let lower = q.to_lowercase().replace(['’', '‘'], "'");
    lower
        .split(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '-'))
        .map(|w| w.trim_matches(|c| c == '\'' || c == '-'))
        .map(|w| w.strip_suffix("'s").unwrap_or(w))
        .filter(|w| !w.is_empty() && !FILLER.contains(w))
        .collect::<Vec<_>>()
        .join(" ")
}

/// Hybrid retrieval: BM25 k and vector k, fused (`cfg.fusion`), pool-bounded.
pub fn retrieve(
    index: &Index,
    embedder: Option<&dyn Embedder>,
    query: &str,
    cfg: &RetrieveConfig,
) -> Result<Retrieval> {
    let normalized = normalize_query(query);
    let n = index.chunk_count().max(1) as f32;
    let mut seen = HashSet::new();
    // (term, idf, document frequency), each term looked up once.
    let looked_up: Vec<(String, f32, u64)> = index
        .analyze(&normalized)
        .into_iter()
        .filter(|t| seen.insert(t.clone()))
        .map(|t| {
            let df = index.doc_freq(&t);
            let idf = (1.0 + (n - df as f32 + 0.5) / (df as f32 + 0.5)).ln();
            (t, idf, df)
        })
        .collect();
    let total_idf: f32 = looked_up.iter().map(|(_, w, _)| w).sum();
    let unknown: f32 = looked_up
        .iter()
        .filter(|(_, _, df)| *df == 0)
        .map(|(_, w, _)| w)
        .sum();
    // `+ 0.0`: an empty f32 sum is -0.0, which would print as "-0".
    let unknown_share = if total_idf > 0.0 {
        unknown / total_idf + 0.0
    } else {
        0.0
    };
    let absent_terms: HashSet<String> = looked_up
        .iter()
        .filter(|(_, _, df)| *df == 0)
        .map(|(t, _, _)| t.clone())
        .collect();
    let terms: Vec<(String, f32)> = looked_up.into_iter().map(|(t, w, _)| (t, w)).collect();
    let query_vector = match embedder {
        Some(e) if !normalized.is_empty() => e.embed(&[query])?.into_iter().next(),
        _ => None,
    };
    let mut by_id: HashMap<String, Candidate> = HashMap::new();
    let bm25 = index.bm25(&normalized, cfg.bm25_k)?;
    for (i, hit) in bm25.into_iter().enumerate() {
        let c = by_id
            .entry(hit.chunk.id.clone())
            .or_insert_with(|| blank(hit.chunk));
        c.bm25 = Some(hit.score);
        c.bm25_rank = Some(i + 1);
        // Similarity from the stored vector; the vector search below
        // overwrites it for the chunks it also finds.
        if let (Some(qv), Some(v)) = (&query_vector, &hit.vector) {
            c.vector = Some(dot(qv, v));
        }
    }
    if let Some(qv) = &query_vector {
        for (i, (id, sim)) in index
            .vector_search(qv, cfg.vector_k, cfg.vector_ef)
            .into_iter()
            .enumerate()
        {
            if !by_id.contains_key(&id) {
                let Some((chunk, _)) = index.chunk(&id)? else {
                    continue;
                };
                by_id.insert(id.clone(), blank(chunk));
            }
            let c = by_id.get_mut(&id).expect("inserted above");
            c.vector = Some(sim);
            c.vector_rank = Some(i + 1);
        }
    }
    let mut candidates: Vec<Candidate> = by_id.into_values().collect();
    fuse(&mut candidates, cfg);
    let order = |cs: &mut Vec<Candidate>| {
        cs.sort_by(|a, b| {
            b.fused
                .total_cmp(&a.fused)
                .then_with(|| a.chunk.id.cmp(&b.chunk.id))
        })
    };
    order(&mut candidates);
    fold_copies(&mut candidates);
    let rescore = cfg.window_weight > 0.0 || cfg.coverage_weight > 0.0 || cfg.max_sim_weight > 0.0;
    candidates.truncate(if rescore {
        cfg.rescore_depth.max(cfg.pool)
    } else {
        cfg.pool
    });
    let full_texts: Vec<String> = candidates
        .iter()
        .map(|c| {
            format!(
                "{} {} {}",
                c.chunk.source_title, c.chunk.location, c.chunk.text
            )
        })
        .collect();
    for (c, full) in candidates.iter_mut().zip(&full_texts) {
        if total_idf > 0.0 {
            let have: HashSet<String> = index.analyze(full).into_iter().collect();
            let hit: f32 = terms
                .iter()
                .filter(|(t, _)| have.contains(t))
                .map(|(_, w)| w)
                .sum();
            c.coverage = hit / total_idf + 0.0;
        }
    }
    if rescore {
        if let (Some(e), Some(qv)) = (embedder, &query_vector)
            && cfg.window_weight > 0.0
        {
            window_scores(&mut candidates, e, qv)?;
        }
        if let Some(e) = embedder
            && cfg.max_sim_weight > 0.0
            && !normalized.is_empty()
        {
            let texts: Vec<&str> = full_texts.iter().map(String::as_str).collect();
            if let Some(scores) = e.max_sim(&normalized, &texts) {
                for (c, s) in candidates.iter_mut().zip(scores) {
                    c.max_sim = Some(s);
                }
            }
        }
        let window = min_max(candidates.iter().filter_map(|c| c.window).collect());
        // An embedder without static token vectors (minilm, openai, none)
        // has no late interaction: its weight goes back to the fused score.
        let mw = if candidates.iter().any(|c| c.max_sim.is_some()) {
            cfg.max_sim_weight
        } else {
            0.0
        };
        let (ww, cw) = (cfg.window_weight, cfg.coverage_weight);
        let keep = (1.0 - ww - cw - mw).max(0.0);
        for c in candidates.iter_mut() {
            c.fused = keep * c.fused
                + ww * c.window.map_or(0.0, &window)
                + cw * c.coverage
                + mw * c.max_sim.unwrap_or(0.0);
        }
        order(&mut candidates);
        candidates.truncate(cfg.pool);
    }
    for (i, c) in candidates.iter_mut().enumerate() {
        c.rank = i + 1;
    }
    // Names the sources lack, but for abbreviations a passage spells out.
    let unknown_names = names::drop_spelled_out(index, unknown_names(index, query), &candidates);
    let name_terms: HashSet<String> = unknown_names
        .iter()
        .flat_map(|n| index.analyze(n))
        .collect();
    // The IDF-weighted share of the query's terms that are those names'
    // (and, with `absent`, used by no source).
    let share_of = |absent: bool| {
        if total_idf > 0.0 {
            terms
                .iter()
                .filter(|(t, _)| name_terms.contains(t) && (!absent || absent_terms.contains(t)))
                .map(|(_, w)| w)
                .sum::<f32>()
                / total_idf
                + 0.0
        } else {
            0.0
        }
    };
    let (unknown_name_share, absent_name_share) = (share_of(false), share_of(true));

    let (unknown_identifiers, unseen_identifiers) =
        names::lacking_identifiers(index, query, &unknown_names, &candidates, cfg.top_k);
    let unstated_amount = amount::unstated_amount(index, query, &terms, &candidates, cfg.top_k);
    Ok(Retrieval {
        normalized_query: normalized,
        terms,
        candidates,
        unknown_names,
        unknown_identifiers,
        unseen_identifiers,
        unstated_amount,
        asks_advice: advice::asks_advice(query),
        unknown_name_share,
        absent_name_share,
        unknown_share,
        query_vector,
    })
}

/// Each candidate's best passage window: the highest cosine between the
/// query and one sentence or two adjacent sentences of the chunk.
fn window_scores(candidates: &mut [Candidate], e: &dyn Embedder, qv: &[f32]) -> Result<()> {
    let sents: Vec<Vec<std::ops::Range<usize>>> = candidates
        .iter()
        .map(|c| crate::text::sentences(&c.chunk.text))
        .collect();
    let singles: Vec<&str> = candidates
        .iter()
        .zip(&sents)
        .flat_map(|(c, ss)| ss.iter().map(|r| &c.chunk.text[r.clone()]))
        .collect();
    if singles.is_empty() {
        return Ok(());
    }
    // Each candidate's sentences, then its pairs of adjacent sentences.
    let scores: Vec<f32> = match e.token_sums(&singles) {
        // The model's vectors add up: a pair is the sum of its two
        // sentences, and every sentence is tokenised once.
        Some(sums) => {
            let cos = |v: &[f32]| {
                let n = dot(v, v).sqrt();
                if n > 0.0 { dot(qv, v) / n } else { 0.0 }
            };
            let mut at = 0;
            let mut out = Vec::with_capacity(2 * sums.len());
            for ss in &sents {
                let own = &sums[at..at + ss.len()];
                at += ss.len();
                out.extend(own.iter().map(|v| cos(v)));
                out.extend(own.windows(2).map(|w| {
                    let pair: Vec<f32> = w[0].iter().zip(&w[1]).map(|(a, b)| a + b).collect();
                    cos(&pair)
                }));
            }
            out
        }
        None => {
            let texts: Vec<&str> = candidates
                .iter()
                .zip(&sents)
                .flat_map(|(c, ss)| {
                    let t = c.chunk.text.as_str();
                    let pairs = ss.windows(2).map(move |w| &t[w[0].start..w[1].end]);
                    ss.iter().map(move |r| &t[r.clone()]).chain(pairs)
                })
                .collect();
            e.embed(&texts)?.iter().map(|v| dot(qv, v)).collect()
        }
    };
    // A candidate of n sentences has n windows of one and n - 1 of two.
    let counts: Vec<usize> = sents
        .iter()
        .map(|ss| (2 * ss.len()).saturating_sub(1))
        .collect();
    let windows: usize = counts.iter().sum();
    anyhow::ensure!(
        scores.len() == windows,
        "the embedder returned {} vectors for {windows} passage windows",
        scores.len()
    );
    let mut at = 0;
    for (c, n) in candidates.iter_mut().zip(counts) {
        c.window = scores[at..at + n].iter().copied().reduce(f32::max);
        at += n;
    }
    Ok(())
}

/// Set every candidate's fusion score.
fn fuse(candidates: &mut [Candidate], cfg: &RetrieveConfig) {
    match cfg.fusion {
        Fusion::Rrf => {
            let rr = |r: Option<usize>| r.map_or(0.0, |r| 1.0 / (cfg.rrf_k + r as f32));
            for c in candidates.iter_mut() {
                c.fused = rr(c.bm25_rank) + rr(c.vector_rank);
            }
        }
        Fusion::Convex => {
            let w = cfg.bm25_weight.clamp(0.0, 1.0);
            let bm25 = min_max(candidates.iter().filter_map(|c| c.bm25).collect());
            let vector = min_max(candidates.iter().filter_map(|c| c.vector).collect());
            for c in candidates.iter_mut() {
                c.fused = w * c.bm25.map_or(0.0, &bm25) + (1.0 - w) * c.vector.map_or(0.0, &vector);
            }
        }
    }
}

/// A min-max normaliser over `scores` into [0, 1]; equal scores map to 1.
fn min_max(scores: Vec<f32>) -> impl Fn(f32) -> f32 {
    let (lo, hi) = scores
        .into_iter()
        .fold((f32::INFINITY, f32::NEG_INFINITY), |(lo, hi), s| {
            (lo.min(s), hi.max(s))
        });
    move |s| {
        if hi > lo {
            ((s - lo) / (hi - lo)).clamp(0.0, 1.0)
        } else {
            1.0
        }
    }
}

fn blank(chunk: Chunk) -> Candidate {
    Candidate {
        chunk,
        rank: 0,
        bm25: None,
        bm25_rank: None,
        vector: None,
        vector_rank: None,
        fused: 0.0,
        coverage: 0.0,
        window: None,
        max_sim: None,
        also_in: Vec::new(),
    }
}

/// Fold every candidate whose text is a better-ranked one's into it: the
/// same passage in two files (a paper saved twice) takes one place, and
/// the kept one says where else it is.
fn fold_copies(candidates: &mut Vec<Candidate>) {
    let mut first: HashMap<&str, usize> = HashMap::new();
    let mut folded: Vec<(usize, String)> = Vec::new();
    let mut keep = vec![true; candidates.len()];
    for (i, c) in candidates.iter().enumerate() {
        match first.get(c.chunk.text.trim()) {
            Some(&j) => {
                keep[i] = false;
                folded.push((j, c.chunk.source_id.clone()));
            }
            None => {
                first.insert(c.chunk.text.trim(), i);
            }
        }
    }
    for (j, source) in folded {
        if candidates[j].chunk.source_id != source && !candidates[j].also_in.contains(&source) {
            candidates[j].also_in.push(source);
        }
    }
    let mut k = keep.into_iter();
    candidates.retain(|_| k.next().unwrap_or(true));
}

mod advice;
mod amount;
mod names;
#[cfg(test)]
mod tests;
