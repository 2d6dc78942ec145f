//! Embedders turn text into unit-length vectors for the HNSW store.
//!
//! Every embedder is deterministic for a given id: the id and dimension are
//! stored with the index, and a change of either re-embeds the corpus.

mod builtin;
#[cfg(feature = "minilm")]
mod minilm;
mod openai;
pub mod wordpiece;

pub use builtin::BuiltinEmbedder;
#[cfg(feature = "minilm")]
pub use minilm::{MODEL_SHA256 as MINILM_SHA256, MinilmEmbedder};
pub use openai::OpenAiEmbedder;

use anyhow::Result;
use serde::{Deserialize, Serialize};
use std::path::PathBuf;

/// Something that maps texts to L2-normalised vectors of a fixed dimension.
pub trait Embedder: Send + Sync {
    /// Stable identifier stored with the index (e.g. `builtin-minilm-static-v3-256`).
    fn id(&self) -> &str;
    /// Vector dimension.
    fn dim(&self) -> usize;
    /// Embed a batch of texts; one unit vector (or all zeros for text with no
    /// tokens) per input, in order.
    fn embed(&self, texts: &[&str]) -> Result<Vec<Vec<f32>>>;
    /// Late interaction (ColBERT's MaxSim) over static token vectors: for
    /// each text, the mean over the query's tokens, weighted by each token's
    /// weight in the model, of its best cosine with any token of the text
    /// (1 for a token the text holds, less for a related one), in [0, 1].
    /// `None` for a model whose token vectors depend on their context.
    fn max_sim(&self, query: &str, texts: &[&str]) -> Option<Vec<f32>> {
        let m = self.token_matches(query, texts)?;
        Some(m.best.iter().map(|b| m.score(b)).collect())
    }
    /// Late interaction token by token: the question's token weights and,
    /// for each text, each question token's best cosine with a token of the
    /// text (so that passages made of several texts combine by taking the
    /// maximum). `None` as for [`Embedder::max_sim`].
    fn token_matches(&self, _query: &str, _texts: &[&str]) -> Option<TokenMatches> {
        None
    }
    /// For a model whose text vector is the normalised sum of its tokens'
    /// (the built-in one): each text's sum, not normalised, so that the
    /// vector of adjacent texts together is the sum of theirs and each text
    /// is tokenised once — for texts that meet where a token ends
    /// (whitespace or punctuation), as sentences do. `None` for a model
    /// whose vectors do not add up.
    fn token_sums(&self, _texts: &[&str]) -> Option<Vec<Vec<f32>>> {
        None
    }
}

/// What [`Embedder::token_matches`] returns.
#[derive(Debug, Clone, PartialEq)]
pub struct TokenMatches {
    /// Each question token's weight in the model.
    pub weights: Vec<f32>,
    /// Per text, each question token's best cosine (0 where nothing matches).
    pub best: Vec<Vec<f32>>,
}

impl TokenMatches {
    /// MaxSim of one text's (or the element-wise maximum of several
    /// texts') best cosines: their weighted mean, in [0, 1].
    pub fn score(&self, best: &[f32]) -> f32 {
        let total: f32 = self.weights.iter().sum();
        if total <= 0.0 {
            return 0.0;
        }
        let sum: f32 = self.weights.iter().zip(best).map(|(w, b)| w * b).sum();
        (sum / total).clamp(0.0, 1.0)
    }
}

/// Environment variable naming the `minilm` model folder.
pub const MINILM_DIR_ENV: &str = "RESEARCH_BOARD_MINILM_DIR";

/// Which embedder to build, as named on the command line and in config.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum EmbedderKind {
    /// BM25 only: no vectors.
    None,
    /// Static token embeddings distilled from all-MiniLM-L6-v2, shipped in
    /// the repository: semantic, offline.
    #[default]
    Builtin,
    /// The full all-MiniLM-L6-v2 transformer (candle, CPU), from a model
    /// folder: semantic, offline, slower to index.
    Minilm,
    /// An OpenAI-compatible `/embeddings` endpoint.
    Openai,
}

impl EmbedderKind {
    /// The gate's thresholds on this embedder's score scale, which the
    /// config file's `[gate]` values replace where it sets them
    /// ([`crate::config::Config::settle`]). The models' cosine similarities
    /// have different scales: the built-in model's were calibrated on all
    /// dev halves (docs/evaluation-log.md, tenth round, its v3 table), the
    /// others' minimum on `eval/questions.json`; the advice threshold is off
    /// for the others, whose scores were not measured for it, and their
    /// "high" threshold is the one calibrated before the fitted tables.
    pub fn calibrated(self) -> Calibrated {
        let (min_top_score, advice_min_score, high_confidence_score) = match self {
            EmbedderKind::Builtin => (0.21, 0.45, 0.55),
            EmbedderKind::Minilm => (0.1, 0.0, 0.65),
            EmbedderKind::None | EmbedderKind::Openai => (0.2, 0.0, 0.65),
        };
        Calibrated {
            min_top_score,
            advice_min_score,
            high_confidence_score,
        }
    }
}

/// The gate thresholds that follow an embedder's score scale
/// ([`EmbedderKind::calibrated`]); each is the `[gate]` field of its name.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Calibrated {
    pub min_top_score: f32,
    pub advice_min_score: f32,
    pub high_confidence_score: f32,
}

impl std::str::FromStr for EmbedderKind {
    type Err = String;
    fn from_str(s: &str) -> std::result::Result<Self, String> {
        match s {
            "none" => Ok(Self::None),
            "builtin" => Ok(Self::Builtin),
            "minilm" => Ok(Self::Minilm),
            "openai" => Ok(Self::Openai),
            other => Err(format!(
                "unknown embedder '{other}' (expected: builtin, minilm, openai, none)"
            )),
        }
    }
}

/// The `[embed]` table of the config file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct EmbedConfig {
    /// Folder of the all-MiniLM-L6-v2 model for the `minilm` embedder
    /// (`scripts/fetch-minilm.sh DIR`); `RESEARCH_BOARD_MINILM_DIR` and
    /// `--model-dir` override it.
    pub minilm_dir: Option<PathBuf>,
    /// Model name sent to the `openai` embedder's endpoint.
    pub openai_model: String,
    /// Texts per request to the `openai` endpoint.
    pub batch_size: usize,
}

impl Default for EmbedConfig {
    fn default() -> Self {
        EmbedConfig {
            minilm_dir: None,
            openai_model: "text-embedding-3-small".into(),
            batch_size: openai::DEFAULT_BATCH,
        }
    }
}

/// What [`build`] needs beyond the embedder's name.
#[derive(Debug, Clone)]
pub struct EmbedSettings {
    /// `minilm`'s model folder; when unset, `RESEARCH_BOARD_MINILM_DIR`.
    pub minilm_dir: Option<PathBuf>,
    /// Base URL, key, timeouts and retries for `openai` (the LLM's).
    pub openai: crate::provider::LlmConfig,
    pub openai_model: String,
    /// Texts per request for `openai`.
    pub batch: usize,
}

impl EmbedSettings {
    /// Settings from the `[embed]` table and the (env-layered) LLM settings;
    /// `RESEARCH_BOARD_MINILM_DIR` overrides `embed.minilm_dir`.
    pub fn new(embed: &EmbedConfig, llm: &crate::provider::LlmConfig) -> Self {
        let env_dir = std::env::var_os(MINILM_DIR_ENV)
            .filter(|v| !v.is_empty())
            .map(PathBuf::from);
        EmbedSettings {
            minilm_dir: env_dir.or_else(|| embed.minilm_dir.clone()),
            openai: llm.clone(),
            openai_model: embed.openai_model.clone(),
            batch: embed.batch_size,
        }
    }
}

/// Build the embedder for `kind` with the default settings (plus
/// `RESEARCH_BOARD_MINILM_DIR` and the `OPENAI_*` variables); `None` means
/// BM25-only retrieval.
pub fn build(kind: EmbedderKind) -> Result<Option<Box<dyn Embedder>>> {
    let llm = crate::provider::LlmConfig::default().from_env();
    build_with(kind, &EmbedSettings::new(&EmbedConfig::default(), &llm))
}

/// Build the embedder for `kind`; `None` means BM25-only retrieval.
pub fn build_with(
    kind: EmbedderKind,
    settings: &EmbedSettings,
) -> Result<Option<Box<dyn Embedder>>> {
    Ok(match kind {
        EmbedderKind::None => None,
        EmbedderKind::Builtin => Some(Box::new(builtin::LazyBuiltin::new()?)),
        #[cfg(feature = "minilm")]
        EmbedderKind::Minilm => Some(Box::new(match &settings.minilm_dir {
            Some(dir) => MinilmEmbedder::load(dir)?,
            None => MinilmEmbedder::from_env()?,
        })),
        #[cfg(not(feature = "minilm"))]
        EmbedderKind::Minilm => anyhow::bail!(
            "this build of research-board has no minilm embedder; build it with \
             `cargo build --release --features minilm`, or use --embedder builtin"
        ),
        EmbedderKind::Openai => Some(Box::new(OpenAiEmbedder::new(
            &settings.openai,
            &settings.openai_model,
            settings.batch,
        )?)),
    })
}

/// Scale `v` to unit length in place (a zero vector stays zero).
pub fn normalize(v: &mut [f32]) {
    let n = v.iter().map(|x| x * x).sum::<f32>().sqrt();
    if n > 0.0 {
        v.iter_mut().for_each(|x| *x /= n);
    }
}

/// Cosine similarity of two unit vectors (their dot product). Eight
/// independent accumulators let the compiler vectorise the loop, and
/// walking whole chunks of eight leaves it no bounds to check (indexing
/// `a[i * 8 + j]` kept it scalar, three times slower; the sums are the same).
pub fn dot(a: &[f32], b: &[f32]) -> f32 {
    let n = a.len().min(b.len());
    let (a, b) = (&a[..n], &b[..n]);
    let mut acc = [0.0f32; 8];
    let (a8, a_rest) = a.split_at(n / 8 * 8);
    let (b8, b_rest) = b.split_at(n / 8 * 8);
    for (x, y) in a8.chunks_exact(8).zip(b8.chunks_exact(8)) {
        for j in 0..8 {
            acc[j] += x[j] * y[j];
        }
    }
    let mut sum: f32 = acc.iter().sum();
    for (x, y) in a_rest.iter().zip(b_rest) {
        sum += x * y;
    }
    sum
}

#[cfg(test)]
mod tests {
    proptest::proptest! {
        /// The vectorised loop adds in the same order as eight lanes summed
        /// one element at a time: the same bits, any lengths.
        #[test]
        fn dot_adds_like_eight_lanes_in_order(
            a in proptest::collection::vec(-1.0f32..1.0, 0..300),
            b in proptest::collection::vec(-1.0f32..1.0, 0..300),
        ) {
            let n = a.len().min(b.len());
            let mut lanes = [0.0f32; 8];
            for i in 0..n / 8 * 8 {
                lanes[i % 8] += a[i] * b[i];
            }
            let mut want: f32 = lanes.iter().sum();
            for i in n / 8 * 8..n {
                want += a[i] * b[i];
            }
            proptest::prop_assert_eq!(super::dot(&a, &b).to_bits(), want.to_bits());
        }
    }
}
