//! Retrieval: query normalisation, BM25 + vector search, reciprocal-rank
//! fusion, dedupe by chunk id, a bounded candidate pool, and for every
//! candidate the lexical evidence the gate decides on.

use crate::chunk::Chunk;
use crate::embed::{Embedder, dot};
use crate::index::Index;
use anyhow::Result;
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, HashSet};

#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
#[serde(default)]
pub struct RetrieveConfig {
    pub bm25_k: usize,
    pub vector_k: usize,
    /// Candidate pool after fusion.
    pub pool: usize,
    /// Chunks kept for the gate, budget and extraction.
    pub top_k: usize,
    /// The k of reciprocal-rank fusion: 1 / (k + rank).
    pub rrf_k: f32,
}

impl Default for RetrieveConfig {
    fn default() -> Self {
        RetrieveConfig {
            bm25_k: 10,
            vector_k: 10,
            pool: 12,
            top_k: 5,
            rrf_k: 60.0,
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
    /// Reciprocal-rank fusion score.
    pub fused: f32,
    /// IDF-weighted share of the query's terms found in the chunk, in [0, 1].
    pub coverage: f32,
}

/// The result of retrieval for one query.
#[derive(Debug, Clone, Serialize)]
pub struct Retrieval {
    pub normalized_query: String,
    /// Analysed (lower-cased, stemmed) query terms with their IDF.
    pub terms: Vec<(String, f32)>,
    pub candidates: Vec<Candidate>,
    /// Capitalised words of the question (names) that occur nowhere in the
    /// sources.
    pub unknown_names: Vec<String>,
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

/// Hybrid retrieval: BM25 k and vector k, fused by RRF, pool-bounded.
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
    let unknown_share = if total_idf > 0.0 {
        unknown / total_idf
    } else {
        0.0
    };
    let terms: Vec<(String, f32)> = looked_up.into_iter().map(|(t, w, _)| (t, w)).collect();
    let unknown_names = unknown_names(index, query);

    // Stored vectors of the chunks already loaded, for similarity below.
    let mut stored: HashMap<String, Vec<f32>> = HashMap::new();
    let mut by_id: HashMap<String, Candidate> = HashMap::new();
    let bm25 = index.bm25(&normalized, cfg.bm25_k)?;
    for (i, hit) in bm25.into_iter().enumerate() {
        if let Some(v) = hit.vector {
            stored.insert(hit.chunk.id.clone(), v);
        }
        let c = by_id
            .entry(hit.chunk.id.clone())
            .or_insert_with(|| blank(hit.chunk));
        c.bm25 = Some(hit.score);
        c.bm25_rank = Some(i + 1);
    }
    let query_vector = match embedder {
        Some(e) if !normalized.is_empty() => e.embed(&[query])?.into_iter().next(),
        _ => None,
    };
    if let Some(qv) = &query_vector {
        for (i, (id, sim)) in index
            .vector_search(qv, cfg.vector_k)
            .into_iter()
            .enumerate()
        {
            if !by_id.contains_key(&id) {
                let Some((chunk, v)) = index.chunk(&id)? else {
                    continue;
                };
                if let Some(v) = v {
                    stored.insert(id.clone(), v);
                }
                by_id.insert(id.clone(), blank(chunk));
            }
            let c = by_id.get_mut(&id).expect("inserted above");
            c.vector = Some(sim);
            c.vector_rank = Some(i + 1);
        }
    }
    let mut candidates: Vec<Candidate> = by_id.into_values().collect();
    for c in &mut candidates {
        c.fused = c.bm25_rank.map_or(0.0, |r| 1.0 / (cfg.rrf_k + r as f32))
            + c.vector_rank.map_or(0.0, |r| 1.0 / (cfg.rrf_k + r as f32));
    }
    candidates.sort_by(|a, b| {
        b.fused
            .total_cmp(&a.fused)
            .then_with(|| a.chunk.id.cmp(&b.chunk.id))
    });
    candidates.truncate(cfg.pool);
    for (i, c) in candidates.iter_mut().enumerate() {
        c.rank = i + 1;
        // Vector similarity for BM25-only hits, from the stored vector.
        if c.vector.is_none()
            && let Some(qv) = &query_vector
        {
            c.vector = stored.get(&c.chunk.id).map(|v| dot(qv, v));
        }
        if total_idf > 0.0 {
            let have: HashSet<String> = index
                .analyze(&format!(
                    "{} {} {}",
                    c.chunk.source_title, c.chunk.location, c.chunk.text
                ))
                .into_iter()
                .collect();
            let hit: f32 = terms
                .iter()
                .filter(|(t, _)| have.contains(t))
                .map(|(_, w)| w)
                .sum();
            c.coverage = hit / total_idf;
        }
    }
    Ok(Retrieval {
        normalized_query: normalized,
        terms,
        candidates,
        unknown_names,
        unknown_share,
        query_vector,
    })
}

/// Capitalised words of `query` that are not filler and whose analysed
/// terms all have document frequency zero.
fn unknown_names(index: &Index, query: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for w in query.split(|c: char| !(c.is_alphanumeric() || c == '\'' || c == '’' || c == '-')) {
        let w = w.trim_matches(|c: char| !c.is_alphanumeric());
        let Some(first) = w.chars().next() else {
            continue;
        };
        if !first.is_uppercase() || FILLER.contains(&w.to_lowercase().as_str()) {
            continue;
        }
        let terms = index.analyze(w);
        if !terms.is_empty()
            && terms.iter().all(|t| index.doc_freq(t) == 0)
            && !out.iter().any(|o| o == w)
        {
            out.push(w.to_string());
        }
    }
    out
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
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalization_strips_question_phrasing() {
        assert_eq!(
            normalize_query("What did John Smeaton use to make his mortar set under water?"),
            "john smeaton use make mortar set water"
        );
        assert_eq!(
            normalize_query("Tell me about Grace Darling’s rescue, please."),
            "grace darling rescue"
        );
        assert_eq!(normalize_query("Who? What? Why?"), "");
        assert_eq!(
            normalize_query("the 1838 Forfarshire wreck"),
            "1838 forfarshire wreck"
        );
    }
}
